//! Compiling a template into a matching program: a small NFA over URI units.
//!
//! Each literal unit becomes one instruction; each expression becomes the NFA of "any subset of
//! its variables, in order, the first behind the operator's prefix and the others behind its
//! separator". A variable's value is a single self-looping instruction over the bytes its
//! operator lets through ([`Class`]), or, with a prefix modifier, a counting loop that admits at
//! most that many characters; an exploded variable's items are spelled out (keys, `=`, values,
//! separators) so that whatever it captures is a list or map that expands to that text again. The instructions are ordered so that the virtual machine's priority
//! order is the crate's ambiguity rule: a variable is preferably defined, and its value as short
//! as possible, earlier variables first.
//!
//! Trailing query expressions (`{?..}{&..}` at the end of the template) are not compiled into
//! the NFA: they are read as unordered `name=value` pairs, see [`super::query`].

use crate::pct::{self, is_reserved, is_unreserved};
use crate::template::{Node, Operator, UriTemplate, VarNode};

/// The most instructions a matching program may have. Programs are linear in the template's
/// size (prefix loops are one instruction whatever their length), so only templates far beyond
/// the default template length limit get here.
pub(crate) const MAX_INSTRUCTIONS: usize = 1 << 20;

/// A set of raw ASCII bytes a value may contain. Encoded units (triplets and raw non-ASCII
/// bytes) are allowed in every value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Inst {
    /// Consume a unit equal to this one.
    Unit(pct::Unit),
    /// Consume one unit of the class.
    Class(Class),
    /// Consume a unit of the class and stay here, or (preferred) continue at `exit`.
    Loop {
        class: Class,
        exit: u32,
    },
    /// As `Loop`, admitting at most `max` characters since the last [`Inst::ResetCount`].
    Counted {
        class: Class,
        max: u16,
        exit: u32,
    },
    /// Start counting characters at zero.
    ResetCount,
    /// Continue at both, preferring the first.
    Split(u32, u32),
    Jump(u32),
    /// Record the current position in a slot.
    Save(u32),
    /// Fail unless the current position is a character boundary.
    Boundary,
    Match,
}

/// A template's query tail: the trailing `{?..}`/`{&..}` expressions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Tail {
    /// Index of the tail's first variable among the template's variables.
    pub(crate) first_var: usize,
    /// Whether the tail has a `{?..}` expression, whose expansion starts with `?`.
    pub(crate) query: bool,
    /// Whether the tail has a `{&..}` expression, whose expansion starts with `&`.
    pub(crate) continuation: bool,
}

impl Tail {
    /// Whether the tail's text can start with byte `b`: `?` or `&`, for the expressions it has.
    pub(crate) fn can_start_with(&self, b: u8) -> bool {
        match b {
            b'?' => self.query,
            b'&' => self.continuation,
            _ => false,
        }
    }
}

/// A compiled matching program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Program {
    pub(crate) insts: Vec<Inst>,
    /// Number of variable specs in the template; each has slots `2i` (start) and `2i + 1` (end).
    pub(crate) vars: usize,
    pub(crate) tail: Option<Tail>,
}

impl Program {
    pub(crate) fn compile(t: &UriTemplate) -> Result<Self, super::MatchError> {
        let nodes = t.nodes();
        let tail_at = tail_start(nodes);
        let mut c = Compiler {
            t,
            insts: Vec::new(),
            var: 0,
        };
        let mut i = 0;
        while i < tail_at {
            match nodes[i] {
                Node::Literal { start, end } => c.literal(t.span(start, end)),
                Node::Expression { op, vars, .. } => {
                    let specs: Vec<VarNode> = nodes[i + 1..=i + usize::from(vars)]
                        .iter()
                        .map(var_node)
                        .collect();
                    c.expression(op, &specs);
                    i += usize::from(vars);
                }
                Node::Var(_) => unreachable!("variables follow their expression"),
            }
            i += 1;
        }
        let head_vars = c.var;
        c.insts.push(Inst::Match);
        if c.insts.len() > MAX_INSTRUCTIONS {
            return Err(super::MatchError::Unsupported {
                reason: "the template compiles to more than 2^20 matching instructions",
            });
        }
        let tail_has = |op| {
            nodes[tail_at..]
                .iter()
                .any(|n| matches!(n, Node::Expression { op: o, .. } if *o == op))
        };
        let tail = (tail_at < nodes.len()).then(|| Tail {
            first_var: head_vars as usize,
            query: tail_has(Operator::Query),
            continuation: tail_has(Operator::QueryContinuation),
        });
        Ok(Self {
            insts: c.insts,
            vars: t.variables().count(),
            tail,
        })
    }
}

pub(crate) fn var_node(n: &Node) -> VarNode {
    match n {
        Node::Var(v) => *v,
        _ => unreachable!("an expression's nodes are variables"),
    }
}

/// Index of the first node of the trailing run of query expressions (`nodes.len()` if none).
pub(crate) fn tail_start(nodes: &[Node]) -> usize {
    let mut start = nodes.len();
    let mut i = 0;
    while i < nodes.len() {
        match nodes[i] {
            Node::Expression { op, vars, .. } if op.is_query() => {
                if start == nodes.len() {
                    start = i;
                }
                i += 1 + usize::from(vars);
            }
            Node::Expression { vars, .. } => {
                start = nodes.len();
                i += 1 + usize::from(vars);
            }
            _ => {
                start = nodes.len();
                i += 1;
            }
        }
    }
    start
}

struct Compiler<'t> {
    t: &'t UriTemplate,
    insts: Vec<Inst>,
    /// Index of the next variable spec.
    var: u32,
}

impl Compiler<'_> {
    fn pc(&self) -> u32 {
        self.insts.len() as u32
    }

    fn push(&mut self, inst: Inst) -> u32 {
        self.insts.push(inst);
        self.pc() - 1
    }

    fn literal(&mut self, text: &str) {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let (unit, len) = pct::unit_at(bytes, i);
            self.push(Inst::Unit(unit));
            i += len;
        }
    }

    fn raw(&mut self, byte: u8) {
        self.push(Inst::Unit(pct::Unit {
            byte,
            encoded: false,
        }));
    }

    /// `{op v0,v1,..}`: for each variable, in order, a choice between defining it (preferred)
    /// and skipping it; the first defined one follows the operator's prefix, later ones its
    /// separator. Two chains of states track whether anything has been defined yet.
    fn expression(&mut self, op: Operator, vars: &[VarNode]) {
        let first_var = self.var;
        // Jumps to patch: (instruction, chain, variable index it leads to).
        let mut pending: Vec<(u32, bool, usize)> = Vec::new();
        let mut entry_none = vec![0u32; vars.len() + 1];
        let mut entry_some = vec![0u32; vars.len() + 1];
        for (i, var) in vars.iter().enumerate() {
            for defined_before in [false, true] {
                if defined_before && i == 0 {
                    continue;
                }
                let split = self.push(Inst::Split(0, 0));
                if defined_before {
                    entry_some[i] = split;
                } else {
                    entry_none[i] = split;
                }
                let define = self.pc();
                if defined_before {
                    self.raw(op.separator());
                } else {
                    for &b in op.prefix().as_bytes() {
                        self.raw(b);
                    }
                }
                self.var = first_var + i as u32;
                self.variable(op, var);
                let jump = self.push(Inst::Jump(0));
                pending.push((jump, true, i + 1));
                self.insts[split as usize] = Inst::Split(define, 0);
                pending.push((split, defined_before, i + 1));
            }
        }
        let end = self.pc();
        entry_none[vars.len()] = end;
        entry_some[vars.len()] = end;
        for (at, some, next) in pending {
            let target = if some {
                entry_some[next]
            } else {
                entry_none[next]
            };
            match &mut self.insts[at as usize] {
                Inst::Jump(t) => *t = target,
                Inst::Split(_, skip) => *skip = target,
                _ => unreachable!("only jumps and splits are patched"),
            }
        }
        self.var = first_var + vars.len() as u32;
    }

    /// One defined variable, after its prefix or separator.
    fn variable(&mut self, op: Operator, var: &VarNode) {
        let slot = 2 * self.var;
        if op.is_named() && !var.explode {
            self.literal(self.t.span(var.name_start, var.name_end));
            if op == Operator::PathParam {
                // `;name` stands for an empty value, `;name=value` for any other.
                let split = self.push(Inst::Split(0, 0));
                let with_value = self.pc();
                self.raw(b'=');
                self.value(op, var, slot, true);
                let jump = self.push(Inst::Jump(0));
                let empty = self.pc();
                self.push(Inst::Save(slot));
                self.push(Inst::Save(slot + 1));
                let end = self.pc();
                self.insts[split as usize] = Inst::Split(with_value, empty);
                self.insts[jump as usize] = Inst::Jump(end);
                return;
            }
            self.raw(b'=');
        }
        self.value(op, var, slot, false);
    }

    /// A variable's value, captured in `slot`; `non_empty` when it holds at least one unit.
    fn value(&mut self, op: Operator, var: &VarNode, slot: u32, non_empty: bool) {
        let class = Class::variable(op, var);
        self.push(Inst::Save(slot));
        if non_empty {
            self.push(Inst::Class(class));
        }
        let here = self.pc();
        if var.prefix != 0 {
            self.push(Inst::ResetCount);
            self.push(Inst::Counted {
                class,
                // The unit taken above starts the first character.
                max: var.prefix - u16::from(non_empty),
                exit: here + 2,
            });
        } else if var.explode && !op.allows_reserved() {
            self.exploded(op);
        } else {
            self.push(Inst::Loop {
                class,
                exit: here + 1,
            });
        }
        self.push(Inst::Boundary);
        self.push(Inst::Save(slot + 1));
    }

    /// The items of an exploded variable, exactly as expansion writes them, so that the text
    /// captured reads back as a list or map that expands to it again:
    ///
    /// * named (`{;v*}`, and `{?v*}`/`{&v*}` before the query tail): `sep`-separated items
    ///   `k=v`, where for `;` an empty value is written as the bare key `k` and a written value
    ///   is never empty;
    /// * otherwise a list, values and separators; or a map, `sep`-separated `k=v` entries.
    ///
    /// Keys and values are single values of the operator (with reserved expansion, which this
    /// is not used for, they could hold `=` and the separator themselves).
    fn exploded(&mut self, op: Operator) {
        let value = Class::value(op);
        let sep = op.separator();
        // A loop over `class`, preferring to leave it.
        let repeat = |c: &mut Self, class: Class| {
            let here = c.pc();
            c.push(Inst::Loop {
                class,
                exit: here + 1,
            });
        };
        let mut list_end = None;
        let item = if op.is_named() {
            let item = self.pc();
            repeat(self, value);
            if op == Operator::PathParam {
                let split = self.push(Inst::Split(0, 0));
                let with_value = self.pc();
                self.raw(b'=');
                self.push(Inst::Class(value));
                repeat(self, value);
                self.insts[split as usize] = Inst::Split(self.pc(), with_value);
            } else {
                self.raw(b'=');
                repeat(self, value);
            }
            item
        } else {
            let split = self.push(Inst::Split(0, 0));
            let list = self.pc();
            repeat(self, value.with(sep));
            let to_end = self.push(Inst::Jump(0));
            let entry = self.pc();
            repeat(self, value);
            self.raw(b'=');
            repeat(self, value);
            self.insts[split as usize] = Inst::Split(list, entry);
            list_end = Some(to_end);
            entry
        };
        // More items: preferably none.
        let split = self.push(Inst::Split(0, 0));
        let next = self.pc();
        self.raw(sep);
        self.push(Inst::Jump(item));
        let end = self.pc();
        self.insts[split as usize] = Inst::Split(end, next);
        if let Some(jump) = list_end {
            self.insts[jump as usize] = Inst::Jump(end);
        }
    }
}
