//! Why a URI did not match: [`MatchError`], and its reasons [`Malformed`], [`QueryError`] and
//! [`Unsupported`].

use std::fmt;

use crate::template::LintKind;

/// Why a URI is malformed.
///
/// ```
/// use rfc6570::matching::Malformed;
/// use rfc6570::{MatchError, UriTemplate};
///
/// let t = UriTemplate::parse("notes://{id}")?;
/// let err = t.match_uri("notes://%C0%AE").unwrap_err();
/// assert!(matches!(err, MatchError::Malformed { reason: Malformed::NotUtf8, position: 8 }));
/// assert_eq!(Malformed::NotUtf8.code(), "not_utf8");
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Malformed {
    /// A `%` not followed by two hexadecimal digits (the same fault as
    /// [`ErrorKind::InvalidPercentEncoding`](crate::ErrorKind::InvalidPercentEncoding) in a
    /// template).
    InvalidPercentEncoding,
    /// Percent-triplets that do not decode to UTF-8 (`%FF`, the overlong `%C0%AE`).
    NotUtf8,
    /// The URI is longer than the limit in force.
    TooLong {
        /// The limit, in bytes.
        limit: usize,
    },
    /// A character that a URI may not hold raw (RFC 3986 section 2): a control character, a
    /// space, `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|` or `}`. It must be percent-encoded
    /// (a space as `%20`). Non-ASCII characters are allowed, as their UTF-8 triplets.
    ///
    /// ```
    /// use rfc6570::matching::Malformed;
    /// use rfc6570::{MatchError, UriTemplate};
    ///
    /// let t = UriTemplate::parse("x://h{?a}")?;
    /// let err = t.match_uri("x://h?a=b c").unwrap_err();
    /// assert_eq!(err, MatchError::Malformed { position: 9, reason: Malformed::Disallowed { byte: b' ' } });
    /// assert_eq!(
    ///     err.to_string(),
    ///     "malformed URI at byte 9: a space (0x20) cannot stand in a URI; percent-encode it as %20"
    /// );
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    Disallowed {
        /// The byte.
        byte: u8,
    },
}

impl Malformed {
    /// A stable `snake_case` name for logs and machine-readable output.
    ///
    /// ```
    /// # use rfc6570::matching::Malformed;
    /// assert_eq!(Malformed::TooLong { limit: 8 }.code(), "too_long");
    /// ```
    pub fn code(&self) -> &'static str {
        match self {
            Self::InvalidPercentEncoding => "invalid_percent_encoding",
            Self::NotUtf8 => "not_utf8",
            Self::TooLong { .. } => "too_long",
            Self::Disallowed { .. } => "disallowed_character",
        }
    }
}

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidPercentEncoding => f.write_str("`%` not followed by two hex digits"),
            Self::NotUtf8 => f.write_str("percent-encoded bytes are not UTF-8"),
            Self::TooLong { limit } => write!(f, "longer than {limit} bytes"),
            Self::Disallowed { byte } => {
                let name = match byte {
                    b' ' => "a space".to_owned(),
                    0..=0x1F | 0x7F => "a control character".to_owned(),
                    _ => format!("`{}`", char::from(*byte)),
                };
                write!(
                    f,
                    "{name} ({byte:#04x}) cannot stand in a URI; percent-encode it as %{byte:02X}"
                )
            }
        }
    }
}

/// Why a query that a template's query tail reads was refused.
///
/// ```
/// use rfc6570::matching::QueryError;
/// use rfc6570::{MatchError, UriTemplate};
///
/// let t = UriTemplate::parse("search://docs{?q}")?;
/// let err = t.match_uri("search://docs?q=a&q=b").unwrap_err();
/// assert_eq!(err, MatchError::Query(QueryError::DuplicateParameter { name: "q".into() }));
/// assert_eq!(err.to_string(), "query parameter `q` is given more than once");
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum QueryError {
    /// A parameter the template declares (without explode) was given twice: parameter
    /// pollution is refused rather than resolved by first or last wins.
    #[error("query parameter `{name}` is given more than once")]
    DuplicateParameter {
        /// The parameter's name.
        name: String,
    },
    /// With [`MatchOptions::strict_query`](super::MatchOptions::strict_query), a parameter the template does not declare.
    #[error("query parameter `{name}` is not declared by the template")]
    UnexpectedParameter {
        /// The parameter's name.
        name: String,
    },
}

impl QueryError {
    /// A stable `snake_case` name for logs and machine-readable output.
    ///
    /// ```
    /// # use rfc6570::matching::QueryError;
    /// let e = QueryError::UnexpectedParameter { name: "utm".into() };
    /// assert_eq!(e.code(), "unexpected_parameter");
    /// ```
    pub fn code(&self) -> &'static str {
        match self {
            Self::DuplicateParameter { .. } => "duplicate_parameter",
            Self::UnexpectedParameter { .. } => "unexpected_parameter",
        }
    }

    /// The parameter the error is about.
    ///
    /// ```
    /// # use rfc6570::matching::QueryError;
    /// let e = QueryError::DuplicateParameter { name: "q".into() };
    /// assert_eq!(e.name(), "q");
    /// ```
    pub fn name(&self) -> &str {
        match self {
            Self::DuplicateParameter { name } | Self::UnexpectedParameter { name } => name,
        }
    }
}

/// Why a valid template cannot be compiled for matching. Such a template is refused before
/// any URI is read, never answered wrongly.
///
/// ```
/// use rfc6570::matching::Unsupported;
/// use rfc6570::template::LintKind;
/// use rfc6570::{MatchError, UriTemplate};
///
/// let t = UriTemplate::parse("x{&a}{?b}")?;
/// let err = t.match_uri("x&a=1").unwrap_err();
/// let refusal = Unsupported::Shape { kind: LintKind::QueryAfterQuery, position: 5 };
/// assert_eq!(err, MatchError::Unsupported(refusal));
/// // The lint says the same, with the names.
/// assert_eq!((t.lints()[0].kind(), t.lints()[0].position()), (LintKind::QueryAfterQuery, 5));
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum Unsupported {
    /// The template has a shape that some URI would read back wrongly: the first of its
    /// [lints](crate::UriTemplate::lints) whose kind [refuses](LintKind::refuses) it.
    #[error("at byte {position}, {kind}")]
    Shape {
        /// The rule.
        kind: LintKind,
        /// Where in the template, as the lint's [`position`](crate::template::Lint::position).
        position: usize,
    },
    /// So many variables that a match could not keep a small cost per URI byte: more than
    /// 64 before the query tail, or fewer with long names and many operators. (A query
    /// tail's variables are bound by name after the match, and do not count.)
    #[error("it has too many variables to match with a small cost per byte")]
    TooManyVariables,
    /// A router whose templates together compile to more matching instructions than a
    /// lookup can address.
    #[error("the templates compile to more than 2^24 matching instructions")]
    TooManyInstructions,
}

impl Unsupported {
    /// A stable `snake_case` name for logs and machine-readable output: the rule's
    /// [`code`](LintKind::code) for a shape.
    ///
    /// ```
    /// # use rfc6570::matching::Unsupported;
    /// # use rfc6570::template::LintKind;
    /// let refusal = Unsupported::Shape { kind: LintKind::QueryAfterQuery, position: 5 };
    /// assert_eq!(refusal.code(), "query_after_query");
    /// assert_eq!(Unsupported::TooManyVariables.code(), "too_many_variables");
    /// ```
    pub fn code(&self) -> &'static str {
        match self {
            Self::Shape { kind, .. } => kind.code(),
            Self::TooManyVariables => "too_many_variables",
            Self::TooManyInstructions => "too_many_instructions",
        }
    }
}

/// Why a URI did not match a template.
///
/// ```
/// use rfc6570::matching::Malformed;
/// use rfc6570::{MatchError, UriTemplate};
///
/// let t = UriTemplate::parse("notes://{id}")?;
/// assert_eq!(t.match_uri("files://x").unwrap_err(), MatchError::NoMatch);
/// assert_eq!(
///     t.match_uri("notes://%FF").unwrap_err(),
///     MatchError::Malformed { position: 8, reason: Malformed::NotUtf8 }
/// );
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MatchError {
    /// No assignment of the template's variables expands to the URI.
    #[error("the URI does not match the template")]
    NoMatch,
    /// The URI is malformed: bad percent-encoding, captured bytes that are not UTF-8, a
    /// character a URI may not hold, or over the length limit.
    #[error("malformed URI at byte {position}: {reason}")]
    Malformed {
        /// Byte offset of the problem in the URI.
        position: usize,
        /// What is wrong there.
        reason: Malformed,
    },
    /// The template's query tail refused the URI's query.
    #[error(transparent)]
    Query(#[from] QueryError),
    /// An exploded variable would capture a map with the same key twice (`{m*}` on
    /// `a=1,a=2`, `{?m*}` on `?a=1&a=2`): a map cannot hold it, and keeping one of the values
    /// would silently drop the other. Keys compare decoded.
    ///
    /// ```
    /// use rfc6570::{MatchError, UriTemplate};
    ///
    /// let t = UriTemplate::parse("x{?m*}")?;
    /// assert_eq!(
    ///     t.match_uri("x?a=1&a=2").unwrap_err(),
    ///     MatchError::DuplicateKey { variable: "m".into(), key: "a".into() }
    /// );
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    ///
    /// The message names the variable, not the key: through a router it reaches clients,
    /// who are never sent a decoded value back.
    #[error("variable `{variable}` would hold a map key twice")]
    DuplicateKey {
        /// The exploded variable.
        variable: String,
        /// The key, decoded.
        key: String,
    },
    /// The occurrences of a name the template uses more than once do not agree on one value
    /// (`dict://{term:1}/{term}` on `dict://d/cat`): no assignment expands to the URI.
    ///
    /// ```
    /// use rfc6570::{MatchError, UriTemplate};
    ///
    /// let t = UriTemplate::parse("dict://{term:1}/{term}")?;
    /// assert_eq!(t.match_uri("dict://c/cat")?.get("term").unwrap().decoded(), "cat");
    /// assert_eq!(
    ///     t.match_uri("dict://d/cat").unwrap_err(),
    ///     MatchError::Disagreement { variable: "term".into() }
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[error("the occurrences of variable `{variable}` do not agree")]
    Disagreement {
        /// The repeated name, as its first occurrence writes it.
        variable: String,
    },
    /// The template cannot be matched at all.
    #[error("the template cannot be matched")]
    Unsupported(#[source] Unsupported),
}

impl MatchError {
    /// A stable `snake_case` name for logs and machine-readable output: `no_match`,
    /// `malformed`, the [`QueryError`]'s code, `duplicate_key`, `disagreement` or
    /// `unsupported`.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let t = UriTemplate::parse("notes://{id}")?;
    /// assert_eq!(t.match_uri("files://x").unwrap_err().code(), "no_match");
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn code(&self) -> &'static str {
        match self {
            Self::NoMatch => "no_match",
            Self::Malformed { .. } => "malformed",
            Self::Query(e) => e.code(),
            Self::DuplicateKey { .. } => "duplicate_key",
            Self::Disagreement { .. } => "disagreement",
            Self::Unsupported(_) => "unsupported",
        }
    }
}

/// A fault of the URI itself, found before or while the engine reads it: a match reports it as
/// [`MatchError::Malformed`], a router as [`RouteError::Malformed`](crate::RouteError).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BadUri {
    pub(crate) position: usize,
    pub(crate) reason: Malformed,
}

impl From<BadUri> for MatchError {
    fn from(BadUri { position, reason }: BadUri) -> Self {
        Self::Malformed { position, reason }
    }
}
