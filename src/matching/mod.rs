//! Matching one template: [`MatchOptions`], the [`Captures`] a match returns, and why a URI
//! did not match ([`MatchError`] with its reasons [`Malformed`], [`QueryError`] and
//! [`Unsupported`]). What matches what is the [semantics](crate::semantics).
//!
//! Inside, the engine: `program` compiles a template once into a small NFA over URI units
//! (the instructions of `inst`), `vm` runs it as a Pike VM (linear in the URI), `dfa` runs
//! the VM's choices made ahead of time as a table, `walk` serves
//! delimited templates by a radix walk, `query` binds a query tail in any order, and
//! `captures` reads what was captured. `ARCHITECTURE.md` in the repository describes each and its costs.

#[cfg(test)]
mod adversarial;
mod captures;
mod class;
mod dfa;
#[cfg(feature = "serde")]
mod extract;
mod inst;
pub(crate) mod program;
mod query;
pub(crate) mod trie;
mod vm;
pub(crate) mod walk;

use std::fmt;

pub use captures::{Capture, CaptureKind, Captures};
#[cfg(feature = "serde")]
pub use extract::ExtractError;
use program::Policy;
use walk::Walk;

use crate::pct;
use crate::template::Parsed;
pub(crate) use captures::Slots;
use program::Program;
use walk::Seen;

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

/// Options for [`UriTemplate::match_uri_with`](crate::UriTemplate::match_uri_with). Every setter takes and returns the options, so
/// they chain; [`RouterOptions`](crate::router::RouterOptions) has the same setters, with the
/// router's defaults.
///
/// ```
/// use rfc6570::matching::{MatchOptions, QueryError};
/// use rfc6570::{MatchError, UriTemplate};
///
/// let t = UriTemplate::parse("search://docs{?q}")?;
/// assert!(t.match_uri("search://docs?q=x&utm=y").is_ok());
/// let strict = MatchOptions::new().strict_query(true);
/// assert!(matches!(
///     t.match_uri_with("search://docs?q=x&utm=y", &strict),
///     Err(MatchError::Query(QueryError::UnexpectedParameter { .. }))
/// ));
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchOptions {
    pub(crate) strict_query: bool,
    pub(crate) strict_encoding: bool,
    pub(crate) allow_empty_path_vars: bool,
    pub(crate) max_uri_len: usize,
}

/// The default of [`MatchOptions::max_uri_len`]: 32 KiB.
const DEFAULT_MAX_URI_LEN: usize = 32 * 1024;

impl MatchOptions {
    /// The defaults: undeclared query parameters ignored, raw sub-delimiters accepted, empty
    /// path variables allowed, URIs up to 32 KiB.
    pub const DEFAULT: Self = Self {
        strict_query: false,
        strict_encoding: false,
        allow_empty_path_vars: true,
        max_uri_len: DEFAULT_MAX_URI_LEN,
    };

    /// The defaults, as [`DEFAULT`](Self::DEFAULT).
    ///
    /// ```
    /// # use rfc6570::matching::MatchOptions;
    /// assert_eq!(MatchOptions::new(), MatchOptions::default());
    /// ```
    pub const fn new() -> Self {
        Self::DEFAULT
    }

    /// Refuse query parameters the template does not declare
    /// ([`QueryError::UnexpectedParameter`]). Default: `false`, they are ignored.
    ///
    /// ```
    /// # use rfc6570::{UriTemplate, matching::MatchOptions};
    /// let t = UriTemplate::parse("x{?a}")?;
    /// let strict = MatchOptions::new().strict_query(true);
    /// assert!(t.match_uri_with("x?a=1&b=2", &strict).is_err());
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub const fn strict_query(mut self, strict: bool) -> Self {
        self.strict_query = strict;
        self
    }

    /// Accept in a value only what an expansion writes raw. By default a value of any
    /// operator also takes the sub-delimiters `! $ & ' ( ) * + , ; = : @` raw, as clients
    /// send them (`docs://a+b.txt`, `users://ada@example.com`), wherever its expression cannot
    /// use them as separators: `,` still separates variables and list items, `=` and `;`
    /// still structure `{;v}`, `&` and `=` a query. With `true`, `{v}` takes only unreserved
    /// characters and triplets, as expansion writes it. Default: `false`.
    ///
    /// ```
    /// # use rfc6570::{MatchError, UriTemplate, matching::MatchOptions};
    /// let t = UriTemplate::parse("docs://{name}")?;
    /// assert_eq!(t.match_uri("docs://report(1).pdf")?.get("name").unwrap().decoded(), "report(1).pdf");
    /// let strict = MatchOptions::new().strict_encoding(true);
    /// assert_eq!(t.match_uri_with("docs://report(1).pdf", &strict).unwrap_err(), MatchError::NoMatch);
    /// assert!(t.match_uri_with("docs://report%281%29.pdf", &strict).is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn strict_encoding(mut self, strict: bool) -> Self {
        self.strict_encoding = strict;
        self
    }

    /// Let variables outside query expressions be empty or absent, so that `users:///profile`
    /// matches `users://{id}/profile`. Default: `true` here, as expansion allows it;
    /// `false` for a router.
    ///
    /// ```
    /// # use rfc6570::{MatchError, UriTemplate, matching::MatchOptions};
    /// let t = UriTemplate::parse("users://{id}/profile")?;
    /// assert!(t.match_uri("users:///profile").is_ok());
    /// let required = MatchOptions::new().allow_empty_path_vars(false);
    /// assert_eq!(t.match_uri_with("users:///profile", &required).unwrap_err(), MatchError::NoMatch);
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub const fn allow_empty_path_vars(mut self, allow: bool) -> Self {
        self.allow_empty_path_vars = allow;
        self
    }

    /// The longest URI accepted, in bytes; a longer one is [`Malformed::TooLong`]. Default:
    /// 32 KiB, chosen for resource identifiers: four times the 8,000 octets RFC 9110 asks
    /// every HTTP recipient to support, half the 64 KiB the Python MCP SDK accepts, and short
    /// enough that the costliest accepted template answers in well under a millisecond (the
    /// README's Performance section measures it). Whatever it is set to, URIs of 4 GiB or more
    /// are refused: spans are kept as 32-bit offsets.
    ///
    /// ```
    /// # use rfc6570::{MatchError, UriTemplate, matching::{Malformed, MatchOptions}};
    /// let t = UriTemplate::parse("notes://{id}")?;
    /// let short = MatchOptions::new().max_uri_len(10);
    /// assert!(matches!(
    ///     t.match_uri_with("notes://12345", &short),
    ///     Err(MatchError::Malformed { reason: Malformed::TooLong { limit: 10 }, .. })
    /// ));
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub const fn max_uri_len(mut self, max: usize) -> Self {
        self.max_uri_len = max;
        self
    }

    pub(crate) fn policy(&self) -> Policy {
        Policy {
            require_path_vars: !self.allow_empty_path_vars,
            strict_encoding: self.strict_encoding,
        }
    }
}

impl Default for MatchOptions {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// The longest URI any match accepts: spans are 32-bit offsets, and `u32::MAX` marks an unset
/// one.
const LONGEST_URI: usize = u32::MAX as usize - 1;

/// A fault of the URI itself, found before any template is tried: a match reports it as
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

/// Checks a URI against the length limit.
#[inline]
pub(crate) fn check_len(uri: &str, max_len: usize) -> Result<(), BadUri> {
    check_len_within(uri, len_limit(max_len))
}

/// The length limit a match applies for the option `max_len`: no more than spans can record.
pub(crate) fn len_limit(max_len: usize) -> usize {
    max_len.min(LONGEST_URI)
}

/// [`check_len`] against a limit that is already [`len_limit`].
#[inline]
pub(crate) fn check_len_within(uri: &str, max_len: usize) -> Result<(), BadUri> {
    if uri.len() > max_len {
        return Err(BadUri {
            position: max_len,
            reason: Malformed::TooLong { limit: max_len },
        });
    }
    Ok(())
}

/// Checks a URI against the length limit, for characters a URI may not hold and for bad
/// percent-encoding, and says what triplets it holds: a URI without one has nothing to decode.
/// Of two faults, the first in the URI is reported.
pub(crate) fn validate_uri(uri: &str, max_len: usize) -> Result<Triplets, BadUri> {
    check_len(uri, max_len)?;
    let disallowed = pct::find_disallowed(uri.as_bytes()).map(|position| BadUri {
        position,
        reason: Malformed::Disallowed {
            byte: uri.as_bytes()[position],
        },
    });
    match (pct::validate(uri), disallowed) {
        (Err(at), Some(bad)) if bad.position < at => Err(bad),
        (Err(position), _) => Err(BadUri {
            position,
            reason: Malformed::InvalidPercentEncoding,
        }),
        (Ok(_), Some(bad)) => Err(bad),
        (Ok(found), None) => Ok(found),
    }
}

/// What a validated URI holds of percent-triplets.
pub(crate) use pct::Percent as Triplets;

/// Matches a validated `uri` against one template's `program`: the engine entry that
/// [`UriTemplate::match_uri`](crate::UriTemplate::match_uri) calls.
pub(crate) fn match_template<'a>(
    template: &'a Parsed,
    program: &Program,
    uri: &'a str,
    triplets: Triplets,
    strict_query: bool,
) -> Result<Captures<'a>, MatchError> {
    let mut triplets = Some(triplets);
    let mut slots = Slots::new(program.slots / 2);
    let buf = slots.as_mut_slice(program.slots / 2);
    match search(program, uri, buf, &mut triplets)? {
        Search::Walked(..) => clear_tail(template, buf),
        Search::Automaton(_) => {}
        Search::NotFound | Search::Deferred => return Err(MatchError::NoMatch),
    }
    let triplets = triplets.unwrap_or(Triplets::Some);
    finish(template, uri, &mut slots, triplets, strict_query)?;
    Ok(Captures::new(template, uri, slots))
}

/// Where a program matched a URI, and which engine found it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Search {
    /// The walk found template `key`, and noted what the captured bytes hold.
    Walked(u32, Seen),
    /// The automaton found template `key`: the VM, or its table.
    Automaton(u32),
    /// Nothing matches.
    NotFound,
    /// The walk gave up, or the program has none: the VM decides ([`run_vm`]).
    Deferred,
}

/// Finds the best template of `program` for `uri`, writing its spans to `slots`: the walk
/// where the program has one, else (or when the walk gives up) the VM. The one place that
/// chooses between the engines: a single template's match calls it; a router runs its two
/// halves apart, the walk inline in `Router::at` and [`run_vm`] out of line, since a call
/// around the walk, or the VM's call beside it, cost a GitHub-API lookup 25 to 50
/// instructions of spilled registers (callgrind).
///
/// `triplets` is what is known of the URI's percent-encoding: `None` until it is validated.
/// The walk needs no validation; the VM does, so a URI that reaches it is validated first
/// (and `triplets` filled in), and a malformed one is an error. The walk compares bytes, so
/// where a URI holds a triplet of an unreserved character (`%66`, equal to `f` under RFC 3986
/// normalization) its answer does not count: the VM, which compares normalized units, decides.
pub(crate) fn search(
    program: &Program,
    uri: &str,
    slots: &mut [u32],
    triplets: &mut Option<Triplets>,
) -> Result<Search, BadUri> {
    let found = match &program.walker {
        Some(walker) => walker.walk(uri.as_bytes(), slots).into(),
        None => Search::Deferred,
    };
    match found {
        Search::Deferred => run_vm(program, uri, slots, triplets),
        _ if *triplets == Some(Triplets::Unreserved) => rerun_by_vm(program, uri, slots, triplets),
        found => Ok(found),
    }
}

/// Validates a URI that the walk has answered for without validating it, and has the VM decide
/// instead where the URI holds a triplet of an unreserved character, which makes the walk's
/// answer not count (see [`search`]): `None` when the walk's answer stands.
pub(crate) fn validate_walk(
    program: &Program,
    uri: &str,
    slots: &mut [u32],
    triplets: &mut Option<Triplets>,
) -> Result<Option<Search>, BadUri> {
    let known = validate_uri(uri, usize::MAX)?;
    *triplets = Some(known);
    if known == Triplets::Unreserved {
        rerun_by_vm(program, uri, slots, triplets).map(Some)
    } else {
        Ok(None)
    }
}

/// [`run_vm`] after a walk whose answer does not count (see [`search`]), over fresh slots.
#[inline(never)]
pub(crate) fn rerun_by_vm(
    program: &Program,
    uri: &str,
    slots: &mut [u32],
    triplets: &mut Option<Triplets>,
) -> Result<Search, BadUri> {
    slots.fill(vm::UNSET);
    run_vm(program, uri, slots, triplets)
}

impl From<Walk> for Search {
    /// The walk's answer, with a walk that gave up deferred to the VM.
    #[inline]
    fn from(walk: Walk) -> Self {
        match walk {
            Walk::Found(key, seen) => Self::Walked(key, seen),
            Walk::NotFound => Self::NotFound,
            Walk::GaveUp => Self::Deferred,
        }
    }
}

/// The VM's half of [`search`], for a URI the walk deferred: validates it if that is not done
/// yet, and runs the VM's table where the program has one (see [`dfa`]) and the VM where it
/// does not or the table defers. Out of line: most searches end in the walk.
#[inline(never)]
pub(crate) fn run_vm(
    program: &Program,
    uri: &str,
    slots: &mut [u32],
    triplets: &mut Option<Triplets>,
) -> Result<Search, BadUri> {
    if triplets.is_none() {
        *triplets = Some(validate_uri(uri, usize::MAX)?);
    }
    if let Some(dfa) = program.dfa() {
        match dfa.run(uri.as_bytes(), slots) {
            dfa::Run::Match(key) => return Ok(Search::Automaton(key)),
            dfa::Run::NoMatch => return Ok(Search::NotFound),
            dfa::Run::Dynamic => {}
        }
    }
    Ok(match vm::run(program, uri.as_bytes(), slots) {
        Some(key) => Search::Automaton(key),
        None => Search::NotFound,
    })
}

/// Unsets the query tail's slots but the one recording where it starts. The VM leaves them
/// unset; a radix walk writes only the slots on its path, which other templates' spans may
/// have used.
#[inline]
pub(crate) fn clear_tail(template: &Parsed, slots: &mut [u32]) {
    if let Some(first) = template.tail_var() {
        slots[2 * first + 1..2 * template.var_count()].fill(vm::UNSET);
    }
}

/// Completes the VM's slots for `template` into those of its captures: binds the query tail
/// and checks that captured text decodes to UTF-8. The caller then
/// builds the captures where it returns them: they are large enough that each move costs.
#[inline]
pub(crate) fn finish(
    template: &Parsed,
    uri: &str,
    slots: &mut Slots,
    triplets: Triplets,
    strict_query: bool,
) -> Result<(), MatchError> {
    // Most lookups have nothing to finish: kept inline, so that they do not pay for a call.
    if triplets == Triplets::None && template.tail_var().is_none() && !template.explodes() {
        return Ok(());
    }
    finish_slots(template, uri, slots, triplets, strict_query)
}

/// The work of [`finish`], out of line.
#[inline(never)]
fn finish_slots(
    template: &Parsed,
    uri: &str,
    slots: &mut Slots,
    triplets: Triplets,
    strict_query: bool,
) -> Result<(), MatchError> {
    let buf = slots.as_mut_slice(template.var_count());
    let head_vars = template.tail_var().unwrap_or(template.var_count());
    if triplets != Triplets::None {
        check_utf8(uri, &buf[..2 * head_vars])?;
    }
    if let Some(first) = template.tail_var() {
        let from = std::mem::replace(&mut buf[2 * first], vm::UNSET) as usize;
        query::bind(template, first, uri, from, strict_query, buf)?;
    }
    if template.explodes() {
        // The slots lent to captures for the check, and taken back: no copy.
        let captures = Captures::new(template, uri, std::mem::replace(slots, Slots::new(0)));
        let repeated = captures.repeated_key();
        *slots = captures.into_slots();
        if let Some((variable, key)) = repeated {
            return Err(MatchError::DuplicateKey { variable, key });
        }
    }
    Ok(())
}

fn check_utf8(uri: &str, slots: &[u32]) -> Result<(), MatchError> {
    for span in slots.chunks_exact(2) {
        if span[0] == vm::UNSET || span[1] == vm::UNSET {
            continue;
        }
        let (start, end) = (span[0] as usize, span[1] as usize);
        pct::check_utf8(&uri[start..end]).map_err(|i| MatchError::Malformed {
            position: start + i,
            reason: Malformed::NotUtf8,
        })?;
    }
    Ok(())
}
