//! The engine for JavaScript: what the npm package's `index.js` calls, as wasm-bindgen
//! exports.
//!
//! The package wraps these in the TypeScript SDK's shapes (`UriTemplate`, `Router`,
//! `safeJoin`). Across the boundary go strings: a result is JSON text (or the URI an expansion
//! wrote), and a refusal is thrown as the JSON of an [`ErrorJson`], which the package turns
//! into a `UriTemplateError`. Nothing here panics on any input: every fallible step answers
//! with an error, so a bad input can never trap the WebAssembly instance.
//!
//! The calls made per request (`match`, `expand`, a router's `at`) also come in a form that
//! skips wasm-bindgen's string passing, whose allocations and text decoding cost more than the
//! match itself: the package writes the input into a buffer of this module's ([`io`]) and
//! reads the answer from another, and the call answers only a length ([`io::Status`]).
//!
//! The same functions compile natively, where `tests/cases.rs` runs them over the cases that
//! the JavaScript tests run too.

#![forbid(unsafe_code)]

mod errors;
pub mod io;

use std::path::Path;

use rfc6570::router::RouterOptions;
use rfc6570::safety::SafetyPolicy;
use rfc6570::{InsertError, RouteError, Router, UriTemplate};
use serde_json::Value;
use wasm_bindgen::prelude::wasm_bindgen;

use io::Status;

pub use errors::ErrorJson;

/// What a call answers: its result, or the JSON of the error to throw.
pub type Answer = Result<String, String>;

/// A template, parsed once, and its matcher: a router of this one template, so that a match
/// reads as a router's lookup does, path safety included.
#[wasm_bindgen]
pub struct Template {
    template: UriTemplate,
    matcher: Result<Router<()>, InsertError>,
}

#[wasm_bindgen]
impl Template {
    /// Parses `source`; with `path_safety`, matches refuse values that would walk out of a
    /// path (`..`, encoded separators, look-alikes).
    #[wasm_bindgen(constructor)]
    pub fn new(source: &str, path_safety: bool) -> Result<Template, String> {
        let template = UriTemplate::parse(source).map_err(|e| ErrorJson::parse(&e, source))?;
        let mut router = Router::with_options(options(path_safety));
        let matcher = router.insert(template.clone(), ()).map(|()| router);
        Ok(Template { template, matcher })
    }

    /// The URI that `variables` (a JSON object) expand the template to.
    pub fn expand(&self, variables: &str) -> Answer {
        let variables: Value = serde_json::from_str(variables)
            .map_err(|e| ErrorJson::new("variables", e.to_string()).to_json())?;
        self.template
            .expand(&variables)
            .map_err(|e| ErrorJson::parse(&e, self.template.as_str()))
    }

    /// The variables of `uri` as a JSON object, or `null` when it does not match or a value
    /// is refused (without building the error, which `explain` gives). A template that cannot
    /// be matched is an error.
    #[wasm_bindgen(js_name = "match")]
    pub fn match_uri(&self, uri: &str) -> Answer {
        let matcher = self
            .matcher
            .as_ref()
            .map_err(|e| ErrorJson::insert(e).to_json())?;
        match matcher.at(uri) {
            Ok(routed) => json(&routed.captures),
            Err(_) => Ok("null".into()),
        }
    }

    /// The variables of `uri` as a JSON object, or why not: the error names the rule.
    pub fn explain(&self, uri: &str) -> Answer {
        let matcher = self
            .matcher
            .as_ref()
            .map_err(|e| ErrorJson::insert(e).to_json())?;
        let routed = matcher.at(uri).map_err(|e| ErrorJson::route(&e, uri))?;
        json(&routed.captures)
    }

    /// As [`match_uri`](Self::match_uri), on the URI in the input buffer.
    #[wasm_bindgen(js_name = "matchInput")]
    pub fn match_input(&self, len: usize) -> i32 {
        io::answer(len, |uri, out| {
            let Ok(matcher) = &self.matcher else {
                return Status::refused(out, self.match_uri(uri));
            };
            match matcher.at(uri) {
                Ok(routed) => Status::captures(out, 0, &routed.captures),
                Err(_) => Status::None,
            }
        })
    }

    /// As [`expand`](Self::expand), on the variables' JSON in the input buffer.
    #[wasm_bindgen(js_name = "expandInput")]
    pub fn expand_input(&self, len: usize) -> i32 {
        io::answer(len, |variables, out| match self.expand(variables) {
            Ok(uri) => Status::text(out, &uri),
            refused => Status::refused(out, refused),
        })
    }

    /// The names of the template's variables, in order, as a JSON array; a name used twice is
    /// there twice.
    #[wasm_bindgen(js_name = "variableNames")]
    pub fn variable_names(&self) -> String {
        let names: Vec<&str> = self.template.variables().map(|v| v.name()).collect();
        serde_json::to_string(&names).unwrap_or_else(|_| "[]".into())
    }

    /// The template's lints as a JSON array of `{kind, refuses, position, message}`.
    pub fn lints(&self) -> String {
        let lints: Vec<ErrorJson> = self
            .template
            .lints()
            .iter()
            .map(|lint| ErrorJson::lint(lint, self.template.as_str()))
            .collect();
        serde_json::to_string(&lints).unwrap_or_else(|_| "[]".into())
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
    next: u32,
}

#[wasm_bindgen]
impl Routes {
    #[wasm_bindgen(constructor)]
    pub fn new(path_safety: bool) -> Routes {
        Routes {
            router: Router::with_options(options(path_safety)),
            next: 0,
        }
    }

    /// Adds `source`; answers its index.
    pub fn insert(&mut self, source: &str) -> Result<u32, String> {
        let template = UriTemplate::parse(source).map_err(|e| ErrorJson::parse(&e, source))?;
        let index = self.next;
        self.router
            .insert(template, index)
            .map_err(|e| ErrorJson::insert(&e).to_json())?;
        self.next += 1;
        Ok(index)
    }

    /// As [`at`](Self::at), on the URI in the input buffer, answering `{"index", "variables"}`.
    #[wasm_bindgen(js_name = "atInput")]
    pub fn at_input(&self, len: usize) -> i32 {
        io::answer(len, |uri, out| match self.router.at(uri) {
            Ok(routed) => Status::json(
                out,
                &serde_json::json!({
                    "index": routed.value,
                    "variables": routed.captures,
                }),
            ),
            Err(RouteError::NotFound) => Status::None,
            Err(e) => Status::refused(out, Err(ErrorJson::route(&e, uri))),
        })
    }

    /// `{"index": i, "template": "..", "variables": {..}}` for the best match of `uri`, or
    /// `null` when none matches; a refused value or a malformed URI is an error.
    pub fn at(&self, uri: &str) -> Answer {
        match self.router.at(uri) {
            Ok(routed) => json(&serde_json::json!({
                "index": routed.value,
                "template": routed.template.as_str(),
                "variables": routed.captures,
            })),
            Err(RouteError::NotFound) => Ok("null".into()),
            Err(e) => Err(ErrorJson::route(&e, uri)),
        }
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
