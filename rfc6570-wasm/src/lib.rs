//! The engine for JavaScript: what the npm package's `index.js` calls, as wasm-bindgen
//! exports.
//!
//! The package wraps these in the TypeScript SDK's shapes (`UriTemplate`, `Router`,
//! `safeJoin`). A refusal is the JSON of an [`ErrorJson`], which the package turns into a
//! `UriTemplateError`. Nothing here panics on any input: every fallible step answers with an
//! error, so a bad input can never trap the WebAssembly instance.
//!
//! The calls made per request (`matchInput`, `expandInput`, a router's `atInput`) skip
//! wasm-bindgen's string passing, whose allocations and text decoding cost more than the
//! match itself: the package writes the input into a buffer of this module's ([`io`]) and
//! reads the answer from another, and the call answers only a length. An expansion's
//! variables come as [`values`] reads them, not as JSON. The other calls (construction,
//! `explain`, `lints`, `names`, `isTemplate`, `safeJoin`) pass strings.
//!
//! A refused URI is never answered as a match: `match` and a router's `at` answer none for it,
//! as for a URI that nothing matches (the SDK's shape, whose server then answers "resource not
//! found"), and `explain` names the rule, the variable or the position.
//! [`Template::match_uri`], [`Template::expand`] and [`Routes::at`] are the per-request calls
//! with strings, for Rust callers: `tests/cases.rs` runs them, natively, over the cases that
//! the JavaScript tests run too.

#![forbid(unsafe_code)]

mod errors;
pub mod io;
mod plan;
pub mod values;
mod variables;

use std::path::Path;

use rfc6570::router::Routed;
use rfc6570::router::RouterOptions;
use rfc6570::safety::SafetyPolicy;
use rfc6570::{InsertError, Partial, RouteError, Router, UriTemplate};
use wasm_bindgen::prelude::wasm_bindgen;

use io::Status;
use variables::Names;

pub use errors::ErrorJson;

/// What a call answers: its result, or the JSON of the error to throw.
pub type Answer = Result<String, String>;

/// The longest expansion answered, in bytes: past it, an expansion is an error rather than a
/// string that could exhaust the module's memory (a variable of a thousand items, each
/// repeating a long name).
pub const MAX_EXPANSION: usize = 1 << 20;

/// A template, parsed once, and its matcher: a router of this one template, so that a match
/// reads as a router's lookup does, path safety included. Its value is the route's index, 0,
/// as in [`Routes`]: one kind of router, whose code the module holds once.
///
/// It holds a [`Partial`]: a template that partial expansion made carries the values it could
/// not write into the text, and expands with them.
#[wasm_bindgen]
pub struct Template {
    partial: Partial,
    matcher: Result<Router<u32>, InsertError>,
    names: Names,
    path_safety: bool,
}

#[wasm_bindgen]
impl Template {
    /// Parses `source`; with `path_safety`, matches refuse values that would walk out of a
    /// path (`..`, encoded separators, look-alikes). A template that cannot be matched (see
    /// `lints`) is still one to expand.
    #[wasm_bindgen(constructor)]
    pub fn new(source: &str, path_safety: bool) -> Result<Template, String> {
        let template = UriTemplate::parse(source).map_err(|e| ErrorJson::parse(&e, source))?;
        Ok(Template::of(template.into(), path_safety))
    }

    /// The variables of `variables` (as [`expand`](Self::expand) takes them) written in, the
    /// others kept: a template whose expansion with the rest is the whole one's (the crate's
    /// semantics, section 17).
    pub fn partial(&self, variables: &str) -> Result<Template, String> {
        let variables = values::Variables::parse(variables)
            .ok_or_else(|| ErrorJson::new("variables", "the variables are malformed").to_json())?;
        let partial = self
            .partial
            .partial(&variables)
            .map_err(|e| ErrorJson::parse(&e, self.template().as_str()))?;
        Ok(Template::of(partial, self.path_safety))
    }

    /// The template's text.
    pub fn source(&self) -> String {
        self.template().as_str().to_owned()
    }

    /// The plan the package expands strings with itself, as JSON (see `plan.rs`); `null`
    /// for a template that carries bound values.
    pub fn plan(&self) -> String {
        let bound = self.partial.bound_names().next().is_some();
        plan::of(self.template(), bound)
    }

    /// As [`match_uri`](Self::match_uri), on the URI in the input buffer.
    #[wasm_bindgen(js_name = "matchInput")]
    pub fn match_input(&self, len: usize) -> i32 {
        io::answer(len, |uri, out| match self.found(uri) {
            Some(routed) => Status::captures(out, 0, &routed.captures, &self.names),
            None => Status::None,
        })
    }

    /// As [`expand`](Self::expand), on the variables in the input buffer.
    #[wasm_bindgen(js_name = "expandInput")]
    pub fn expand_input(&self, len: usize) -> i32 {
        io::answer(len, |variables, out| {
            Status::written(out, |text| self.expand_into(variables, text))
        })
    }

    /// The variables of `uri` as a JSON object, or why not: the error names the rule. For a
    /// template that cannot be matched, the lint that refuses it.
    pub fn explain(&self, uri: &str) -> Answer {
        let matcher = self.matcher.as_ref().map_err(|e| self.unsupported(e))?;
        let routed = matcher.at(uri).map_err(|e| ErrorJson::route(&e, uri))?;
        json(&self.variables(&routed.captures))
    }

    /// The names of the template's variables, in order, as a JSON array; a name used twice is
    /// there twice.
    #[wasm_bindgen(js_name = "variableNames")]
    pub fn variable_names(&self) -> String {
        let names: Vec<&str> = self.template().variables().map(|v| v.name()).collect();
        serde_json::to_string(&names).unwrap_or_else(|_| "[]".into())
    }

    /// Each variable's name once, in order, as a JSON array: the names a match's answer
    /// gives by index ([`io`]).
    pub fn names(&self) -> String {
        self.names.to_json()
    }

    /// The template's lints as a JSON array of `{kind, refuses, position, message}`.
    pub fn lints(&self) -> String {
        let lints: Vec<ErrorJson> = self
            .template()
            .lints()
            .iter()
            .map(|lint| ErrorJson::lint(lint, self.template().as_str()))
            .collect();
        serde_json::to_string(&lints).unwrap_or_else(|_| "[]".into())
    }
}

impl Template {
    fn of(partial: Partial, path_safety: bool) -> Template {
        let template = partial.template();
        let mut router = Router::with_options(options(path_safety));
        let matcher = router.insert(template.clone(), 0).map(|()| router);
        let names = Names::of(template);
        Template {
            partial,
            matcher,
            names,
            path_safety,
        }
    }

    fn template(&self) -> &UriTemplate {
        self.partial.template()
    }

    /// The variables of `uri` as a JSON object, or `null` when it does not match, a value is
    /// refused, or the template cannot be matched (`explain` says why).
    pub fn match_uri(&self, uri: &str) -> Answer {
        match self.found(uri) {
            Some(routed) => json(&self.variables(&routed.captures)),
            None => Ok("null".into()),
        }
    }

    /// The match of `uri`, if the template can be matched and `uri` matches it with values
    /// path safety takes: what `match` answers, through the buffers or as a string.
    fn found<'a>(&'a self, uri: &'a str) -> Option<Routed<'a, 'a, u32>> {
        self.matcher.as_ref().ok()?.at(uri).ok()
    }

    /// The URI that `variables` (as the package sends them: [`values`]) expand the template
    /// to, at most [`MAX_EXPANSION`] bytes.
    pub fn expand(&self, variables: &str) -> Answer {
        let mut uri = Vec::new();
        self.expand_into(variables, &mut uri)?;
        String::from_utf8(uri).map_err(|e| ErrorJson::new("not_utf8", e.to_string()).to_json())
    }

    /// [`expand`](Self::expand), written to the end of `uri`, the output buffer itself for
    /// the package: no string of its own to allocate and copy.
    fn expand_into(&self, variables: &str, uri: &mut Vec<u8>) -> Result<(), String> {
        let variables = values::Variables::parse(variables)
            .ok_or_else(|| ErrorJson::new("variables", "the variables are malformed").to_json())?;
        let mut capped = Capped { uri, written: 0 };
        // Through `dyn Write`: the one writer type that partial expansion writes through too,
        // so that the module holds one copy of the expander, not two.
        match self
            .partial
            .expand_to(&variables, &mut capped as &mut dyn std::fmt::Write)
        {
            Ok(()) => Ok(()),
            Err(e) if *e.kind() == rfc6570::ErrorKind::Write => Err(ErrorJson::new(
                "expansion_too_long",
                format!("the expansion is longer than {MAX_EXPANSION} bytes"),
            )
            .to_json()),
            Err(e) => Err(ErrorJson::parse(&e, self.template().as_str())),
        }
    }

    fn variables<'a>(&'a self, captures: &'a rfc6570::Captures<'a>) -> variables::Variables<'a> {
        variables::Variables {
            captures,
            names: &self.names,
        }
    }

    /// Why the template cannot be matched: the first lint that refuses it, where it is.
    fn unsupported(&self, e: &InsertError) -> String {
        let lints = self.template().lints();
        let refusing = lints.iter().find(|l| l.kind().refuses());
        match refusing {
            Some(lint) => {
                let mut json = ErrorJson::lint(lint, self.template().as_str());
                json.refuses = None;
                json.kind = "unsupported".into();
                json.to_json()
            }
            None => ErrorJson::insert(e).to_json(),
        }
    }
}

/// A writer that refuses to write more than [`MAX_EXPANSION`] bytes.
struct Capped<'a> {
    uri: &'a mut Vec<u8>,
    written: usize,
}

impl std::fmt::Write for Capped<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.written += s.len();
        if self.written > MAX_EXPANSION {
            return Err(std::fmt::Error);
        }
        self.uri.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// Whether `source` is a template with at least one expression.
#[wasm_bindgen(js_name = "isTemplate")]
pub fn is_template(source: &str) -> bool {
    UriTemplate::parse(source).is_ok_and(|t| !t.is_static())
}

/// Many templates: the package keeps each one's value, by the index `insert` answers.
#[wasm_bindgen]
pub struct Routes {
    router: Router<u32>,
    /// The variables' names of each route, by index.
    names: Vec<Names>,
}

#[wasm_bindgen]
impl Routes {
    #[wasm_bindgen(constructor)]
    pub fn new(path_safety: bool) -> Routes {
        Routes {
            router: Router::with_options(options(path_safety)),
            names: Vec::new(),
        }
    }

    /// Adds `source`; answers its index.
    pub fn insert(&mut self, source: &str) -> Result<u32, String> {
        let template = UriTemplate::parse(source).map_err(|e| ErrorJson::parse(&e, source))?;
        let index = u32::try_from(self.names.len())
            .map_err(|_| ErrorJson::new("too_many_routes", "too many routes").to_json())?;
        let names = Names::of(&template);
        self.router
            .insert(template, index)
            .map_err(|e| ErrorJson::insert(&e).to_json())?;
        self.names.push(names);
        Ok(index)
    }

    /// The names of route `index`'s variables, as [`Template::names`] gives them.
    pub fn names(&self, index: u32) -> String {
        self.names_of(index).to_json()
    }

    /// As [`at`](Self::at), saying why not: the error that refused `uri`, `not_found`
    /// included, with the rule, the variable or the position.
    pub fn explain(&self, uri: &str) -> Answer {
        let routed = self.router.at(uri).map_err(|e| ErrorJson::route(&e, uri))?;
        self.routed(&routed)
    }

    /// As [`at`](Self::at), on the URI in the input buffer, without the template (the package
    /// knows it by the index).
    #[wasm_bindgen(js_name = "atInput")]
    pub fn at_input(&self, len: usize) -> i32 {
        io::answer(len, |uri, out| match self.found(uri) {
            Ok(Some(routed)) => {
                let index = *routed.value;
                Status::captures(out, index, &routed.captures, self.names_of(index))
            }
            Ok(None) => Status::None,
            Err(error) => Status::refused(out, &error),
        })
    }
}

impl Routes {
    /// `{"index": i, "template": "..", "variables": {..}}` for the best match of `uri`, or
    /// `null` when none matches or the URI is refused (a value path safety refuses, a
    /// malformed URI, a query the match refuses), as a template's `match` answers:
    /// [`explain`](Self::explain) says why.
    pub fn at(&self, uri: &str) -> Answer {
        let Some(routed) = self.found(uri)? else {
            return Ok("null".into());
        };
        self.routed(&routed)
    }

    /// The best match of `uri`, `None` when none matches or the URI is refused: what `at`
    /// answers, through the buffers or as a string. Only a router that cannot be compiled is
    /// an error.
    fn found<'a>(&'a self, uri: &'a str) -> Result<Option<Routed<'a, 'a, u32>>, String> {
        match self.router.at(uri) {
            Ok(routed) => Ok(Some(routed)),
            Err(e @ RouteError::Unsupported(_)) => Err(ErrorJson::route(&e, uri)),
            Err(_) => Ok(None),
        }
    }

    /// The JSON of a match: its route's index and template, and its variables.
    fn routed(&self, routed: &Routed<'_, '_, u32>) -> Answer {
        json(&variables::Routed {
            index: *routed.value,
            template: Some(routed.template.as_str()),
            variables: variables::Variables {
                captures: &routed.captures,
                names: self.names_of(*routed.value),
            },
        })
    }

    fn names_of(&self, index: u32) -> &Names {
        static NONE: Names = Names::EMPTY;
        let index = usize::try_from(index).unwrap_or(usize::MAX);
        self.names.get(index).unwrap_or(&NONE)
    }
}

/// `path` joined onto `base`, refused if it would lead outside it.
#[wasm_bindgen(js_name = "safeJoin")]
pub fn safe_join(base: &str, path: &str) -> Answer {
    let joined = rfc6570::safe_join(Path::new(base), path).map_err(|e| ErrorJson::join(&e))?;
    joined
        .to_str()
        .map(str::to_owned)
        .ok_or_else(|| ErrorJson::new("not_utf8", "the joined path is not UTF-8").to_json())
}

fn options(path_safety: bool) -> RouterOptions {
    let policy = if path_safety {
        SafetyPolicy::STRICT
    } else {
        SafetyPolicy::OFF
    };
    RouterOptions::new().safety(policy)
}

fn json(value: &impl serde::Serialize) -> Answer {
    serde_json::to_string(value).map_err(|e| ErrorJson::new("json", e.to_string()).to_json())
}
