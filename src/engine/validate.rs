//! A URI's own faults, found before or while it is matched: the length limit, characters a URI
//! may not hold, bad percent-encoding; and what checking it learned ([`Known`]): its triplets,
//! where its fragment starts.

use crate::matching::{BadUri, LONGEST_URI, Malformed};
use crate::pct::{self, Triplets};

/// What a search has learned of the URI by checking it: what triplets it holds, and, where
/// the check read every byte, where its fragment starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Known {
    pub(super) triplets: Triplets,
    /// `Some(at)` for a `#` at `at`; `Some(None)` for none; `None` if the check did not look.
    pub(super) fragment: Option<Option<usize>>,
    /// Whether the lenient program (values as clients write them) could find what the strict
    /// one did not: true unless a walk that found nothing says otherwise (see
    /// [`Seen::stopped_at_client_raw`](super::walk::Seen::stopped_at_client_raw)).
    pub(super) lenient_may_differ: bool,
}

impl Known {
    /// What checking only a URI's triplets learns (see [`validate_triplets`]).
    pub(super) fn of_triplets(triplets: Triplets) -> Self {
        Known {
            triplets,
            fragment: None,
            lenient_may_differ: true,
        }
    }

    /// Where the URI's fragment starts, read off the check or, if it did not look, found.
    pub(super) fn fragment(known: Option<Known>, uri: &str) -> Option<usize> {
        match known.and_then(|k| k.fragment) {
            Some(at) => at,
            None => uri.bytes().position(|b| b == b'#'),
        }
    }
}

/// The length limit a search applies for the option `max_len`: no more than a [`Mark`](crate::matching::Mark) can
/// hold. Searches take it clamped, so that a lookup does not clamp it again.
pub(crate) fn limit(max_len: usize) -> usize {
    max_len.min(LONGEST_URI)
}

/// Checks a URI for every fault of its own, as a search would find them (`limit` as
/// [`limit`] gives it): for a template that cannot be compiled, whose refusal must not hide a
/// malformed URI.
pub(crate) fn check_uri(uri: &str, limit: usize) -> Result<(), BadUri> {
    if uri.len() > limit {
        return Err(too_long(limit));
    }
    validate_uri(uri).map(|_| ())
}

/// A URI over the length limit.
#[cold]
pub(super) fn too_long(limit: usize) -> BadUri {
    BadUri {
        position: limit,
        reason: Malformed::TooLong { limit },
    }
}

/// Checks a URI for characters it may not hold and for bad percent-encoding, and says what
/// triplets it holds: a URI without one has nothing to decode. Of two faults, the first in the
/// URI is reported.
pub(super) fn validate_uri(uri: &str) -> Result<Known, BadUri> {
    validate_uri_past(uri, 0)
}

/// [`validate_uri`] for a URI whose first `vouched` bytes a walk that found nothing vouches
/// for (see [`Walk::NotFound`](super::walk::Walk::NotFound)): ASCII a URI may hold, none a
/// `%` or a `#`, so that what they would tell is known and only the rest is read.
pub(super) fn validate_uri_past(uri: &str, vouched: usize) -> Result<Known, BadUri> {
    let (from, rest) = uri.get(vouched..).map_or((0, uri), |rest| (vouched, rest));
    let checked = pct::check(rest).map_err(|fault| match fault {
        pct::Fault::Percent(position) => BadUri {
            position: from + position,
            reason: Malformed::InvalidPercentEncoding,
        },
        pct::Fault::Disallowed(position) => BadUri {
            position: from + position,
            reason: Malformed::Disallowed {
                byte: rest.as_bytes()[position],
            },
        },
    })?;
    Ok(Known {
        triplets: checked.triplets,
        fragment: Some(checked.fragment.map(|at| from + at)),
        lenient_may_differ: true,
    })
}

/// [`validate_uri`] for a URI a walk has matched, whose bytes are all ones a URI may hold.
/// Inline, with its loop: a lookup whose walk found a URI with triplets reads them without a
/// call.
#[inline(always)]
pub(super) fn validate_triplets(uri: &str) -> Result<Known, BadUri> {
    let triplets = pct::check_triplets(uri).map_err(|position| BadUri {
        position,
        reason: Malformed::InvalidPercentEncoding,
    })?;
    Ok(Known::of_triplets(triplets))
}
