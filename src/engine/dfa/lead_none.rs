//! The WebAssembly module's stand-in for `lead.rs`: its runs read every URI from the start,
//! so that the npm package keeps within its size.

use super::Dfa;

/// Whether tables have a lead: not in WebAssembly.
pub(in crate::engine) const LEADS: bool = false;

/// No lead: nothing to compare, and nothing skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Lead;

impl Lead {
    pub(super) const NONE: Self = Self;

    pub(super) fn of(_: &Dfa) -> Self {
        Self::NONE
    }

    #[inline]
    pub(super) fn covers(&self, _: &[u8]) -> usize {
        0
    }

    #[inline]
    pub(super) fn start(&self, _: usize) -> (usize, usize, u32) {
        (0, 0, 0)
    }
}
