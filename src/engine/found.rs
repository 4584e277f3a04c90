//! What a search hands back ([`Found`]): the template found, and what its spans still need to
//! be its captures, which [`Found::finish`] completes.

use crate::matching::{self, Mark, MatchError, Spans};
use crate::pct::Triplets;
use crate::template::Parsed;

/// The template a search found, and what its spans still need to be its captures.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Found {
    /// Its index among the templates compiled.
    pub(super) index: u32,
    /// What the spans need besides, if anything: `None` for most lookups, which the walk
    /// ends with spans that are the captures as they stand.
    pub(super) rest: Option<Rest>,
}

impl Found {
    /// The template's index among the templates compiled.
    #[inline]
    pub(crate) fn index(&self) -> usize {
        self.index as usize
    }

    /// Whether the spans are the template's captures as they stand: no query tail to bind, no
    /// triplet to check, no captured span that a path-safety rule could refuse. Most lookups
    /// end so, on the walk.
    #[inline]
    pub(crate) fn is_complete(&self) -> bool {
        self.rest.is_none()
    }

    /// Completes the spans of the template found, `template`, into those of its captures
    /// ([`matching::finish`]): binds its query tail, and checks what the captures will decode.
    /// Answers what is known of whether a captured span could break a path-safety rule.
    /// The one place where a match is finished, for a template alone and for a router.
    #[inline]
    pub(crate) fn finish(
        &self,
        template: &Parsed,
        uri: &str,
        spans: &mut Spans,
        strict_query: bool,
    ) -> Result<Plainness, MatchError> {
        let Some(rest) = self.rest else {
            return Ok(Plainness::Plain);
        };
        let (matched, query) = (rest.matched(uri), rest.query.get());
        matching::finish(template, matched, spans, rest.triplets, query, strict_query)?;
        Ok(rest.plain)
    }
}

/// What a search knows of whether the text of its spans could break a path-safety rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Plainness {
    /// Every span is inert, but for triplets of inert bytes or of two-byte characters (which
    /// the spans are checked to decode): no rule can apply.
    Plain,
    /// Every span is inert but for `.`, `/` and triplets as above, as paths are: only the
    /// rules read off segments can apply.
    DotsAndSlashes,
    /// The walk saw text that a rule could refuse, in a span it took or a run it scanned.
    NotPlain,
    /// The automaton found the spans, and does not read what they hold.
    Unread,
}

/// What the spans of a template found need to be its captures: what is known of the URI's
/// percent-triplets, whether a path-safety rule could apply, and a query tail to bind.
#[derive(Debug, Clone, Copy)]
pub(super) struct Rest {
    /// What the spans still need checked of the URI's percent-triplets, which
    /// [`Triplets::need_utf8_check`] reads: what the URI holds, or `None` where the search has
    /// checked them already or knows they need nothing (a walk that read each of its triplets
    /// whole: see `Matcher::found`).
    pub(super) triplets: Triplets,
    /// Whether a captured span could break a path-safety rule.
    pub(super) plain: Plainness,
    /// Where the template's query tail starts in the URI, if it has one.
    pub(super) query: Mark,
    /// Whether the template matched the URI without its fragment, which it set aside: the
    /// text it matched ends at the URI's first `#` ([`matched`](Self::matched)). Not an
    /// offset, so that a search's answer stays small.
    pub(super) set_aside: bool,
}

impl Rest {
    /// What spans that are the captures as they stand need: nothing.
    pub(super) const PLAIN: Rest = Rest {
        triplets: Triplets::None,
        plain: Plainness::Plain,
        query: Mark::NONE,
        set_aside: false,
    };

    /// What spans that are the captures as they stand but for path safety's reading of
    /// their segments need (see [`Plainness::DotsAndSlashes`]).
    pub(super) const DOTS_AND_SLASHES: Rest = Rest {
        plain: Plainness::DotsAndSlashes,
        ..Rest::PLAIN
    };

    /// The text of `uri` that the template matched: all of it, or what comes before its
    /// fragment, where that was set aside.
    #[inline]
    fn matched(self, uri: &str) -> &str {
        if !self.set_aside {
            return uri;
        }
        before_fragment(uri)
    }
}

/// What comes before the fragment of a URI that has one.
#[cold]
fn before_fragment(uri: &str) -> &str {
    let end = uri.bytes().position(|b| b == b'#');
    &uri[..end.unwrap_or(uri.len())]
}
