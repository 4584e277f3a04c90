//! Routing: one lookup that maps a URI to the best of many templates.
//!
//! [`Router`] is the type; this module also holds its options ([`RouterOptions`],
//! [`RouteOptions`]), what it answers ([`Routed`]) and its errors ([`InsertError`],
//! [`RouteError`]). Inside, `compile` hands every template to the engine at once, and
//! `lookup` asks it for a URI's best template and checks the captures for path safety.

mod compile;
mod error;
mod lookup;
mod options;

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

pub use error::{InsertError, RouteError};
pub use lookup::Routed;
pub use options::{RouteOptions, RouterOptions};

use crate::engine::{self, Policy, Shape};
use crate::matching::Unsupported;
use crate::{Error, UriTemplate};
use compile::Compiled;

/// A set of URI templates, each with a value, that routes a concrete URI to the best match.
///
/// For a URI, [`at`](Self::at) returns the one best match, whatever the order of insertion: a
/// static template equal to the URI wins outright; otherwise templates are compared along the
/// URI by what consumed each byte, a literal beating a variable that cannot cross `/`, which
/// beats one that can. Two templates that match the same URIs with the same precedence are an
/// [`InsertError::Conflict`]. Every captured value is checked for path safety after decoding,
/// and a refusal ([`RouteError::Unsafe`]) stops routing. The [semantics](crate::semantics)
/// state each rule; [`RouterOptions`] and [`RouteOptions`] relax them per router, template or
/// variable.
///
/// ```
/// use rfc6570::safety::Rule;
/// use rfc6570::{RouteError, Router};
///
/// let mut router = Router::new();
/// router.insert("file:///{+path}", "any file")?;
/// router.insert("file:///docs/{name}", "a doc")?;
/// router.insert("file:///docs/index", "the index")?;
///
/// assert_eq!(*router.at("file:///docs/index")?.value, "the index");
/// assert_eq!(*router.at("file:///docs/intro.md")?.value, "a doc");
/// assert_eq!(*router.at("file:///docs/a/b.md")?.value, "any file");
///
/// let err = router.at("file:///docs/../../etc/passwd").unwrap_err();
/// assert!(matches!(err, RouteError::Unsafe { rule: Rule::DotDotSegment, .. }));
///
/// let err = router.insert("file:///docs/{other}", "again").unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "`file:///docs/{other}` matches the same URIs as `file:///docs/{name}`"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Router<T> {
    routes: Vec<Route<T>>,
    /// The shape of each template, for finding conflicts in constant time.
    shapes: HashMap<Shape, Box<str>>,
    options: RouterOptions,
    compiled: OnceLock<Result<Compiled, Unsupported>>,
}

struct Route<T> {
    template: UriTemplate,
    value: T,
    options: RouteOptions,
}

/// Anything [`Router::insert`] takes as a template: text or a parsed [`UriTemplate`].
///
/// ```
/// use rfc6570::UriTemplate;
/// use rfc6570::router::IntoTemplate;
///
/// let from_text = "notes://{id}".into_template()?;
/// let parsed = UriTemplate::parse("notes://{id}")?.into_template()?;
/// assert_eq!(from_text, parsed);
/// # Ok::<(), rfc6570::Error>(())
/// ```
pub trait IntoTemplate {
    /// Parses (or passes on) the template.
    ///
    /// ```
    /// use rfc6570::router::IntoTemplate;
    ///
    /// assert_eq!("notes://{id}".into_template()?.as_str(), "notes://{id}");
    /// assert!("notes://{id".into_template().is_err());
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
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
        Self::with_options(RouterOptions::DEFAULT)
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

    /// An empty router with its own options.
    ///
    /// ```
    /// use rfc6570::{Router, router::RouterOptions};
    ///
    /// let router: Router<u32> = Router::with_options(RouterOptions::new().strict_query(true));
    /// assert!(router.is_empty());
    /// ```
    pub fn with_options(options: RouterOptions) -> Self {
        Self {
            routes: Vec::new(),
            shapes: HashMap::new(),
            options,
            compiled: OnceLock::new(),
        }
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
    /// [`InsertError::Parse`] for an invalid template; [`InsertError::Lint`] for a template
    /// with a lint, when the router's options
    /// [deny them](crate::router::RouterOptions::deny_lints); [`InsertError::Conflict`] when
    /// another template matches the same URIs with the same precedence;
    /// [`InsertError::Unsupported`] for a template that cannot be matched.
    pub fn insert(&mut self, template: impl IntoTemplate, value: T) -> Result<(), InsertError> {
        self.insert_with(template, value, RouteOptions::new())
    }

    /// Adds a template with its value and its own options.
    ///
    /// ```
    /// use rfc6570::router::RouteOptions;
    /// use rfc6570::safety::SafetyPolicy;
    /// use rfc6570::Router;
    ///
    /// let mut router = Router::new();
    /// let lenient = RouteOptions::new().safety(SafetyPolicy::OFF);
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
        // The template's own faults before its relation to the others.
        if self.options.deny_lints {
            if let Some(lint) = template.lints().into_iter().next() {
                return Err(InsertError::Lint {
                    template: template.to_string(),
                    lint,
                });
            }
        }
        let shape = Shape::of(template.parsed());
        if let Some(existing) = self.shapes.get(&shape) {
            return Err(InsertError::Conflict {
                existing: existing.to_string(),
                new: template.to_string(),
            });
        }
        if let Err(reason) = engine::check(template.parsed(), Policy::of(&self.options.matching)) {
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
        self.shapes.remove(&Shape::of(route.template.parsed()));
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
