//! Matching: from a concrete URI back to the variables of one template.
//!
//! RFC 6570 only defines expansion; this module defines the reverse. A URI matches a template
//! when some assignment of its variables expands to the URI (with the query exception below),
//! and the captures are that assignment. The design in brief:
//!
//! * [`program`] compiles a template once into a small NFA over URI *units* (bytes, with
//!   percent-triplets and raw non-ASCII bytes taken by the byte they stand for);
//! * [`vm`] runs it as a Pike VM: every live thread advances together, so the cost is
//!   `O(len(uri) × len(program))`, linear in the URI for every template, with no backtracking;
//! * [`walk`] matches delimited templates (`/users/{id}`, `file:///{+path}`, a query tail)
//!   without the VM, by walking a radix trie of their literals: a tenth of the VM's cost, and
//!   the same answers;
//! * [`query`] binds a trailing query in any order;
//! * [`captures`] exposes what was captured, borrowed from the URI and decoded on demand.

pub(crate) mod captures;
#[cfg(feature = "serde")]
mod extract;
pub(crate) mod program;
pub(crate) mod query;
pub(crate) mod trie;
pub(crate) mod vm;
pub(crate) mod walk;

use std::fmt;

pub use captures::{Capture, Captures, Kind};
#[cfg(feature = "serde")]
pub use extract::ExtractError;
use program::Policy;
use walk::Walk;

use crate::pct;
use crate::template::UriTemplate;
pub(crate) use captures::Slots;

/// Why a URI is malformed.
///
/// ```
/// use rfc6570::{Malformed, MatchError, UriTemplate};
///
/// let t = UriTemplate::parse("notes://{id}")?;
/// let err = t.match_uri("notes://%C0%AE").unwrap_err();
/// assert!(matches!(err, MatchError::Malformed { reason: Malformed::NotUtf8, position: 8 }));
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Malformed {
    /// A `%` not followed by two hexadecimal digits.
    BadPercentEncoding,
    /// Percent-triplets that do not decode to UTF-8 (`%FF`, the overlong `%C0%AE`).
    NotUtf8,
    /// The URI is longer than the limit in force.
    TooLong {
        /// The limit, in bytes.
        limit: usize,
    },
}

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BadPercentEncoding => f.write_str("`%` not followed by two hex digits"),
            Self::NotUtf8 => f.write_str("percent-encoded bytes are not UTF-8"),
            Self::TooLong { limit } => write!(f, "longer than {limit} bytes"),
        }
    }
}

/// Why a URI did not match a template.
///
/// ```
/// use rfc6570::{Malformed, MatchError, UriTemplate};
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
    /// The URI is malformed: bad percent-encoding, captured bytes that are not UTF-8, or over
    /// the length limit.
    #[error("malformed URI at byte {position}: {reason}")]
    Malformed {
        /// Byte offset of the problem in the URI.
        position: usize,
        /// What is wrong there.
        reason: Malformed,
    },
    /// A query parameter the template declares (without explode) was given twice: parameter
    /// pollution is refused rather than resolved by first or last wins.
    #[error("query parameter `{name}` is given more than once")]
    DuplicateParameter {
        /// The parameter's name.
        name: String,
    },
    /// With [`MatchOptions::strict_query`], a query parameter the template does not declare.
    #[error("query parameter `{name}` is not declared by the template")]
    UnexpectedParameter {
        /// The parameter's name.
        name: String,
    },
    /// The template cannot be matched within the crate's cost bounds.
    #[error("the template cannot be matched: {reason}")]
    Unsupported {
        /// Why.
        reason: &'static str,
    },
}

/// Options for [`UriTemplate::match_uri_with`].
///
/// ```
/// use rfc6570::{MatchError, MatchOptions, UriTemplate};
///
/// let t = UriTemplate::parse("search://docs{?q}")?;
/// assert!(t.match_uri("search://docs?q=x&utm=y").is_ok());
/// let strict = MatchOptions::default().strict_query(true);
/// assert!(matches!(
///     t.match_uri_with("search://docs?q=x&utm=y", &strict),
///     Err(MatchError::UnexpectedParameter { .. })
/// ));
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct MatchOptions {
    /// Refuse query parameters the template does not declare. Default: `false` (ignore them).
    pub strict_query: bool,
    /// The longest URI accepted, in bytes. Default: 1 MiB. Whatever it is set to, URIs of 4 GiB
    /// or more are refused: spans are kept as 32-bit offsets.
    pub max_uri_len: usize,
    /// Require every variable outside query expressions to be defined and non-empty, so that
    /// `users:///profile` does not match `users://{id}/profile`. Default: `false`; routers
    /// turn it on.
    pub require_path_vars: bool,
}

impl MatchOptions {
    /// The defaults: lenient query, URIs up to 1 MiB.
    pub const DEFAULT: Self = Self {
        strict_query: false,
        max_uri_len: 1 << 20,
        require_path_vars: false,
    };

    /// Sets [`strict_query`](Self::strict_query).
    pub fn strict_query(mut self, strict: bool) -> Self {
        self.strict_query = strict;
        self
    }

    /// Sets [`require_path_vars`](Self::require_path_vars).
    pub fn require_path_vars(mut self, required: bool) -> Self {
        self.require_path_vars = required;
        self
    }

    pub(crate) fn policy(&self) -> Policy {
        Policy {
            require_path_vars: self.require_path_vars,
        }
    }

    /// Sets [`max_uri_len`](Self::max_uri_len).
    pub fn max_uri_len(mut self, max: usize) -> Self {
        self.max_uri_len = max;
        self
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

/// Checks a URI against the length limit.
#[inline]
pub(crate) fn check_len(uri: &str, max_len: usize) -> Result<(), MatchError> {
    check_len_within(uri, len_limit(max_len))
}

/// The length limit a match applies for the option `max_len`: no more than spans can record.
pub(crate) fn len_limit(max_len: usize) -> usize {
    max_len.min(LONGEST_URI)
}

/// [`check_len`] against a limit that is already [`len_limit`].
#[inline]
pub(crate) fn check_len_within(uri: &str, max_len: usize) -> Result<(), MatchError> {
    if uri.len() > max_len {
        return Err(MatchError::Malformed {
            position: max_len,
            reason: Malformed::TooLong { limit: max_len },
        });
    }
    Ok(())
}

/// Checks a URI against the length limit and for bad percent-encoding, and says whether it
/// holds any triplet: a URI without one has nothing to decode.
pub(crate) fn validate_uri(uri: &str, max_len: usize) -> Result<Triplets, MatchError> {
    check_len(uri, max_len)?;
    match pct::validate(uri) {
        Ok(true) => Ok(Triplets::Some),
        Ok(false) => Ok(Triplets::None),
        Err(position) => Err(MatchError::Malformed {
            position,
            reason: Malformed::BadPercentEncoding,
        }),
    }
}

/// Whether a validated URI holds percent-triplets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Triplets {
    None,
    Some,
}

impl UriTemplate {
    /// Matches a concrete URI against this template and returns the variables that produce it.
    ///
    /// The URI matches when some assignment of the template's variables expands to it, and the
    /// captures are that assignment, percent-decoded exactly once (`+` stays `+`). The rules,
    /// from the crate's matching design:
    ///
    /// * **Decoding.** Every value, list item, key and map value is decoded once. `{+v}` and
    ///   `{#v}` pass percent-triplets through when expanding, so for them a triplet that encodes
    ///   a character they would have written raw (unreserved or reserved, such as `%2F`) stays
    ///   encoded: the value then expands back to the same URI, and an encoded slash is never
    ///   mistaken for a separator. A `%` without two hex digits, or triplets that do not decode
    ///   to UTF-8, are [`MatchError::Malformed`], never a silent replacement.
    /// * **What a variable captures.** `{v}`, `{.v}`, `{/v}`, `{;v}`, `{?v}` and `{&v}` capture
    ///   unreserved characters and percent-triplets and stop at the first reserved character;
    ///   raw commas separate list items, the operator's separator splits exploded lists, and
    ///   `=` marks maps. `{+v}` also captures reserved characters but never `?` or `#`; `{#v}`
    ///   runs from a literal `#` to the end. A URI with a query or fragment the template has no
    ///   place for does not match.
    /// * **Literals** compare with hex case folded (`%2f` equals `%2F`), and a non-ASCII
    ///   character equals its percent-encoded UTF-8 (`café` equals `caf%C3%A9`).
    /// * **Ambiguity.** Where several assignments fit, the one whose bytes are consumed by the
    ///   better-ranked parts of the template wins, comparing along the URI until the first
    ///   difference: a literal beats a variable that cannot cross `/`, which beats one that can
    ///   (`{+v}`, `{#v}`, `{/v*}`); this is the router's precedence rule applied within one
    ///   template, so `{a}{+b}` on `x/y` gives `a = x, b = /y`. Among equally ranked
    ///   assignments, a variable is preferably defined, with the shortest value, earlier
    ///   variables first: `{x,y}` on `1024,768` gives `x = 1024, y = 768`, and `{a}{b}` on
    ///   `xy` gives `b = xy` (`a` empty, so absent). A variable with a prefix modifier whose
    ///   start is ambiguous starts as late as it can.
    /// * **Empty and undefined.** Where expansion cannot tell them apart (`{v}` on ""), the
    ///   variable is absent; where it can (`{/v}` on "/"), it is "".
    /// * **Repeated names.** A name used twice must capture the same text in both places (or,
    ///   with a prefix modifier, the first that many characters of it).
    /// * **Query tail.** When the template ends with `{?..}`/`{&..}` expressions, the query (from
    ///   the first `?` after the rest of the template, or `&` if the tail has a `{&..}`
    ///   expression) is read as `&`-separated `name=value` pairs: declared names bind in any order and are each
    ///   optional; names compare as written, undecoded; an exploded `{?v*}` collects the
    ///   parameters named `v` as a list, or failing those the undeclared ones as a map; other
    ///   undeclared parameters are ignored (refused with
    ///   [`MatchOptions::strict_query`]); a declared name given twice is an error. Values may
    ///   hold any character but `&` and `#`.
    ///
    /// Matching runs in time linear in the URI's length: the template is compiled once (on first
    /// use) into an automaton that reads the URI in one pass; a template whose variables are all
    /// delimited (`db://users/{id}/profile`, `file:///{+path}`, a query tail) is matched by a
    /// radix walk instead, which is faster and hands over to the automaton if it ever needs more
    /// than a few steps per byte. The automaton's cost per byte grows with the template, so
    /// templates with more than some 50 variables are refused ([`MatchError::Unsupported`])
    /// rather than matched slowly. It allocates nothing for templates
    /// of up to 10 variables once the thread's matcher cache is warm; decoding allocates only
    /// for values that hold percent-triplets.
    ///
    /// ```
    /// use rfc6570::UriTemplate;
    ///
    /// let t = UriTemplate::parse("log://build/{job_id}{?lines,level}")?;
    /// let caps = t.match_uri("log://build/42?level=warn&lines=10-20")?;
    /// assert_eq!(caps.get("job_id").unwrap().decoded(), "42");
    /// assert_eq!(caps.get("lines").unwrap().decoded(), "10-20");
    ///
    /// let json = serde_json::to_value(&caps)?;
    /// assert_eq!(json, serde_json::json!({"job_id": "42", "lines": "10-20", "level": "warn"}));
    ///
    /// // `{+path}` keeps slashes but not the query. Values are decoded once, but an encoded
    /// // reserved character stays encoded: `%2F` never becomes a path separator.
    /// let t = UriTemplate::parse("file:///{+path}")?;
    /// let caps = t.match_uri("file:///docs/a%20b%2Fc.md")?;
    /// assert_eq!(caps.get("path").unwrap().decoded(), "docs/a b%2Fc.md");
    /// assert!(t.match_uri("file:///docs?x=1").is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Limits
    ///
    /// * A repeated name is checked after the automaton has chosen its assignment (equality of
    ///   two captures is not a regular property): where the preferred assignment disagrees and
    ///   another would agree (`{a,b}{b}` on `x`), the URI does not match.
    /// * Templates with more than some 50 variables, and query tails with a `{?..}` expression
    ///   after another (`{&a}{?b}`, which writes `?` inside the query), are refused with
    ///   [`MatchError::Unsupported`].
    /// * Before a query tail that may start with `&` (`{?a}{&b}`), a `{+v}` value stops at its
    ///   first `&`: there the tail ranks above the reserved variable. Likewise a `{#v}` value
    ///   before a query tail stops at its first `?` (`{#f}{?q}` on `#a?q=b` gives `f = a`).
    /// * A triplet that `{+v}` passed through, next to a simple variable, may be taken and
    ///   decoded by that variable (`{+a}{b}` on `x%41`): the captures re-expand to a URI equal
    ///   up to percent-encoding normalization, not byte for byte.
    /// * In `{+v:n}` and `{#v:n}` a run of triplets counts as the one character it encodes, as
    ///   this crate's expansion counts it.
    /// * A literal triplet that encodes a UTF-8 continuation byte right after an expression
    ///   (`{r}%AB`) cannot end the variable: it is read as the end of the variable's last
    ///   character, so such a template does not match what it expands to.
    /// * A prefix-modified variable (`{v:n}`) reached at one position by two paths keeps one
    ///   of them, to stay linear: the one that has used fewer characters, since it can do all
    ///   the other can, ranked by what it consumed. Where the other ranks better and could
    ///   have finished too, its assignment is passed over: `{+p}{q:2}x` on `.ax` gives
    ///   `p = .`, `q = a` rather than `q = .a`. A [`Router`](crate::Router) ranks the template
    ///   by the assignment reported, so another template can win where the passed-over one
    ///   would have ranked first: `{+r}{s:1}{+t}x` beats `{+p}{q:3}x` on `..abx`, which
    ///   reports `p = ..a`, `q = b` rather than `p = .`, `q = .ab`.
    ///
    /// # Errors
    ///
    /// [`MatchError::NoMatch`] when no assignment fits; [`MatchError::Malformed`] for bad
    /// percent-encoding, captured bytes that are not UTF-8, or a URI over 1 MiB;
    /// [`MatchError::DuplicateParameter`] for a declared query parameter given twice.
    pub fn match_uri<'a>(&'a self, uri: &'a str) -> Result<Captures<'a>, MatchError> {
        self.match_uri_with(uri, &MatchOptions::DEFAULT)
    }

    /// [`match_uri`](Self::match_uri) with explicit [`MatchOptions`].
    ///
    /// ```
    /// use rfc6570::{Malformed, MatchError, MatchOptions, UriTemplate};
    ///
    /// let t = UriTemplate::parse("notes://{id}")?;
    /// let short = MatchOptions::default().max_uri_len(10);
    /// assert!(matches!(
    ///     t.match_uri_with("notes://12345", &short),
    ///     Err(MatchError::Malformed { reason: Malformed::TooLong { limit: 10 }, .. })
    /// ));
    ///
    /// let t = UriTemplate::parse("users://{id}/profile")?;
    /// assert!(t.match_uri("users:///profile").is_ok());
    /// let required = MatchOptions::default().require_path_vars(true);
    /// assert_eq!(t.match_uri_with("users:///profile", &required).unwrap_err(), MatchError::NoMatch);
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn match_uri_with<'a>(
        &'a self,
        uri: &'a str,
        options: &MatchOptions,
    ) -> Result<Captures<'a>, MatchError> {
        let triplets = validate_uri(uri, options.max_uri_len)?;
        let program = self.program(options.policy()).map_err(Clone::clone)?;
        let mut slots = Slots::new(program.slots / 2);
        let buf = slots.as_mut_slice(program.slots / 2);
        match program.walker.as_ref().map(|w| w.walk(uri.as_bytes(), buf)) {
            Some(Walk::Found(..)) => self.clear_tail(buf),
            Some(Walk::NotFound) => return Err(MatchError::NoMatch),
            Some(Walk::GaveUp) | None => {
                vm::run(program, uri.as_bytes(), buf).ok_or(MatchError::NoMatch)?;
            }
        }
        finish(self, uri, &mut slots, triplets, options.strict_query)?;
        Ok(Captures::new(self, uri, slots))
    }

    /// Unsets the query tail's slots but the one recording where it starts. The VM leaves them
    /// unset; a radix walk writes only the slots on its path, which other templates' spans may
    /// have used.
    #[inline]
    pub(crate) fn clear_tail(&self, slots: &mut [u32]) {
        if let Some(first) = self.tail_var() {
            slots[2 * first + 1..2 * self.var_count()].fill(vm::UNSET);
        }
    }
}

/// Completes the VM's slots for `template` into those of its captures: binds the query tail,
/// checks that captured text decodes to UTF-8, and that repeated names agree. The caller then
/// builds the captures where it returns them: they are large enough that each move costs.
#[inline]
pub(crate) fn finish(
    template: &UriTemplate,
    uri: &str,
    slots: &mut Slots,
    triplets: Triplets,
    strict_query: bool,
) -> Result<(), MatchError> {
    // Most lookups have nothing to finish: kept inline, so that they do not pay for a call.
    if triplets != Triplets::Some && template.tail_var().is_none() && !template.has_repeated_names()
    {
        return Ok(());
    }
    finish_slots(template, uri, slots, triplets, strict_query)
}

/// The work of [`finish`], out of line.
#[inline(never)]
fn finish_slots(
    template: &UriTemplate,
    uri: &str,
    slots: &mut Slots,
    triplets: Triplets,
    strict_query: bool,
) -> Result<(), MatchError> {
    let buf = slots.as_mut_slice(template.var_count());
    let head_vars = template.tail_var().unwrap_or(template.var_count());
    if triplets == Triplets::Some {
        check_utf8(uri, &buf[..2 * head_vars])?;
    }
    if let Some(first) = template.tail_var() {
        let from = std::mem::replace(&mut buf[2 * first], vm::UNSET) as usize;
        query::bind(template, first, uri, from, strict_query, buf)?;
    }
    if template.has_repeated_names() {
        let caps = Captures::new(template, uri, slots.clone());
        if !repeated_names_agree(&caps) {
            return Err(MatchError::NoMatch);
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

/// A variable used more than once must have captured the same text everywhere, or, where a
/// prefix modifier applies, the first that many characters of it (as expansion writes them).
/// (An undefined occurrence reads as empty: expansion writes nothing for either.)
fn repeated_names_agree(caps: &Captures<'_>) -> bool {
    let t = caps.template();
    let specs = || t.variables().enumerate();
    specs().all(|(i, a)| {
        specs()
            .skip(i + 1)
            .filter(|(_, b)| b.name() == a.name())
            .all(|(j, b)| {
                let (x, y) = (
                    caps.raw_slot(i).unwrap_or(""),
                    caps.raw_slot(j).unwrap_or(""),
                );
                match (a.prefix(), b.prefix()) {
                    (None, None) => {
                        x == y || caps.is_query_collector(i) || caps.is_query_collector(j)
                    }
                    (Some(n), None) => x == first_chars(y, n),
                    (None, Some(n)) => y == first_chars(x, n),
                    (Some(m), Some(n)) if m <= n => x == first_chars(y, m),
                    (Some(_), Some(n)) => y == first_chars(x, n),
                }
            })
    })
}

/// The first `n` characters of captured text, a run of triplets for one character counting once.
fn first_chars(raw: &str, n: u16) -> &str {
    let bytes = raw.as_bytes();
    let (mut i, mut chars) = (0, 0);
    while i < bytes.len() {
        let (unit, len) = pct::unit_at(bytes, i);
        if unit.starts_char() {
            if chars == n {
                break;
            }
            chars += 1;
        }
        i += len;
    }
    &raw[..i]
}
