//! The WebAssembly module's stand-in for `tail.rs`: its walks bind no query tail, and leave
//! every one to be read after them, so that the npm package keeps within its size.

use super::{Mark, Tail, Walker};
use crate::template::Parsed;

/// Whether walks bind tails: not in WebAssembly.
pub(in crate::engine) const BINDS_TAILS: bool = false;

impl Walker {
    pub(in crate::engine) fn bind_tails(&mut self, _: &[&Parsed]) {}

    #[inline]
    pub(super) fn bind_tail(
        &self,
        _: Tail,
        _: &[u8],
        _: usize,
        _: &mut [[Mark; 2]],
    ) -> Option<(u32, u8)> {
        None
    }

    #[inline]
    pub(super) fn bind_empty_tail(&self, _: Tail, _: &mut [[Mark; 2]]) -> Option<u32> {
        None
    }
}
