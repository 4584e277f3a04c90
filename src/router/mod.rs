//! The router: one lookup that maps a URI to the best of many templates.
//!
//! [`Router`] merges its templates into one token trie (see the matcher's `program` module), so
//! templates that share a prefix share its instructions, and a lookup follows the URI down one
//! path of the trie rather than trying the templates one by one. The merged program runs on the
//! same rank-ordered Pike VM as [`UriTemplate::match_uri`], which makes precedence exact (up to
//! the one limit of prefix modifiers that [`Router`] documents) and the lookup linear in the
//! URI's length, whatever the number of templates. Static templates are
//! also kept in a hash map and answered before the VM runs.
//!
//! After the VM picks the winner, its captures are bound, decoded and checked for path safety
//! ([`crate::safety`]); a refusal is an error and never falls through to another template.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

use crate::matcher::program::{Policy, Program};
use crate::matcher::trie::{shape, Token};
use crate::matcher::walk::{Walk, Walker};
use crate::matcher::{self, vm, Captures, Malformed, MatchError, MatchOptions, Slots, Triplets};
use crate::safety::{Rule, SafetyPolicy};
use crate::{Error, UriTemplate};

/// A set of URI templates, each with a value, that routes a concrete URI to the best match.
///
/// # Precedence
///
/// For a URI, the router returns one best match, whatever the order of insertion:
///
/// 1. a static template (no expressions) equal to the URI wins outright;
/// 2. otherwise the matching templates are compared byte by byte along the URI by what consumed
///    each byte: a template literal beats a variable that cannot cross `/` (`{v}`, `{.v}`,
///    `{;v}`, one item of `{/v}`, query parameters), which beats one that can (`{+v}`, `{#v}`,
///    `{/v*}`). The first difference decides; templates still tied are taken in order of their
///    text. So `/a/{name}.txt` beats `/a/{any}` on `/a/pg.txt`, `/docs/{name}` beats
///    `/{+path}` on `/docs/x`, and `/{+path}` still serves `/docs/x/y`.
///
/// Each template is ranked by the assignment [`UriTemplate::match_uri`] would report for it.
/// That is its best-ranked one, except where a prefix-modified variable's start is ambiguous
/// (`{+p}{q:3}`): there, to stay linear, the match keeps the reading that has used the fewest
/// characters of the prefix (see the Limits of [`UriTemplate::match_uri`]), and is ranked as
/// that reading.
///
/// ```
/// use rfc6570::Router;
///
/// let mut router = Router::new();
/// router.insert("file:///{+path}", "any file")?;
/// router.insert("file:///docs/{name}", "a doc")?;
/// router.insert("file:///docs/index", "the index")?;
///
/// assert_eq!(*router.at("file:///docs/index")?.value, "the index");
/// assert_eq!(*router.at("file:///docs/intro.md")?.value, "a doc");
/// assert_eq!(*router.at("file:///docs/a/b.md")?.value, "any file");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Conflicts
///
/// Two templates that match exactly the same URIs with the same precedence (`x/{a}` and
/// `x/{b}`, or `x{?a}` and `x{?b}`, since undeclared parameters are ignored) cannot both be
/// inserted: the second gets an [`InsertError::Conflict`] naming both. Templates that overlap
/// but differ (`x/{a}` and `x/{a}.txt`) are fine.
///
/// ```
/// use rfc6570::{InsertError, Router};
///
/// let mut router = Router::new();
/// router.insert("notes://{id}", 1)?;
/// let err = router.insert("notes://{name}", 2).unwrap_err();
/// assert_eq!(err.to_string(), "`notes://{name}` matches the same URIs as `notes://{id}`");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Path safety
///
/// By default every captured value is checked after decoding with every [`Rule`]: no control
/// characters, no `..` segments, no absolute paths, no separator inside a single-segment
/// variable, no double encoding, no Unicode look-alikes of `.`, `/` and `\`. Query parameters are
/// exempt from the separator rule only (a search for `a/b` is not a path). A refusal is
/// [`RouteError::Unsafe`], naming the variable and the rule, and stops routing. Rules can be
/// relaxed for the router ([`RouterBuilder::safety`]), a template or one variable
/// ([`RouteOptions`]).
///
/// ```
/// use rfc6570::{RouteError, RouteOptions, Router, Rule, SafetyPolicy};
///
/// let mut router = Router::new();
/// router.insert("file:///{+path}", "files")?;
/// let err = router.at("file:///..%2F..%2Fetc%2Fpasswd").unwrap_err();
/// assert!(matches!(err, RouteError::Unsafe { rule: Rule::DoubleEncoding, .. }));
/// let err = router.at("file:///docs/../../etc/passwd").unwrap_err();
/// assert!(matches!(err, RouteError::Unsafe { rule: Rule::DotDotSegment, .. }));
///
/// // A template whose variable may hold anything, on purpose:
/// let raw = RouteOptions::default().var_safety("blob", SafetyPolicy::OFF);
/// router.insert_with("raw://{+blob}", "raw", raw)?;
/// assert!(router.at("raw://../x").is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Required variables
///
/// Variables outside query expressions must be present and non-empty (`users:///profile` does
/// not match `users://{id}/profile`), unless [`RouterBuilder::allow_empty_path_vars`] is set.
pub struct Router<T> {
    routes: Vec<Route<T>>,
    /// The shape of each template, for finding conflicts in constant time.
    shapes: HashMap<Vec<Token>, Box<str>>,
    options: RouterOptions,
    compiled: OnceLock<Result<Compiled, MatchError>>,
}

struct Route<T> {
    template: UriTemplate,
    value: T,
    options: RouteOptions,
}

/// The merged program, rebuilt on the first lookup after a change.
struct Compiled {
    program: Program,
    /// The fast path, when every template's variables are delimited.
    walker: Option<Walker>,
    /// What a lookup needs of each template key. Keys order statics first, then by template
    /// text, which is the tie-break among equally ranked matches.
    keys: Vec<Key>,
    /// Static templates that need no normalization (ASCII, no `%`), by text.
    statics: HashMap<Box<str>, usize>,
    /// The longest URI a lookup takes (the option, within what spans can record).
    max_uri_len: usize,
}

/// A template key's route, and what its matches need beyond the walk.
struct Key {
    route: usize,
    /// Whether the spans a walk records are the captures as they stand: the template has no
    /// query tail to bind and no repeated name to compare.
    spans_are_captures: bool,
}

/// Router-wide options; build a router with them through [`Router::builder`].
///
/// ```
/// use rfc6570::{Router, RouterOptions, SafetyPolicy};
///
/// let router: Router<()> = Router::builder().strict_query(true).build();
/// let options: &RouterOptions = router.options();
/// assert!(options.strict_query && !options.allow_empty_path_vars);
/// assert_eq!(options.safety, SafetyPolicy::STRICT);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct RouterOptions {
    /// Refuse query parameters a template does not declare. Default: `false`.
    pub strict_query: bool,
    /// Let variables outside query expressions be empty or absent. Default: `false`.
    pub allow_empty_path_vars: bool,
    /// The path-safety rules for every template. Default: all of them.
    pub safety: SafetyPolicy,
    /// The longest URI accepted, in bytes. Default: 1 MiB.
    pub max_uri_len: usize,
}

impl Default for RouterOptions {
    fn default() -> Self {
        Self {
            strict_query: false,
            allow_empty_path_vars: false,
            safety: SafetyPolicy::STRICT,
            max_uri_len: MatchOptions::DEFAULT.max_uri_len,
        }
    }
}

/// Builds a [`Router`] with options.
///
/// ```
/// use rfc6570::{Router, Rule, SafetyPolicy};
///
/// let router: Router<()> = Router::builder()
///     .strict_query(true)
///     .allow_empty_path_vars(true)
///     .safety(SafetyPolicy::default().allow(Rule::AbsolutePath))
///     .max_uri_len(8 * 1024)
///     .build();
/// assert!(router.is_empty());
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct RouterBuilder {
    options: RouterOptions,
}

impl RouterBuilder {
    /// See [`RouterOptions::strict_query`].
    pub fn strict_query(mut self, strict: bool) -> Self {
        self.options.strict_query = strict;
        self
    }

    /// See [`RouterOptions::allow_empty_path_vars`].
    pub fn allow_empty_path_vars(mut self, allow: bool) -> Self {
        self.options.allow_empty_path_vars = allow;
        self
    }

    /// See [`RouterOptions::safety`].
    pub fn safety(mut self, policy: SafetyPolicy) -> Self {
        self.options.safety = policy;
        self
    }

    /// See [`RouterOptions::max_uri_len`].
    pub fn max_uri_len(mut self, max: usize) -> Self {
        self.options.max_uri_len = max;
        self
    }

    /// The router.
    pub fn build<T>(self) -> Router<T> {
        Router {
            routes: Vec::new(),
            shapes: HashMap::new(),
            options: self.options,
            compiled: OnceLock::new(),
        }
    }
}

/// Options for one template, given to [`Router::insert_with`].
///
/// ```
/// use rfc6570::{RouteOptions, Rule, SafetyPolicy};
///
/// let options = RouteOptions::default()
///     .safety(SafetyPolicy::default().allow(Rule::AbsolutePath))
///     .var_safety("query", SafetyPolicy::OFF);
/// # let _ = options;
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RouteOptions {
    safety: Option<SafetyPolicy>,
    var_safety: Vec<(Box<str>, SafetyPolicy)>,
}

impl RouteOptions {
    /// The safety policy for this template's variables, instead of the router's.
    pub fn safety(mut self, policy: SafetyPolicy) -> Self {
        self.safety = Some(policy);
        self
    }

    /// The safety policy for one variable of this template.
    pub fn var_safety(mut self, variable: &str, policy: SafetyPolicy) -> Self {
        self.var_safety.push((variable.into(), policy));
        self
    }

    fn policy_for(&self, variable: &str, router: SafetyPolicy) -> SafetyPolicy {
        self.var_safety
            .iter()
            .find(|(name, _)| &**name == variable)
            .map(|&(_, p)| p)
            .or(self.safety)
            .unwrap_or(router)
    }
}

/// The outcome of a successful lookup.
///
/// ```
/// use rfc6570::Router;
///
/// let mut router = Router::new();
/// router.insert("db://users/{id}/profile", "profile")?;
/// let routed = router.at("db://users/ada/profile")?;
/// assert_eq!(*routed.value, "profile");
/// assert_eq!(routed.template.as_str(), "db://users/{id}/profile");
/// assert_eq!(serde_json::to_value(&routed.captures)?, serde_json::json!({"id": "ada"}));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Routed<'r, T> {
    /// The value inserted with the template.
    pub value: &'r T,
    /// The template that matched.
    pub template: &'r UriTemplate,
    /// Its variables, borrowed from the URI.
    pub captures: Captures<'r>,
}

/// Why [`Router::insert`] refused a template.
///
/// ```
/// use rfc6570::{InsertError, Router};
///
/// let mut router = Router::new();
/// assert!(matches!(router.insert("{x", ()), Err(InsertError::Parse(_))));
/// router.insert("a/{x}", ())?;
/// assert!(matches!(router.insert("a/{y}", ()), Err(InsertError::Conflict { .. })));
/// # Ok::<(), InsertError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InsertError {
    /// The template does not parse.
    #[error(transparent)]
    Parse(#[from] Error),
    /// Another template matches exactly the same URIs with the same precedence.
    #[error("`{new}` matches the same URIs as `{existing}`")]
    Conflict {
        /// The template already in the router.
        existing: String,
        /// The template being inserted.
        new: String,
    },
    /// The template cannot be compiled for matching.
    #[error("`{template}` cannot be matched: {reason}")]
    Unsupported {
        /// The template.
        template: String,
        /// Why.
        reason: &'static str,
    },
}

/// Why [`Router::at`] found no route.
///
/// ```
/// use rfc6570::{Malformed, RouteError, Router};
///
/// let mut router = Router::new();
/// router.insert("notes://{id}", ())?;
/// assert_eq!(router.at("files://x").unwrap_err(), RouteError::NotFound);
/// assert_eq!(
///     router.at("notes://%ZZ").unwrap_err().to_string(),
///     "malformed URI at byte 8: `%` not followed by two hex digits"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RouteError {
    /// No template matches the URI.
    #[error("no template matches the URI")]
    NotFound,
    /// The best match captured a value that breaks a path-safety rule. The value itself is
    /// not repeated here, so the message is safe to show.
    #[error("variable `{variable}` of `{template}` holds {rule}")]
    Unsafe {
        /// The matched template.
        template: String,
        /// The variable.
        variable: String,
        /// The rule it breaks.
        rule: Rule,
    },
    /// The URI is malformed: bad percent-encoding, bytes that are not UTF-8, or too long.
    #[error("malformed URI at byte {position}: {reason}")]
    Malformed {
        /// Byte offset in the URI.
        position: usize,
        /// What is wrong there.
        reason: Malformed,
    },
    /// A query parameter the best match declares is given twice.
    #[error("query parameter `{name}` is given more than once")]
    DuplicateParameter {
        /// The parameter.
        name: String,
    },
    /// With strict queries, a parameter the best match does not declare.
    #[error("query parameter `{name}` is not declared by the template")]
    UnexpectedParameter {
        /// The parameter.
        name: String,
    },
    /// The router's templates cannot be compiled together.
    #[error("the router cannot be compiled: {reason}")]
    Unsupported {
        /// Why.
        reason: &'static str,
    },
}

impl From<MatchError> for RouteError {
    fn from(e: MatchError) -> Self {
        match e {
            MatchError::Malformed { position, reason } => Self::Malformed { position, reason },
            MatchError::DuplicateParameter { name } => Self::DuplicateParameter { name },
            MatchError::UnexpectedParameter { name } => Self::UnexpectedParameter { name },
            MatchError::Unsupported { reason } => Self::Unsupported { reason },
            _ => Self::NotFound,
        }
    }
}

/// Anything [`Router::insert`] takes as a template: text or a parsed [`UriTemplate`].
///
/// ```
/// use rfc6570::{IntoTemplate, UriTemplate};
///
/// let from_text = "notes://{id}".into_template()?;
/// let parsed = UriTemplate::parse("notes://{id}")?.into_template()?;
/// assert_eq!(from_text, parsed);
/// # Ok::<(), rfc6570::Error>(())
/// ```
pub trait IntoTemplate {
    /// Parses (or passes on) the template.
    fn into_template(self) -> Result<UriTemplate, Error>;
}

impl IntoTemplate for &str {
    fn into_template(self) -> Result<UriTemplate, Error> {
        UriTemplate::parse(self)
    }
}

impl IntoTemplate for String {
    fn into_template(self) -> Result<UriTemplate, Error> {
        UriTemplate::parse(&self)
    }
}

impl IntoTemplate for UriTemplate {
    fn into_template(self) -> Result<UriTemplate, Error> {
        Ok(self)
    }
}

impl IntoTemplate for &UriTemplate {
    fn into_template(self) -> Result<UriTemplate, Error> {
        Ok(self.clone())
    }
}

impl<T> Default for Router<T> {
    fn default() -> Self {
        RouterBuilder::default().build()
    }
}

impl Router<()> {
    /// A builder for a router with options; [`RouterBuilder::build`] picks the value type.
    pub fn builder() -> RouterBuilder {
        RouterBuilder::default()
    }
}

impl<T> Router<T> {
    /// An empty router with the default options.
    ///
    /// ```
    /// let router: rfc6570::Router<u32> = rfc6570::Router::new();
    /// assert_eq!(router.len(), 0);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// The router's options.
    ///
    /// ```
    /// let router: rfc6570::Router<()> = rfc6570::Router::new();
    /// assert!(!router.options().strict_query);
    /// ```
    pub fn options(&self) -> &RouterOptions {
        &self.options
    }

    /// Adds a template with its value.
    ///
    /// ```
    /// use rfc6570::{Router, UriTemplate};
    ///
    /// let mut router = Router::new();
    /// router.insert("log://build/{job_id}{?lines}", "build log")?;
    /// router.insert(UriTemplate::parse("notes://{id}")?, "note")?;
    /// assert_eq!(router.len(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`InsertError::Parse`] for an invalid template, [`InsertError::Conflict`] when another
    /// template matches the same URIs with the same precedence.
    pub fn insert(&mut self, template: impl IntoTemplate, value: T) -> Result<(), InsertError> {
        self.insert_with(template, value, RouteOptions::default())
    }

    /// Adds a template with its value and its own options.
    ///
    /// ```
    /// use rfc6570::{RouteOptions, Router, SafetyPolicy};
    ///
    /// let mut router = Router::new();
    /// let lenient = RouteOptions::default().safety(SafetyPolicy::OFF);
    /// router.insert_with("echo://{+text}", "echo", lenient)?;
    /// assert!(router.at("echo:///etc").is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`insert`](Self::insert).
    pub fn insert_with(
        &mut self,
        template: impl IntoTemplate,
        value: T,
        options: RouteOptions,
    ) -> Result<(), InsertError> {
        let template = template.into_template()?;
        let shape = shape(&template);
        if let Some(existing) = self.shapes.get(&shape) {
            return Err(InsertError::Conflict {
                existing: existing.to_string(),
                new: template.to_string(),
            });
        }
        if let Err(e) = template.program(self.policy()) {
            let reason = match e {
                MatchError::Unsupported { reason } => reason,
                _ => "the template cannot be compiled",
            };
            return Err(InsertError::Unsupported {
                template: template.to_string(),
                reason,
            });
        }
        self.shapes.insert(shape, template.as_str().into());
        self.routes.push(Route {
            template,
            value,
            options,
        });
        self.compiled = OnceLock::new();
        Ok(())
    }

    /// Removes a template (by its exact text) and returns its value.
    ///
    /// ```
    /// use rfc6570::{RouteError, Router};
    ///
    /// let mut router = Router::new();
    /// router.insert("notes://{id}", 1)?;
    /// assert_eq!(router.remove("notes://{id}"), Some(1));
    /// assert_eq!(router.at("notes://a").unwrap_err(), RouteError::NotFound);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn remove(&mut self, template: &str) -> Option<T> {
        let i = self
            .routes
            .iter()
            .position(|r| r.template.as_str() == template)?;
        self.compiled = OnceLock::new();
        let route = self.routes.remove(i);
        self.shapes.remove(&shape(&route.template));
        Some(route.value)
    }

    /// The number of templates.
    ///
    /// ```
    /// let mut router = rfc6570::Router::new();
    /// router.insert("notes://{id}", ())?;
    /// assert_eq!(router.len(), 1);
    /// # Ok::<(), rfc6570::InsertError>(())
    /// ```
    pub fn len(&self) -> usize {
        self.routes.len()
    }

    /// Whether the router has no templates.
    ///
    /// ```
    /// assert!(rfc6570::Router::<()>::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.routes.is_empty()
    }

    /// The templates and their values, in insertion order (stable, for listing them).
    ///
    /// ```
    /// use rfc6570::Router;
    ///
    /// let mut router = Router::new();
    /// router.insert("b://{x}", 2)?;
    /// router.insert("a://{x}", 1)?;
    /// let listed: Vec<&str> = router.iter().map(|(t, _)| t.as_str()).collect();
    /// assert_eq!(listed, ["b://{x}", "a://{x}"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&UriTemplate, &T)> + '_ {
        self.routes.iter().map(|r| (&r.template, &r.value))
    }

    /// The template with this exact text, and its value.
    ///
    /// ```
    /// use rfc6570::Router;
    ///
    /// let mut router = Router::new();
    /// router.insert("notes://{id}", 7)?;
    /// assert_eq!(router.get("notes://{id}").map(|(_, v)| *v), Some(7));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get(&self, template: &str) -> Option<(&UriTemplate, &T)> {
        self.iter().find(|(t, _)| t.as_str() == template)
    }

    /// Routes a URI to the best matching template.
    ///
    /// The lookup runs in time linear in the URI's length, whatever the number of templates,
    /// and allocates nothing for URIs whose captures need no decoding (once the thread's matcher
    /// cache is warm), as long as no template has more than 10 variables: the captures keep
    /// that many spans inline. The first lookup after a change compiles the router.
    ///
    /// ```
    /// use rfc6570::Router;
    ///
    /// let mut router = Router::new();
    /// router.insert("log://build/{job_id}{?lines}", "build log")?;
    /// router.insert("search://docs{?q,lang}", "search")?;
    ///
    /// let routed = router.at("search://docs?lang=en&q=uri%20templates")?;
    /// assert_eq!(*routed.value, "search");
    /// assert_eq!(routed.template.as_str(), "search://docs{?q,lang}");
    /// assert_eq!(routed.captures.get("q").unwrap().decoded(), "uri templates");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`RouteError::NotFound`] when nothing matches, [`RouteError::Unsafe`] when the best match
    /// breaks a path-safety rule, [`RouteError::Malformed`] for a malformed URI, and the query
    /// errors of the best match.
    pub fn at<'r>(&'r self, uri: &'r str) -> Result<Routed<'r, T>, RouteError> {
        let Some(Ok(compiled)) = self.compiled.get() else {
            return self.compile_then_at(uri);
        };
        matcher::check_len_within(uri, compiled.max_uri_len)?;
        let width = compiled.program.slots / 2;
        let mut slots = Slots::new(width);
        let Some(walker) = &compiled.walker else {
            return self.at_by_vm(compiled, uri, slots);
        };
        let walk = walker.walk(uri.as_bytes(), slots.as_mut_slice(width));
        if let Walk::Found(key, seen) = walk {
            let key = &compiled.keys[key as usize];
            if key.spans_are_captures && seen.is_clean() {
                // Most lookups end here, and build their result where it is returned: the
                // captures are large enough that a move costs.
                let template = &self.routes[key.route].template;
                return Ok(self.routed(key.route, Captures::new(template, uri, slots)));
            }
        }
        self.after_walk(compiled, uri, slots, walk)
    }

    /// The first lookup after a change: compiles the router (or reports why it cannot be),
    /// then looks up.
    #[cold]
    #[inline(never)]
    fn compile_then_at<'r>(&'r self, uri: &'r str) -> Result<Routed<'r, T>, RouteError> {
        self.compiled().map_err(|e| RouteError::from(e.clone()))?;
        self.at(uri)
    }

    /// The rest of a lookup whose walk did not end in plain captures: a query tail to bind, a
    /// triplet to validate, a capture to check for safety, a URI to hand over to the VM, or
    /// none found. Out of line, so that the common lookup keeps its registers.
    #[inline(never)]
    fn after_walk<'r>(
        &'r self,
        compiled: &'r Compiled,
        uri: &'r str,
        mut slots: Slots,
        walk: Walk,
    ) -> Result<Routed<'r, T>, RouteError> {
        let width = compiled.program.slots / 2;
        let found = match walk {
            Walk::Found(key, seen) => {
                let key = key as usize;
                let template = &self.routes[compiled.keys[key].route].template;
                template.clear_tail(slots.as_mut_slice(width));
                // The walk matched literals (which hold no `%`) and scanned every variable's
                // span and the query tail, so a URI where those hold no `%` holds no triplet.
                let triplets = if seen.percent() {
                    matcher::validate_uri(uri, usize::MAX)?
                } else {
                    Triplets::None
                };
                Found {
                    key,
                    triplets,
                    plain: seen.all_plain(),
                }
            }
            Walk::NotFound => {
                // A malformed URI is reported as such, wherever its bad `%` is.
                matcher::validate_uri(uri, usize::MAX)?;
                return Err(RouteError::NotFound);
            }
            Walk::GaveUp => {
                let triplets = matcher::validate_uri(uri, usize::MAX)?;
                compiled.run_vm(uri, slots.as_mut_slice(width), triplets)?
            }
        };
        self.bind(compiled, uri, slots, found)
    }

    /// A lookup by the VM, for routers the walk does not serve.
    #[inline(never)]
    fn at_by_vm<'r>(
        &'r self,
        compiled: &'r Compiled,
        uri: &'r str,
        mut slots: Slots,
    ) -> Result<Routed<'r, T>, RouteError> {
        let triplets = matcher::validate_uri(uri, usize::MAX)?;
        if let Some(&i) = compiled.statics.get(uri) {
            return Ok(self.routed(i, Captures::empty(&self.routes[i].template, uri)));
        }
        let width = compiled.program.slots / 2;
        let found = compiled.run_vm(uri, slots.as_mut_slice(width), triplets)?;
        self.bind(compiled, uri, slots, found)
    }

    /// Turns the spans of the template found into its captures, and checks them.
    fn bind<'r>(
        &'r self,
        compiled: &'r Compiled,
        uri: &'r str,
        mut slots: Slots,
        found: Found,
    ) -> Result<Routed<'r, T>, RouteError> {
        let i = compiled.keys[found.key].route;
        let route = &self.routes[i];
        let template = &route.template;
        let strict = self.options.strict_query;
        matcher::finish(template, uri, &mut slots, found.triplets, strict)?;
        let captures = Captures::new(template, uri, slots);
        if !found.plain {
            self.check_safety(route, &captures)?;
        }
        Ok(self.routed(i, captures))
    }

    #[inline]
    fn routed<'r>(&'r self, i: usize, captures: Captures<'r>) -> Routed<'r, T> {
        let route = &self.routes[i];
        Routed {
            value: &route.value,
            template: &route.template,
            captures,
        }
    }

    fn check_safety(&self, route: &Route<T>, captures: &Captures<'_>) -> Result<(), RouteError> {
        if captures.all_plain() {
            return Ok(());
        }
        for capture in captures.iter() {
            let policy = route
                .options
                .policy_for(capture.name(), self.options.safety);
            if policy == SafetyPolicy::OFF {
                continue;
            }
            let single = capture.is_single_segment();
            let check = |text: &str| policy.check(text, single);
            let outcome = capture
                .items()
                .try_for_each(|item| check(&item))
                .and_then(|()| capture.keys().try_for_each(|key| policy.check(&key, true)));
            if let Err(rule) = outcome {
                return Err(RouteError::Unsafe {
                    template: route.template.to_string(),
                    variable: capture.name().to_owned(),
                    rule,
                });
            }
        }
        Ok(())
    }

    fn policy(&self) -> Policy {
        self.match_options().policy()
    }

    fn match_options(&self) -> MatchOptions {
        MatchOptions::DEFAULT
            .strict_query(self.options.strict_query)
            .require_path_vars(!self.options.allow_empty_path_vars)
            .max_uri_len(self.options.max_uri_len)
    }

    fn compiled(&self) -> Result<&Compiled, &MatchError> {
        self.compiled.get_or_init(|| self.compile()).as_ref()
    }

    fn compile(&self) -> Result<Compiled, MatchError> {
        let mut route_of: Vec<usize> = (0..self.routes.len()).collect();
        route_of.sort_by(|&a, &b| {
            let (a, b) = (&self.routes[a].template, &self.routes[b].template);
            (!a.is_static(), a.as_str()).cmp(&(!b.is_static(), b.as_str()))
        });
        let templates: Vec<&UriTemplate> =
            route_of.iter().map(|&i| &self.routes[i].template).collect();
        let program = Program::compile_many(&templates, self.policy())?;
        let walker = if self.options.allow_empty_path_vars {
            None
        } else {
            let shapes: Vec<Vec<Token>> = templates.iter().map(|t| shape(t)).collect();
            Walker::build(&shapes, false)
        };
        // The walk finds static templates as fast as a hash would; the VM does not.
        let statics = self
            .routes
            .iter()
            .enumerate()
            .filter(|_| walker.is_none())
            .filter(|(_, r)| r.template.is_static())
            .filter(|(_, r)| r.template.as_str().is_ascii() && !r.template.as_str().contains('%'))
            .map(|(i, r)| (r.template.as_str().into(), i))
            .collect();
        let keys = route_of
            .iter()
            .map(|&route| {
                let template = &self.routes[route].template;
                Key {
                    route,
                    spans_are_captures: template.tail_var().is_none()
                        && !template.has_repeated_names(),
                }
            })
            .collect();
        Ok(Compiled {
            program,
            walker,
            keys,
            statics,
            max_uri_len: matcher::len_limit(self.options.max_uri_len),
        })
    }
}

/// The best template for a URI, with what is already known about its captures.
struct Found {
    key: usize,
    triplets: Triplets,
    /// Whether every capture is known to be plain, so that none can break a safety rule.
    plain: bool,
}

impl Compiled {
    /// Finds the best template by the VM, for a validated URI.
    fn run_vm(
        &self,
        uri: &str,
        slots: &mut [u32],
        triplets: Triplets,
    ) -> Result<Found, RouteError> {
        let key = vm::run(&self.program, uri.as_bytes(), slots).ok_or(RouteError::NotFound)?;
        Ok(Found {
            key: key as usize,
            triplets,
            plain: false,
        })
    }
}

impl<T: fmt::Debug> fmt::Debug for Router<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<T> Clone for Route<T>
where
    T: Clone,
{
    fn clone(&self) -> Self {
        Self {
            template: self.template.clone(),
            value: self.value.clone(),
            options: self.options.clone(),
        }
    }
}

impl<T: Clone> Clone for Router<T> {
    fn clone(&self) -> Self {
        Self {
            routes: self.routes.clone(),
            shapes: self.shapes.clone(),
            options: self.options,
            compiled: OnceLock::new(),
        }
    }
}
