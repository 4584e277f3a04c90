//! What a variable may capture raw: the set of ASCII bytes each operator's values, lists and
//! maps may hold without percent-encoding, strictly (what expansion writes) or as clients
//! write them (with raw sub-delimiters). The engine's programs and walk, and the rules of
//! which templates cannot be matched back, all read it.

use crate::pct::{self, CLIENT_RAW, is_reserved, is_unreserved};
use crate::template::{Operator, VarNode};

/// How a variable's values are read: strictly (as expansion writes them) or as clients write
/// them, and whether the variable stands in the URI's query, where `&` and `=` separate
/// parameters whatever the expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct Reading {
    pub(crate) strict: bool,
    pub(crate) in_query: bool,
}

/// A set of raw ASCII bytes a value may contain. Encoded units (triplets and raw non-ASCII
/// bytes) are allowed in every value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Class {
    bits: u128,
}

/// The bits of the ASCII bytes for which `pred` holds.
fn bits_of(pred: impl Fn(u8) -> bool) -> u128 {
    (0..128u8)
        .filter(|&b| pred(b))
        .fold(0, |bits, b| bits | 1 << b)
}

impl Class {
    fn of(pred: impl Fn(u8) -> bool) -> Self {
        Self {
            bits: bits_of(pred),
        }
    }

    fn with(self, b: u8) -> Self {
        Self {
            bits: self.bits | 1 << b,
        }
    }

    /// Whether the class holds this raw ASCII byte.
    #[inline]
    pub(crate) fn allows_raw(self, byte: u8) -> bool {
        byte < 128 && self.bits >> byte & 1 == 1
    }

    /// The raw ASCII bytes of the class, as bits.
    #[inline]
    pub(crate) fn ascii(self) -> u128 {
        self.bits
    }

    /// Whether the class holds this unit: every encoded unit, and its raw ASCII bytes.
    #[inline]
    pub(crate) fn allows(self, unit: pct::Unit) -> bool {
        unit.encoded || (unit.byte < 128 && self.bits >> unit.byte & 1 == 1)
    }

    /// The bytes a single value of `op` may hold raw (an item or key, for an exploded
    /// variable). Strictly, only what expansion writes raw: unreserved characters, and
    /// reserved ones for `{+v}` and `{#v}`. Otherwise, as clients write them, also the
    /// sub-delimiters, `:` and `@` ([`CLIENT_RAW`]) where the expression cannot use them as
    /// separators: `,` between variables and list items, the operator's separator, `=` in
    /// exploded expressions and in the URI's query (between a name and its value), and `&`
    /// anywhere in the query. A `{;v}` value comes after its name's `=`, where a raw `=` can
    /// only be the value's own: `;v=a=b` gives `a=b`.
    pub(crate) fn value(op: Operator, explode: bool, reading: Reading) -> Self {
        match op {
            Operator::Reserved => {
                Self::of(|b| is_unreserved(b) || is_reserved(b) && b != b'?' && b != b'#')
            }
            Operator::Fragment => Self::of(|b| is_unreserved(b) || is_reserved(b)),
            _ if reading.strict => Self::of(is_unreserved),
            _ => {
                let structural = |b: u8| {
                    b == b','
                        || b == op.separator()
                        || b == b'=' && (explode || op.is_query() || reading.in_query)
                        || b == b'&' && reading.in_query
                };
                Self::of(|b| is_unreserved(b) || CLIENT_RAW.contains(&b) && !structural(b))
            }
        }
    }

    /// The bytes the value of an exploded named entry (`;key=value`) may hold raw: a
    /// [`value`](Self::value)'s, and in a `{;m*}` read as clients write it, `=`: after the
    /// key's `=`, a raw one can only be the value's own (`;k=a=b` gives `k` the value `a=b`).
    pub(crate) fn entry_value(op: Operator, reading: Reading) -> Self {
        let value = Self::value(op, true, reading);
        if op == Operator::PathParam && !reading.strict && !reading.in_query {
            value.with(b'=')
        } else {
            value
        }
    }

    /// The bytes a whole variable of `op` may hold raw: a value, or a list or map written with
    /// commas, or with the operator's separator and `=` when exploded.
    pub(crate) fn variable(op: Operator, var: &VarNode, reading: Reading) -> Self {
        let value = Self::value(op, var.explode, reading);
        if var.prefix != 0 {
            value
        } else if var.explode {
            value.with(op.separator()).with(b'=')
        } else {
            value.with(b',')
        }
    }

    /// The bytes a whole variable of `op` may hold raw in some reading: as clients write it,
    /// outside the query, which holds all that the other readings do. For the rules that ask
    /// whether a byte can end a variable, whatever the URI.
    pub(crate) fn variable_in_any_reading(op: Operator, var: &VarNode) -> Self {
        let widest = Reading {
            strict: false,
            in_query: false,
        };
        Self::variable(op, var, widest)
    }

    /// What a query tail may hold before its pairs are checked: anything a URI may hold
    /// raw but `#`.
    pub(crate) fn query() -> Self {
        Self::of(|b| b.is_ascii_graphic() && b != b'#' && !pct::is_disallowed(b))
    }
}
