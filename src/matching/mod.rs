//! Matching one template: [`MatchOptions`], the [`Captures`] a match returns, and why a URI
//! did not match ([`MatchError`] with its reasons [`Malformed`], [`QueryError`] and
//! [`Unsupported`]). What matches what is the [semantics](crate::semantics).
//!
//! Inside: the spans that the engine fills with where each variable's text lies (`spans`), and
//! what turns them into captures once the engine has found a template: `query` binds a query
//! tail's pairs in any order, and `finish` checks what the captures will decode.

mod agree;
mod capture;
mod captures;
mod error;
#[cfg(feature = "serde")]
mod extract;
mod options;
mod query;
mod spans;
#[cfg(test)]
mod tests;

pub use capture::{Capture, CaptureKind};
pub use captures::Captures;
pub(crate) use error::BadUri;
pub use error::{Malformed, MatchError, QueryError, Unsupported};
#[cfg(feature = "serde")]
pub use extract::ExtractError;
pub use options::MatchOptions;
pub(crate) use spans::{LONGEST_URI, Mark, Spans};

use crate::pct::{self, Triplets};
use crate::template::Parsed;

/// Completes the spans the engine found for `template` into those of its captures: binds the
/// query tail (which starts at `query`, if the template has one), checks that captured text
/// decodes to UTF-8, that no map holds a key twice, and that the occurrences of a repeated
/// name agree. The caller then builds the captures
/// where it returns them: they are large enough that each move costs.
#[inline]
pub(crate) fn finish(
    template: &Parsed,
    uri: &str,
    spans: &mut Spans,
    triplets: Triplets,
    query: Option<usize>,
    strict_query: bool,
) -> Result<(), MatchError> {
    // Most lookups have nothing to finish: kept inline, so that they do not pay for a call.
    if !triplets.need_utf8_check()
        && query.is_none()
        && !template.explodes()
        && !template.has_repeats()
        && !template.splits_characters()
    {
        return Ok(());
    }
    finish_spans(template, uri, spans, triplets, query, strict_query)
}

/// The work of [`finish`], out of line.
#[inline(never)]
fn finish_spans(
    template: &Parsed,
    uri: &str,
    spans: &mut Spans,
    triplets: Triplets,
    query: Option<usize>,
    strict_query: bool,
) -> Result<(), MatchError> {
    let head_vars = template.tail_var().unwrap_or(template.var_count());
    if template.splits_characters() {
        check_char_boundaries(uri, spans, head_vars)?;
    }
    let utf8_unknown = triplets.need_utf8_check();
    if utf8_unknown {
        check_utf8(uri, spans, head_vars)?;
    }
    // A head whose occurrences disagree is no match, whatever its query: said first, so that
    // a router searches on rather than stop at the query's fault.
    if template.has_repeats() {
        agree::agree_in_head(template, uri, spans)?;
    }
    if let Some(from) = query {
        query::bind(template, uri, from, strict_query, utf8_unknown, spans)?;
    }
    if template.explodes() {
        // The spans lent to captures for the check, and taken back: no copy.
        let captures = Captures::new(template, uri, std::mem::replace(spans, Spans::new(0)));
        let repeated = captures.repeated_key();
        *spans = captures.into_spans();
        if let Some((variable, key)) = repeated {
            return Err(MatchError::DuplicateKey { variable, key });
        }
    }
    if template.has_repeats() {
        agree::agree_in_tail(template, uri, spans)?;
    }
    Ok(())
}

/// Checks that the spans of the first `vars` variables start and end between the URI's
/// characters: where a literal took a raw character's first byte only (see
/// [`Parsed::splits_characters`]), the value after it holds the rest, which is no text; as in
/// the same URI with the character encoded, the value is not UTF-8.
fn check_char_boundaries(uri: &str, spans: &Spans, vars: usize) -> Result<(), MatchError> {
    for span in spans.first(vars).flatten() {
        let cut = [span.start, span.end]
            .into_iter()
            .find(|&at| !uri.is_char_boundary(at));
        if let Some(position) = cut {
            return Err(MatchError::Malformed {
                position,
                reason: Malformed::NotUtf8,
            });
        }
    }
    Ok(())
}

/// Checks that the text of the first `vars` variables decodes to UTF-8.
fn check_utf8(uri: &str, spans: &Spans, vars: usize) -> Result<(), MatchError> {
    for span in spans.first(vars).flatten() {
        pct::check_utf8(&uri.as_bytes()[span.clone()]).map_err(|i| MatchError::Malformed {
            position: span.start + i,
            reason: Malformed::NotUtf8,
        })?;
    }
    Ok(())
}
