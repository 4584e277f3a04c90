//! What a variable may capture raw: the set of ASCII bytes each operator's values, lists and
//! maps may hold without percent-encoding. The VM's programs and the walk both read it.

use crate::pct::{self, is_reserved, is_unreserved};
use crate::template::{Operator, VarNode};

/// A set of raw ASCII bytes a value may contain. Encoded units (triplets and raw non-ASCII
/// bytes) are allowed in every value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Class(u128);

impl Class {
    fn of(pred: impl Fn(u8) -> bool) -> Self {
        let mut bits = 0u128;
        for b in 0..128u8 {
            if pred(b) {
                bits |= 1 << b;
            }
        }
        Self(bits)
    }

    fn with(self, b: u8) -> Self {
        Self(self.0 | 1 << b)
    }

    /// Whether the class holds this raw ASCII byte.
    #[inline]
    pub(crate) fn allows_raw(self, byte: u8) -> bool {
        byte < 128 && self.0 >> byte & 1 == 1
    }

    /// The raw ASCII bytes of the class, as bits.
    #[inline]
    pub(crate) fn ascii(self) -> u128 {
        self.0
    }

    /// Whether the class holds this unit: every encoded unit, and its raw ASCII bytes.
    #[inline]
    pub(crate) fn allows(self, unit: pct::Unit) -> bool {
        unit.encoded || (unit.byte < 128 && self.0 >> unit.byte & 1 == 1)
    }

    /// The bytes a single value of `op` may hold raw.
    pub(crate) fn value(op: Operator) -> Self {
        match op {
            Operator::Reserved => {
                Self::of(|b| is_unreserved(b) || is_reserved(b) && b != b'?' && b != b'#')
            }
            Operator::Fragment => Self::of(|b| is_unreserved(b) || is_reserved(b)),
            _ => Self::of(is_unreserved),
        }
    }

    /// The bytes a whole variable of `op` may hold raw: a value, or a list or map written with
    /// commas, or with the operator's separator and `=` when exploded.
    pub(crate) fn variable(op: Operator, var: &VarNode) -> Self {
        let value = Self::value(op);
        if var.prefix != 0 {
            value
        } else if var.explode {
            value.with(op.separator()).with(b'=')
        } else {
            value.with(b',')
        }
    }

    /// Anything printable but `#`: what a query tail may hold before its pairs are checked.
    pub(crate) fn query() -> Self {
        Self::of(|b| b.is_ascii_graphic() && b != b'#')
    }
}
