//! A table's lead: the text every match starts with, read as one word rather than a unit at a
//! time.
//!
//! A template matched alone mostly starts with a scheme and a host or a path
//! (`x://archive{.ext}`), and its table's first states each let one byte through (or a letter
//! in either case, where the scheme is caseless) and move no slot. A URI that starts with those
//! bytes reaches the same state whichever way the run reads them; so the run starts there, past
//! them, and since they are plain text, validation need not read them either. A URI that does
//! not start with them is read from the start as before: the table refuses it, but a malformed
//! one must be reported as such first.

use super::{DEAD, Dfa};
use crate::engine::word::load;
use crate::pct;

/// Whether tables have a lead: not in WebAssembly (`lead_none.rs`).
pub(in crate::engine) const LEADS: bool = true;

/// See the module documentation: the lead's bytes packed as [`load`] packs them, the mask
/// that compares them (a letter of a caseless scheme in either case), how many there are, and
/// the state the table is in past them, with the characters they count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Lead {
    head: u64,
    mask: u64,
    len: u8,
    row: u16,
    chars: u8,
}

impl Lead {
    /// No lead: a run reads every URI from the start.
    pub(super) const NONE: Self = Self {
        head: 0,
        mask: 0,
        len: 0,
        row: 0,
        chars: 0,
    };

    /// The lead of `dfa`, up to a word: it ends at the first state that lets more than one
    /// raw byte (or a letter's two cases) through, or a byte that is not plain text, or that
    /// moves a slot. A state on the way may end the URI: one that ends there is shorter than
    /// the lead, and read from the start.
    pub(super) fn of(dfa: &Dfa) -> Self {
        let mut lead = Self::NONE;
        while lead.len < 8 {
            let Some((byte, mask, next)) = only_way(dfa, usize::from(lead.row)) else {
                break;
            };
            let shift = 8 * u32::from(lead.len);
            lead.head |= u64::from(byte & mask) << shift;
            lead.mask |= u64::from(mask) << shift;
            lead.chars += (dfa.starts >> dfa.raw[usize::from(byte)]) as u8 & 1;
            lead.len += 1;
            lead.row = next;
        }
        lead
    }

    /// How many bytes of `uri` the lead covers: all of it if the URI starts with it, else
    /// none.
    #[inline]
    pub(super) fn covers(&self, uri: &[u8]) -> usize {
        let len = usize::from(self.len);
        if len > 0 && uri.len() >= len && (load(uri, 0) ^ self.head) & self.mask == 0 {
            len
        } else {
            0
        }
    }

    /// Where a run starts when the lead covers `covered` bytes: its row, position and the
    /// characters read.
    #[inline]
    pub(super) fn start(&self, covered: usize) -> (usize, usize, u32) {
        if covered == 0 {
            (0, 0, 0)
        } else {
            (usize::from(self.row), covered, u32::from(self.chars))
        }
    }
}

/// The one byte that goes on from the state at `row`, if there is one (a letter's upper case
/// where both cases go on), the mask that compares it, and the next state's row. A triplet
/// may go on too (`%78` for `x`): a URI that has one there is read from the start.
fn only_way(dfa: &Dfa, row: usize) -> Option<(u8, u8, u16)> {
    let transition = |class: u8| dfa.transitions[row + usize::from(class)];
    let live = |class: u8| transition(class).next() != DEAD;
    let mut bytes = (0..=255u8).filter(|&b| b != b'%' && live(dfa.raw[usize::from(b)]));
    let byte = bytes.next()?;
    let mask = match (bytes.next(), bytes.next()) {
        (None, _) => 0xFF,
        (Some(lower), None) if byte.is_ascii_uppercase() && lower == byte | 0x20 => {
            if transition(dfa.raw[usize::from(lower)]) != transition(dfa.raw[usize::from(byte)]) {
                return None;
            }
            0xDF
        }
        _ => return None,
    };
    let t = transition(dfa.raw[usize::from(byte)]);
    (pct::is_plain(byte) && t.is_quiet()).then_some((byte, mask, t.next()))
}
