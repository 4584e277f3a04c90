//! Why a router refused a template ([`InsertError`]) or a URI ([`RouteError`]).
//!
//! Both wrap the error types of the layers below rather than copy them: a template that does
//! not parse carries its [`Error`], one that cannot be matched its [`Unsupported`] reason, one
//! refused for a lint its [`Lint`], and a URI that the best match refused for a reason of its
//! own (a query, a map key given twice, occurrences that disagree) the [`MatchError`] that says
//! which. Every variant has a stable `snake_case` [`code`](RouteError::code).

use crate::Error;
use crate::matching::{BadUri, Malformed, MatchError, Unsupported};
use crate::safety::Rule;
use crate::template::Lint;

/// Why [`Router::insert`](crate::Router::insert) refused a template.
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
    /// The template parses but cannot be compiled for matching.
    #[error("`{template}` cannot be matched")]
    Unsupported {
        /// The template.
        template: String,
        /// Why.
        #[source]
        reason: Unsupported,
    },
    /// The template has a lint, and the router was told to refuse those
    /// ([`RouterOptions::deny_lints`](crate::router::RouterOptions::deny_lints)).
    #[error("`{template}` matches ambiguously")]
    Lint {
        /// The template.
        template: String,
        /// Its first lint.
        #[source]
        lint: Lint,
    },
}

impl InsertError {
    /// A stable `snake_case` name for logs and machine-readable output: `parse`, `conflict`,
    /// `unsupported` or `lint` (the lint's own is [`Lint::code`]).
    ///
    /// ```
    /// # use rfc6570::Router;
    /// let mut router = Router::new();
    /// assert_eq!(router.insert("{x", ()).unwrap_err().code(), "parse");
    /// ```
    pub fn code(&self) -> &'static str {
        match self {
            Self::Parse(_) => "parse",
            Self::Conflict { .. } => "conflict",
            Self::Unsupported { .. } => "unsupported",
            Self::Lint { .. } => "lint",
        }
    }
}

/// Why [`Router::at`](crate::Router::at) found no route.
///
/// ```
/// use rfc6570::{RouteError, Router};
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
    /// The URI is malformed: bad percent-encoding, bytes that are not UTF-8, a character a URI
    /// may not hold, or too long.
    #[error("malformed URI at byte {position}: {reason}")]
    Malformed {
        /// Byte offset in the URI.
        position: usize,
        /// What is wrong there.
        reason: Malformed,
    },
    /// The best match refused the URI for a reason of its own, which `source` gives: a query
    /// its query tail does not take ([`MatchError::Query`]), an exploded variable that would
    /// hold a map key twice ([`MatchError::DuplicateKey`]), or a repeated name whose
    /// occurrences disagree, where no other template matches ([`MatchError::Disagreement`]).
    ///
    /// ```
    /// use rfc6570::matching::QueryError;
    /// use rfc6570::{MatchError, RouteError, Router};
    ///
    /// let mut router = Router::new();
    /// router.insert("search://docs{?q}", ())?;
    /// let refused = router.at("search://docs?q=a&q=b").unwrap_err();
    /// let source = MatchError::Query(QueryError::DuplicateParameter { name: "q".into() });
    /// assert_eq!(refused, RouteError::Refused { template: "search://docs{?q}".into(), source });
    /// assert_eq!(refused.code(), "duplicate_parameter");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[error("`{template}` refused the URI")]
    Refused {
        /// The matched template.
        template: String,
        /// Why: a [`MatchError::Query`], [`MatchError::DuplicateKey`] or
        /// [`MatchError::Disagreement`].
        #[source]
        source: MatchError,
    },
    /// The router's templates cannot be compiled together.
    #[error("the router cannot be compiled")]
    Unsupported(#[source] Unsupported),
}

impl RouteError {
    /// A stable `snake_case` name for logs and machine-readable output: `not_found`,
    /// `unsafe`, `malformed`, the code of the [`MatchError`] a refusal wraps
    /// (`duplicate_parameter`, `unexpected_parameter`, `duplicate_key`, `disagreement`) or
    /// `unsupported`.
    ///
    /// ```
    /// # use rfc6570::Router;
    /// let router: Router<()> = Router::new();
    /// assert_eq!(router.at("x").unwrap_err().code(), "not_found");
    /// ```
    pub fn code(&self) -> &'static str {
        match self {
            Self::NotFound => "not_found",
            Self::Unsafe { .. } => "unsafe",
            Self::Malformed { .. } => "malformed",
            Self::Refused { source, .. } => source.code(),
            Self::Unsupported(_) => "unsupported",
        }
    }

    /// The router's answer for a match error of `template`, the best match: each kind of match
    /// error has its own place, so that a new one cannot pass for another.
    pub(super) fn of_match(template: &str, error: MatchError) -> Self {
        match error {
            MatchError::NoMatch => Self::NotFound,
            MatchError::Malformed { position, reason } => Self::Malformed { position, reason },
            MatchError::Unsupported(reason) => Self::Unsupported(reason),
            source @ (MatchError::Query(_)
            | MatchError::DuplicateKey { .. }
            | MatchError::Disagreement { .. }) => Self::Refused {
                template: template.to_owned(),
                source,
            },
        }
    }
}

impl From<BadUri> for RouteError {
    fn from(BadUri { position, reason }: BadUri) -> Self {
        Self::Malformed { position, reason }
    }
}
