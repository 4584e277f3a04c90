//! Why a URI did not match: [`MatchError`], and its reasons [`Malformed`], [`QueryError`] and
//! [`Unsupported`].

use std::fmt;

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
    /// With [`MatchOptions::strict_query`], a parameter the template does not declare.
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
/// use rfc6570::{MatchError, UriTemplate};
///
/// let t = UriTemplate::parse("x{&a}{?b}")?;
/// let err = t.match_uri("x&a=1").unwrap_err();
/// assert_eq!(err, MatchError::Unsupported(Unsupported::QueryAfterQuery));
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum Unsupported {
    /// So many variables that a match could not keep a small cost per URI byte.
    #[error("it has too many variables to match with a small cost per byte")]
    TooManyVariables,
    /// A query tail with a `{?..}` expression after another one, which writes `?` inside the
    /// query (`{&..}` is what belongs there).
    #[error(
        "its query tail has a `{{?..}}` expression after another one, which writes `?` inside \
         the query (use `{{&..}}` there)"
    )]
    QueryAfterQuery,
    /// A router whose templates together compile to more matching instructions than a
    /// lookup can address.
    #[error("the templates compile to more than 2^24 matching instructions")]
    TooManyInstructions,
    /// A variable name used more than once (`{x}/{x}`, `{a,b}{b}`): its occurrences would have
    /// to capture the same value, which no linear-time match can enforce.
    #[error(
        "a variable name is used more than once, and a match cannot make its occurrences agree"
    )]
    RepeatedName,
    /// A query expression after a fragment (`{#f}{?q}`, `#x{?q}`): in a URI everything after
    /// `#` is fragment, so no query can follow it.
    #[error("it has a query expression after a fragment, where a URI has no query")]
    QueryAfterFragment,
    /// A query expression before the template's trailing query expressions, with something
    /// else between them (`{?a}/x{&b}`): its `?` would end the head's reading early.
    #[error(
        "it has a query expression before other parts and then more query expressions; keep \
         the query expressions together at the end"
    )]
    QueryBeforeTail,
    /// A `{+v}` in the query before a trailing `{&..}` (`x{+v}{&q}`): the `&` that starts
    /// the trailing expressions could as well be part of the value.
    #[error(
        "a `{{+..}}` expression stands before a `{{&..}}` query expression and could hold the \
         `&` that starts it"
    )]
    AmbiguousQueryStart,
    /// More than one exploded variable in the trailing query expressions (`{?a*,b*}`): each
    /// would collect the same undeclared parameters.
    #[error("its query expressions have more than one exploded variable, which would share the undeclared parameters")]
    SeveralExplodedInQuery,
    /// An exploded variable outside the trailing query expressions, followed with no literal
    /// between by another exploded variable (`{.m*,n*}`), or, for the named operators (`{;m*}`,
    /// `{?m*}`, `{&m*}`), by any variable (`{;m*,l*}`, `x{?m*}{?n*}y`), that it can run into:
    /// as a map, its entries could take what the next variable writes (`.k=v`, `;l`, `?n=1`),
    /// and so hold a key twice where another reading fits. Where the next variable starts
    /// with a character the first cannot hold (`x{/path*}{;filters*}`), it is served.
    #[error(
        "an exploded variable is followed, with no literal between, by a variable whose items \
         its map could take"
    )]
    ExplodedBeforeVariable,
    /// A variable outside the trailing query expressions followed, with no literal between, by
    /// an exploded variable whose first entry it can hold the start of (`{a}{m*}`,
    /// `{+path}{/m*}`, `{#a}{;m*}`): the reading that gives the first variable the shortest
    /// value could leave the map a key twice (`{+a}{m*}` on `=,=`, from `a = "="` and
    /// `m = {"": ""}`) where another reading fits. Where the exploded variable starts with a
    /// character the first cannot hold (`{a}{/m*}`, `{a,m*}`), or is a list (`{+a,m*}`), it is served.
    #[error(
        "a variable is followed, with no literal between, by an exploded variable whose map's entries it could take part of"
    )]
    VariableBeforeExploded,
    /// A variable name holding a percent-triplet that does not decode to UTF-8
    /// (`{?na%FFme*}`), which an exploded named variable writes into the URI.
    #[error("a variable name holds percent-encoded bytes that are not UTF-8")]
    NameNotUtf8,
}

impl Unsupported {
    /// A stable `snake_case` name for logs and machine-readable output.
    ///
    /// ```
    /// # use rfc6570::matching::Unsupported;
    /// assert_eq!(Unsupported::QueryAfterQuery.code(), "query_after_query");
    /// ```
    pub fn code(&self) -> &'static str {
        match self {
            Self::TooManyVariables => "too_many_variables",
            Self::QueryAfterQuery => "query_after_query",
            Self::TooManyInstructions => "too_many_instructions",
            Self::RepeatedName => "repeated_name",
            Self::QueryAfterFragment => "query_after_fragment",
            Self::QueryBeforeTail => "query_before_tail",
            Self::AmbiguousQueryStart => "ambiguous_query_start",
            Self::SeveralExplodedInQuery => "several_exploded_in_query",
            Self::ExplodedBeforeVariable => "exploded_before_variable",
            Self::VariableBeforeExploded => "variable_before_exploded",
            Self::NameNotUtf8 => "name_not_utf8",
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
    #[error("variable `{variable}` would hold the key `{key}` twice")]
    DuplicateKey {
        /// The exploded variable.
        variable: String,
        /// The key, decoded.
        key: String,
    },
    /// The template cannot be matched at all.
    #[error("the template cannot be matched")]
    Unsupported(#[source] Unsupported),
}

impl MatchError {
    /// A stable `snake_case` name for logs and machine-readable output: `no_match`,
    /// `malformed`, the [`QueryError`]'s code, `duplicate_key` or `unsupported`.
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
