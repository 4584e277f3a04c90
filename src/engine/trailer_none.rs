//! The WebAssembly module's stand-in for `trailer.rs`: the automaton reads every URI, so
//! that the npm package keeps within its size.

use super::Policy;
use crate::matching::Mark;
use crate::template::Parsed;

/// Whether programs read a trailing expression straight: not in WebAssembly.
pub(super) const TRAILS: bool = false;

/// No trailer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Trailer {}

impl Trailer {
    pub(super) fn of(_: &Parsed, _: Policy) -> Option<Self> {
        None
    }

    pub(super) fn read(&self, _: &[u8], _: &mut [Mark]) -> bool {
        match *self {}
    }
}
