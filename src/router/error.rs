//! Why a router refused a template ([`InsertError`]) or a URI ([`RouteError`]).
//!
//! Both wrap the error types of the layers below rather than copy them: a template that does
//! not parse carries its [`Error`], one that cannot be matched its [`Unsupported`] reason, one
//! refused for a lint its [`Lint`], and a query that the best match refused its
//! [`QueryError`]. Every variant has a stable `snake_case` [`code`](RouteError::code).

use crate::Error;
use crate::matching::{BadUri, Malformed, MatchError, QueryError, Unsupported};
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
    /// The best match's query tail refused the URI's query.
    #[error("`{template}` refused the query")]
    Query {
        /// The matched template.
        template: String,
        /// Why.
        #[source]
        source: QueryError,
    },
    /// The best match's exploded variable would hold a map key twice
    /// ([`MatchError::DuplicateKey`]).
    #[error("variable `{variable}` of `{template}` would hold a map key twice")]
    DuplicateKey {
        /// The matched template.
        template: String,
        /// The exploded variable.
        variable: String,
        /// The key, decoded.
        key: String,
    },
    /// The best match repeats a name whose occurrences disagree
    /// ([`MatchError::Disagreement`]), and no other template matches.
    #[error("the occurrences of variable `{variable}` of `{template}` do not agree")]
    Disagreement {
        /// The matched template.
        template: String,
        /// The repeated name.
        variable: String,
    },
    /// The router's templates cannot be compiled together.
    #[error("the router cannot be compiled")]
    Unsupported(#[source] Unsupported),
}

impl RouteError {
    /// A stable `snake_case` name for logs and machine-readable output: `not_found`,
    /// `unsafe`, `malformed`, the [`QueryError`]'s code, `duplicate_key`, `disagreement` or
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
            Self::Query { source, .. } => source.code(),
            Self::DuplicateKey { .. } => "duplicate_key",
            Self::Disagreement { .. } => "disagreement",
            Self::Unsupported(_) => "unsupported",
        }
    }

    /// The router's answer for a match error of `template`, the best match: each kind of match
    /// error has its own place, so that a new one cannot pass for another.
    pub(super) fn of_match(template: &str, error: MatchError) -> Self {
        match error {
            MatchError::NoMatch => Self::NotFound,
            MatchError::Malformed { position, reason } => Self::Malformed { position, reason },
            MatchError::Query(source) => Self::Query {
                template: template.to_owned(),
                source,
            },
            MatchError::DuplicateKey { variable, key } => Self::DuplicateKey {
                template: template.to_owned(),
                variable,
                key,
            },
            MatchError::Disagreement { variable } => Self::Disagreement {
                template: template.to_owned(),
                variable,
            },
            MatchError::Unsupported(reason) => Self::Unsupported(reason),
        }
    }
}

impl From<BadUri> for RouteError {
    fn from(BadUri { position, reason }: BadUri) -> Self {
        Self::Malformed { position, reason }
    }
}
