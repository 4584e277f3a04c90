//! A template's one expression read straight from the URI, where the automaton's answer is
//! plain to see: `x://repo{/owner,name}` on `x://repo/rust-lang/rust`.
//!
//! The walk serves no expression whose variables may be left out (`{.ext}`, `{#section}`,
//! `{/owner,name}`, `{;x,y}`), so a template of literal text and one such expression is
//! matched by the automaton. But where the URI spells the literal text (its scheme and
//! authority in either case) and then the expression with every variable defined, each value
//! non-empty plain ASCII of its class, and the values apart at separators their class cannot
//! hold (or one value alone, to the end), the URI can be read one way only: every other path
//! through the automaton's program leaves a variable out or ends a value elsewhere, and
//! either leaves bytes it cannot read. So this reading is the automaton's. Anything else (a
//! triplet, an empty or missing value, a name out of place, a byte past ASCII) is left to the
//! automaton, which is why every answer stays its.

use super::Policy;
use super::word::load;
use crate::matching::Mark;
use crate::template::class::{Class, Reading};
use crate::template::{Node, Operator, Parsed, caseless_end};

/// Whether programs read a trailing expression straight: not in WebAssembly
/// (`trailer_none.rs`).
pub(super) const TRAILS: bool = true;

/// See the module documentation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Trailer {
    /// The literal text before the expression, as words of eight bytes packed as
    /// [`load`] packs them, each with the mask that compares it (a letter of the scheme or
    /// authority in either case); and its length.
    literal: Box<[(u64, u64)]>,
    literal_len: usize,
    op: Operator,
    /// Whether a value may hold each byte raw: its class, as a table, which reads faster.
    allowed: Box<[bool; 256]>,
    /// The variables' names, which `{;..}` writes before their values; one per variable.
    names: Box<[Box<[u8]>]>,
}

impl Trailer {
    /// The trailer of `t` under `policy`, if `t` is literal text and then one expression of
    /// `.`, `/`, `;` or `#` whose variables are neither exploded nor cut by a prefix.
    pub(super) fn of(t: &Parsed, policy: Policy) -> Option<Self> {
        let source = t.as_str();
        let [
            Node::Literal { start, end },
            Node::Expression { op, .. },
            vars @ ..,
        ] = t.nodes()
        else {
            return None;
        };
        let literal = &source.as_bytes()[*start as usize..*end as usize];
        let plain = |b: &u8| b.is_ascii() && !matches!(b, b'%' | b'?' | b'#');
        if !literal.iter().all(plain)
            || !matches!(op, Operator::Label | Operator::Path)
                && !matches!(op, Operator::PathParam | Operator::Fragment)
        {
            return None;
        }
        let reading = Reading {
            strict: policy.strict_encoding,
            in_query: false,
        };
        let (mut names, mut class) = (Vec::new(), None);
        for var in vars {
            let Node::Var(v) = var else { return None };
            let name = &source.as_bytes()[v.name_start as usize..v.name_end as usize];
            if v.explode || v.prefix != 0 || name.contains(&b'%') {
                return None;
            }
            names.push(name.into());
            // Alike for every variable: neither exploded nor cut.
            class = Some(Class::variable(*op, v, reading));
        }
        let class = class?;
        if names.len() > 1 && class.allows_raw(op.separator()) {
            return None;
        }
        let caseless = caseless_end(source, t.nodes());
        let words = literal.chunks(8).enumerate().map(|(k, chunk)| {
            chunk
                .iter()
                .enumerate()
                .fold((0, 0), |(head, mask), (i, &b)| {
                    let letter = 8 * k + i < caseless && b.is_ascii_alphabetic();
                    let bits: u8 = if letter { !0x20 } else { !0 };
                    let shift = 8 * i;
                    (
                        head | u64::from(b & bits) << shift,
                        mask | u64::from(bits) << shift,
                    )
                })
        });
        Some(Self {
            literal: words.collect(),
            literal_len: literal.len(),
            op: *op,
            allowed: Box::new(std::array::from_fn(|b| class.allows_raw(b as u8))),
            names: names.into(),
        })
    }

    /// Reads `uri` as the module documentation says, setting every variable's span in
    /// `marks`; false, with `marks` in any state, where the automaton must read it. A URI it
    /// reads is valid and holds no triplet: every byte is one of the literal text, which
    /// holds no `%`, or a byte of a value's class or a separator, which a URI may hold raw.
    pub(super) fn read(&self, uri: &[u8], marks: &mut [Mark]) -> bool {
        let Some(mut pos) = self.after_literal(uri) else {
            return false;
        };
        let last = self.names.len() - 1;
        for (i, name) in self.names.iter().enumerate() {
            let lead = if i == 0 {
                self.op.prefix().as_bytes()[0]
            } else {
                self.op.separator()
            };
            if uri.get(pos) != Some(&lead) {
                return false;
            }
            pos += 1;
            if self.op == Operator::PathParam {
                let Some(after) = uri.get(pos..).and_then(|rest| rest.strip_prefix(&**name)) else {
                    return false;
                };
                if after.first() != Some(&b'=') {
                    return false;
                }
                pos += name.len() + 1;
            }
            let start = pos;
            while uri.get(pos).is_some_and(|&b| self.allowed[usize::from(b)]) {
                pos += 1;
            }
            if pos == start || i == last && pos != uri.len() {
                return false;
            }
            marks[2 * i] = Mark::at(start);
            marks[2 * i + 1] = Mark::at(pos);
        }
        true
    }

    /// Where the literal text ends in `uri`, if `uri` starts with it.
    fn after_literal(&self, uri: &[u8]) -> Option<usize> {
        let spelled = uri.len() >= self.literal_len
            && (self.literal.iter().enumerate())
                .all(|(k, &(head, mask))| (load(uri, 8 * k) ^ head) & mask == 0);
        spelled.then_some(self.literal_len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::program::Program;
    use crate::engine::vm;
    use crate::pct::tests::concatenations;

    /// Path variables required, values read as expansion writes them.
    const STRICT: Policy = Policy {
        require_path_vars: true,
        strict_encoding: true,
        refuse_repeated: false,
    };

    /// Every policy a program is compiled under.
    fn policies() -> impl Iterator<Item = Policy> {
        [(false, false), (false, true), (true, false), (true, true)]
            .map(|(required, strict)| Policy {
                require_path_vars: required,
                strict_encoding: strict,
                refuse_repeated: false,
            })
            .into_iter()
    }

    /// Wherever the trailer reads a URI, the VM reads it alike, to the same spans; and it
    /// reads the URIs the benches match.
    #[test]
    fn the_trailer_reads_as_the_vm_does() {
        let pieces = [
            "a", "bc", "/", ".", ";", "#", ",", "%41", "\u{e9}", ";x=", ";y", "=", "x",
        ];
        let tails = concatenations(&pieces, 4);
        let mut read = 0;
        for template in [
            "x://archive{.ext}",
            "x://page{#section}",
            "x://repo{/owner,name}",
            "x://map{;x,y}",
            "X://Repo{/a,b,c}",
            "p{;x}",
            "ab{.x,y}",
            "s:{#a,b}",
        ] {
            let parsed = Parsed::parse(template).unwrap();
            let literal = template.split('{').next().unwrap();
            let heads = [
                literal.to_owned(),
                literal.to_lowercase(),
                literal.to_uppercase(),
                format!("{literal}z"),
            ];
            for policy in policies() {
                let program = Program::compile(&parsed, policy).unwrap();
                let Some(trailer) = &program.trailer else {
                    continue;
                };
                for uri in heads
                    .iter()
                    .flat_map(|h| tails.iter().map(move |t| h.clone() + t))
                {
                    let mut by_trailer = vec![Mark::NONE; program.slots];
                    if !trailer.read(uri.as_bytes(), &mut by_trailer) {
                        continue;
                    }
                    read += 1;
                    let mut by_vm = vec![Mark::NONE; program.slots];
                    let key = vm::run(&program, uri.as_bytes(), &mut by_vm);
                    assert_eq!((key, by_vm), (Some(0), by_trailer), "{template} on {uri}");
                }
            }
        }
        assert!(read > 1000, "the trailer read {read} URIs");
        for (template, uri) in [
            ("x://archive{.ext}", "x://archive.tar"),
            ("x://page{#section}", "x://page#intro/part-2"),
            ("x://repo{/owner,name}", "x://repo/rust-lang/rust"),
            ("x://map{;x,y}", "x://map;x=1024;y=768"),
        ] {
            let program = Program::compile(&Parsed::parse(template).unwrap(), STRICT).unwrap();
            let mut marks = vec![Mark::NONE; program.slots];
            let trailer = program.trailer.as_ref().expect("a trailer");
            assert!(
                trailer.read(uri.as_bytes(), &mut marks),
                "{template} on {uri}"
            );
        }
    }

    /// Which templates get a trailer: literal text, then one expression of `.`, `/`, `;` or
    /// `#`, unexploded and uncut, whose values the separator keeps apart.
    #[test]
    fn a_trailer_serves_one_expression_after_literal_text() {
        let trailer = |t: &str| Trailer::of(&Parsed::parse(t).unwrap(), STRICT).is_some();
        for t in [
            "x://archive{.ext}",
            "x://page{#s}",
            "x://repo{/o,n}",
            "x://map{;x,y}",
        ] {
            assert!(trailer(t), "{t}");
        }
        for t in [
            "x://{id}",
            "{/a}",
            "x://{a}{/b}",
            "x://a{/b}/c",
            "x://a{/b*}",
            "x://a{/b:2}",
            "x://a{.b,c}",
            "x://a{#b,c}",
            "x://a%20b{/c}",
            "x://a?b{/c}",
            "x://a{?q}",
        ] {
            assert!(!trailer(t), "{t}");
        }
    }
}
