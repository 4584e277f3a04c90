//! How a router matches: [`RouterOptions`] for all its templates, [`RouteOptions`] for one.

use crate::matching::MatchOptions;
use crate::safety::SafetyPolicy;

/// Router-wide options, given to [`Router::with_options`](crate::Router::with_options).
///
/// The setters are those of [`MatchOptions`], with the same meanings, plus the path-safety
/// policy and whether to refuse templates with lints; only the defaults differ: a router
/// requires path variables to be present and non-empty, as its precedence assumes.
///
/// ```
/// use rfc6570::router::RouterOptions;
/// use rfc6570::safety::{Rule, SafetyPolicy};
/// use rfc6570::Router;
///
/// let options = RouterOptions::new()
///     .strict_query(true)
///     .allow_empty_path_vars(true)
///     .safety(SafetyPolicy::STRICT.allow(Rule::AbsolutePath))
///     .max_uri_len(8 * 1024)
///     .deny_lints(true);
/// let router: Router<()> = Router::with_options(options);
/// assert!(router.is_empty());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RouterOptions {
    pub(crate) matching: MatchOptions,
    pub(crate) safety: SafetyPolicy,
    pub(crate) deny_lints: bool,
}

impl RouterOptions {
    /// The defaults: undeclared query parameters ignored, raw sub-delimiters accepted, path
    /// variables required, every safety rule enforced, URIs up to 32 KiB, templates with lints
    /// accepted.
    pub const DEFAULT: Self = Self {
        matching: MatchOptions::DEFAULT.allow_empty_path_vars(false),
        safety: SafetyPolicy::STRICT,
        deny_lints: false,
    };

    /// The defaults, as [`DEFAULT`](Self::DEFAULT).
    ///
    /// ```
    /// # use rfc6570::router::RouterOptions;
    /// assert_eq!(RouterOptions::new(), RouterOptions::default());
    /// ```
    pub const fn new() -> Self {
        Self::DEFAULT
    }

    /// See [`MatchOptions::strict_query`]. Default: `false`.
    ///
    /// ```
    /// # use rfc6570::{Router, router::RouterOptions};
    /// let mut router = Router::with_options(RouterOptions::new().strict_query(true));
    /// router.insert("x{?a}", ())?;
    /// assert!(router.at("x?a=1&b=2").is_err());
    /// # Ok::<(), rfc6570::InsertError>(())
    /// ```
    pub const fn strict_query(mut self, strict: bool) -> Self {
        self.matching = self.matching.strict_query(strict);
        self
    }

    /// See [`MatchOptions::strict_encoding`]. Default: `false`, raw sub-delimiters accepted.
    ///
    /// ```
    /// # use rfc6570::{RouteError, Router, router::RouterOptions};
    /// let mut router = Router::with_options(RouterOptions::new().strict_encoding(true));
    /// router.insert("docs://{name}", ())?;
    /// assert_eq!(router.at("docs://a+b.txt").unwrap_err(), RouteError::NotFound);
    /// assert!(router.at("docs://a%2Bb.txt").is_ok());
    /// # Ok::<(), rfc6570::InsertError>(())
    /// ```
    pub const fn strict_encoding(mut self, strict: bool) -> Self {
        self.matching = self.matching.strict_encoding(strict);
        self
    }

    /// See [`MatchOptions::allow_empty_path_vars`]. Default: `false` for a router.
    ///
    /// ```
    /// # use rfc6570::{Router, router::RouterOptions};
    /// let mut router = Router::with_options(RouterOptions::new().allow_empty_path_vars(true));
    /// router.insert("users://{id}/profile", ())?;
    /// assert!(router.at("users:///profile").is_ok());
    /// # Ok::<(), rfc6570::InsertError>(())
    /// ```
    pub const fn allow_empty_path_vars(mut self, allow: bool) -> Self {
        self.matching = self.matching.allow_empty_path_vars(allow);
        self
    }

    /// See [`MatchOptions::refuse_repeated_names`]. Default: `false`, repeated names match
    /// where their occurrences agree.
    ///
    /// ```
    /// # use rfc6570::{InsertError, Router, router::RouterOptions};
    /// let mut router = Router::with_options(RouterOptions::new().refuse_repeated_names(true));
    /// assert!(matches!(router.insert("dict://{term:1}/{term}", ()), Err(InsertError::Unsupported { .. })));
    /// # Ok::<(), rfc6570::InsertError>(())
    /// ```
    pub const fn refuse_repeated_names(mut self, refuse: bool) -> Self {
        self.matching = self.matching.refuse_repeated_names(refuse);
        self
    }

    /// See [`MatchOptions::max_uri_len`]. Default: 32 KiB.
    ///
    /// ```
    /// # use rfc6570::{RouteError, Router, router::RouterOptions};
    /// let mut router = Router::with_options(RouterOptions::new().max_uri_len(10));
    /// router.insert("notes://{id}", ())?;
    /// assert!(matches!(router.at("notes://12345"), Err(RouteError::Malformed { .. })));
    /// # Ok::<(), rfc6570::InsertError>(())
    /// ```
    pub const fn max_uri_len(mut self, max: usize) -> Self {
        self.matching = self.matching.max_uri_len(max);
        self
    }

    /// The path-safety rules for every template. Default: all of them
    /// ([`SafetyPolicy::STRICT`]).
    ///
    /// ```
    /// # use rfc6570::{Router, router::RouterOptions, safety::SafetyPolicy};
    /// let mut router = Router::with_options(RouterOptions::new().safety(SafetyPolicy::OFF));
    /// router.insert("file:///{+path}", ())?;
    /// assert!(router.at("file:///../etc/passwd").is_ok());
    /// # Ok::<(), rfc6570::InsertError>(())
    /// ```
    pub const fn safety(mut self, policy: SafetyPolicy) -> Self {
        self.safety = policy;
        self
    }

    /// Whether [`Router::insert`](crate::Router::insert) refuses a template that has a
    /// [lint](crate::UriTemplate::lints), with [`InsertError::Lint`](crate::InsertError::Lint)
    /// naming the first. Default: `false` (lints do not change what a template matches; this
    /// only keeps ambiguous templates out).
    ///
    /// ```
    /// # use rfc6570::{InsertError, Router, router::RouterOptions};
    /// let mut router = Router::with_options(RouterOptions::new().deny_lints(true));
    /// assert!(matches!(router.insert("x://{a}{b}", ()), Err(InsertError::Lint { .. })));
    /// router.insert("x://{a}/{b}", ())?;
    /// # Ok::<(), rfc6570::InsertError>(())
    /// ```
    pub const fn deny_lints(mut self, deny: bool) -> Self {
        self.deny_lints = deny;
        self
    }
}

impl Default for RouterOptions {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Options for one template, given to [`Router::insert_with`](crate::Router::insert_with).
///
/// ```
/// use rfc6570::router::RouteOptions;
/// use rfc6570::safety::{Rule, SafetyPolicy};
///
/// let options = RouteOptions::new()
///     .safety(SafetyPolicy::STRICT.allow(Rule::AbsolutePath))
///     .var_safety("query", SafetyPolicy::OFF);
/// # let _ = options;
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RouteOptions {
    safety: Option<SafetyPolicy>,
    var_safety: Vec<(Box<str>, SafetyPolicy)>,
}

impl RouteOptions {
    /// No options of its own: the template follows the router's.
    ///
    /// ```
    /// # use rfc6570::router::RouteOptions;
    /// assert_eq!(RouteOptions::new(), RouteOptions::default());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// The safety policy for this template's variables, instead of the router's.
    ///
    /// ```
    /// # use rfc6570::{Router, router::RouteOptions, safety::SafetyPolicy};
    /// let mut router = Router::new();
    /// router.insert_with("echo://{+text}", (), RouteOptions::new().safety(SafetyPolicy::OFF))?;
    /// assert!(router.at("echo:///etc").is_ok());
    /// # Ok::<(), rfc6570::InsertError>(())
    /// ```
    pub fn safety(mut self, policy: SafetyPolicy) -> Self {
        self.safety = Some(policy);
        self
    }

    /// The safety policy for one variable of this template, instead of the template's.
    ///
    /// ```
    /// # use rfc6570::{Router, router::RouteOptions, safety::SafetyPolicy};
    /// let mut router = Router::new();
    /// let raw = RouteOptions::new().var_safety("blob", SafetyPolicy::OFF);
    /// router.insert_with("raw://{+blob}", (), raw)?;
    /// assert!(router.at("raw://../x").is_ok());
    /// # Ok::<(), rfc6570::InsertError>(())
    /// ```
    pub fn var_safety(mut self, variable: &str, policy: SafetyPolicy) -> Self {
        self.var_safety.push((variable.into(), policy));
        self
    }

    /// The policy that applies to `variable`: its own, else the template's, else `router`.
    pub(super) fn policy_for(&self, variable: &str, router: SafetyPolicy) -> SafetyPolicy {
        self.var_safety
            .iter()
            .find(|(name, _)| &**name == variable)
            .map(|&(_, p)| p)
            .or(self.safety)
            .unwrap_or(router)
    }
}
