//! Compiling templates into a matching program: an NFA over URI units.
//!
//! The compiler walks a [`Trie`] of template tokens (see [`super::trie`]): one template is a
//! single chain, a router's templates share their common prefixes, so that a lookup follows one
//! path through the trie instead of one per template. Literal edges out of a trie node become a
//! single [`Inst::Dispatch`] on the next unit.
//!
//! Each expression becomes the NFA of "any subset of its variables, in order, the first behind
//! the operator's prefix and the others behind its separator". A variable's value is a single
//! self-looping instruction over the bytes its operator lets through ([`Class`]); with a prefix
//! modifier, a counting loop that admits at most that many characters.
//!
//! Every consuming instruction carries the [`Rank`] of what it consumes (a literal, a variable
//! that cannot cross `/`, or one that can). The VM prefers the path whose ranks are higher at the
//! first difference along the URI, then, among equal ranks, the order in which instructions are
//! laid out here: a variable is preferably defined, and its value as short as possible, earlier
//! variables first.
//!
//! A trailing run of query expressions (`{?..}{&..}`) compiles to a [`Inst::QueryStart`]
//! assertion and a loop over the rest of the URI; [`super::query`] then binds its pairs.

use std::sync::OnceLock;

use super::Policy;
use super::closure::MAX_SLOTS;
use super::dfa::Dfa;
use super::inst::{FirstSet, Inst, Nfa, Rank, first_sets};
use super::trailer::{TRAILS, Trailer};
use super::trie::{Token, Trie, VarToken, tokens};
use super::walk::Walker;
use crate::matching::Unsupported;
use crate::pct;
use crate::template::class::{Class, Reading};
use crate::template::{Operator, Parsed, VarNode};

/// The most instructions a matching program may have. Programs grow linearly with their
/// templates (a prefix loop is one instruction whatever its length), so only template sets far
/// beyond the default limits get here.
pub(super) const MAX_INSTRUCTIONS: usize = 1 << 24;

/// The most work one URI unit may cost a single template's match: program length times slot
/// width (see [`Program::compile`]).
pub(super) const MAX_WORK_PER_UNIT: usize = 1 << 16;

/// A compiled matching program for one template or many.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Program {
    pub(super) insts: Vec<Inst>,
    /// Literal edge tables of [`Inst::Dispatch`], sorted by unit.
    pub(super) dispatch: Vec<Vec<(pct::Unit, u32)>>,
    /// Slots each thread carries: two for each variable before a template's query tail, and
    /// one for where the tail starts; enough for the template that saves the most.
    pub(super) slots: usize,
    /// For each instruction, what the first unit consumed from there can be.
    pub(super) first: Vec<FirstSet>,
    /// For one delimited template, or a router's set of them, the radix walk that matches
    /// without the VM.
    pub(super) walker: Option<Walker>,
    /// The VM's table (see [`Dfa`]), built the first time the VM would run
    /// ([`Program::dfa`]): most programs the walk serves never need it. A router's program
    /// gets one where it fits (an MCP server's templates, with a `{name}.txt` among them, fit
    /// well within the limit); larger ones keep the VM.
    /// Boxed: a table's byte maps would double the size of every program, most of which
    /// never build one.
    dfa: OnceLock<Option<Box<Dfa>>>,
    /// For one template of literal text and one expression, its reading where plain to see.
    pub(super) trailer: Option<Trailer>,
}

impl Program {
    /// Compiles one template; its key is 0.
    ///
    /// A step of the VM may copy every live thread's slots, so its cost is bounded by the
    /// program's length times its slot width. Templates for which that product exceeds
    /// [`MAX_WORK_PER_UNIT`] (some 50 to 60 variables outside the query tail, fewer with long
    /// names) are refused rather than matched slowly.
    pub(super) fn compile(t: &Parsed, policy: Policy) -> Result<Self, Unsupported> {
        let mut program = Self::automaton(&[t], policy)?;
        program.check_work()?;
        program.walker = Walker::build(
            &[tokens(t)],
            !policy.require_path_vars,
            policy.strict_encoding,
        );
        if let Some(walker) = &mut program.walker {
            walker.bind_tails(&[t]);
        }
        if TRAILS && program.walker.is_none() {
            program.trailer = Trailer::of(t, policy);
        }
        Ok(program)
    }

    /// What compiling `t` alone would refuse, without building what a match needs beside
    /// the automaton (its walk).
    pub(super) fn check(t: &Parsed, policy: Policy) -> Result<(), Unsupported> {
        Self::automaton(&[t], policy)?.check_work()
    }

    /// Refuses a single template's program whose VM step could cost too much (see
    /// [`compile`](Self::compile)).
    fn check_work(&self) -> Result<(), Unsupported> {
        if self.insts.len() * self.slots > MAX_WORK_PER_UNIT {
            return Err(Unsupported::TooManyVariables);
        }
        Ok(())
    }

    /// Compiles templates into one program; template `i` matches with key `i`. The walk
    /// serves them only where path variables are required: with empty ones allowed,
    /// precedence among templates needs the automaton.
    pub(super) fn compile_many(templates: &[&Parsed], policy: Policy) -> Result<Self, Unsupported> {
        let mut program = Self::automaton(templates, policy)?;
        if policy.require_path_vars {
            let tokens: Vec<Vec<Token>> = templates.iter().map(|t| tokens(t)).collect();
            program.walker = Walker::build(&tokens, false, policy.strict_encoding);
            if let Some(walker) = &mut program.walker {
                walker.bind_tails(templates);
            }
        }
        Ok(program)
    }

    /// The automaton of `templates`, without a walk.
    fn automaton(templates: &[&Parsed], policy: Policy) -> Result<Self, Unsupported> {
        let mut trie = Trie::default();
        for (key, t) in templates.iter().enumerate() {
            if let Some(why) = refusal(t) {
                return Err(why);
            }
            trie.insert(tokens(t), key as u32);
        }
        // Enough slots for the template that saves the most; each path's saved slots are a
        // bit each in the closure. A query tail saves one, where it starts: its variables are
        // bound by name after the automaton, however many there are.
        let slots = templates
            .iter()
            .map(|t| match t.tail_var() {
                Some(first) => 2 * first + 1,
                None => 2 * t.var_count(),
            })
            .max()
            .unwrap_or(0);
        if slots > MAX_SLOTS {
            return Err(Unsupported::TooManyVariables);
        }
        let mut c = Compiler {
            trie: &trie,
            policy,
            insts: Vec::new(),
            dispatch: Vec::new(),
        };
        c.node(0, 0);
        if c.insts.len() > MAX_INSTRUCTIONS {
            return Err(Unsupported::TooManyInstructions);
        }
        let first = first_sets(&c.insts, &c.dispatch);
        Ok(Self {
            insts: c.insts,
            dispatch: c.dispatch,
            slots,
            first,
            walker: None,
            trailer: None,
            dfa: OnceLock::new(),
        })
    }
}

impl Program {
    /// The program as the automata read it.
    pub(super) fn nfa(&self) -> Nfa<'_> {
        Nfa {
            insts: &self.insts,
            dispatch: &self.dispatch,
            first: &self.first,
            slots: self.slots,
        }
    }

    /// The VM's table, built on first use, if the program has one (see [`Dfa::build`]).
    pub(super) fn dfa(&self) -> Option<&Dfa> {
        self.dfa
            .get_or_init(|| Dfa::build(&self.nfa()).map(Box::new))
            .as_deref()
    }
}

/// Why a template cannot be matched correctly in linear time, if it cannot: the first of its
/// lints whose rule refuses it (the template's `rules`, which the lints report too).
fn refusal(t: &Parsed) -> Option<Unsupported> {
    let lint = t.refusal()?;
    Some(Unsupported::Shape {
        kind: lint.kind(),
        position: lint.position(),
    })
}

/// The items of an exploded variable, as expansion writes them.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Item {
    /// A list value.
    Value,
    /// A map entry, `key=value`.
    Entry,
    /// A named item (`;`, `?`, `&`): `key=value`, where `;` drops the `=` of an empty value;
    /// the value of the class given.
    Named(Class),
}

/// The NFA of an exploded variable whose values cannot hold `=` or the separator raw, written
/// the way expansion writes it so that only real expansions match: a list or a map for
/// unnamed operators (never a mix), named items for named ones.
impl Compiler<'_> {
    fn exploded(&mut self, op: Operator, slot: u32, rank: Rank, required: bool, reading: Reading) {
        let class = Class::value(op, true, reading);
        self.push(Inst::Save(slot));
        let mut ends = Vec::new();
        if op.is_named() {
            let value = Class::entry_value(op, reading);
            self.items(op, class, rank, Item::Named(value), &mut ends);
        } else {
            let split = self.push(Inst::Split(0, 0));
            let list = self.pc();
            if required {
                self.push(Inst::Step { class, rank });
            }
            self.items(op, class, rank, Item::Value, &mut ends);
            let map = self.pc();
            self.items(op, class, rank, Item::Entry, &mut ends);
            self.insts[split as usize] = Inst::Split(list, map);
        }
        let end = self.pc();
        for jump in ends {
            self.insts[jump as usize] = Inst::Jump(end);
        }
        self.push(Inst::Boundary(slot));
        self.push(Inst::Save(slot + 1));
    }

    /// Items of one kind behind the separator; the jumps that end the variable go to `ends`.
    fn items(&mut self, op: Operator, class: Class, rank: Rank, kind: Item, ends: &mut Vec<u32>) {
        let item = self.pc();
        self.repeat(class, rank);
        match kind {
            Item::Value => {}
            Item::Entry => {
                self.raw(b'=', rank);
                self.repeat(class, rank);
            }
            Item::Named(value) => {
                let optional = !op.is_query();
                let split = optional.then(|| self.push(Inst::Split(0, 0)));
                let eq = self.pc();
                self.raw(b'=', rank);
                if op == Operator::PathParam {
                    self.push(Inst::Step { class: value, rank });
                }
                self.repeat(value, rank);
                if let Some(split) = split {
                    self.insts[split as usize] = Inst::Split(eq, self.pc());
                }
            }
        }
        // Prefer ending the variable to starting another item.
        let split = self.push(Inst::Split(0, 0));
        ends.push(self.push(Inst::Jump(0)));
        let sep = self.pc();
        self.raw(op.separator(), rank);
        self.push(Inst::Jump(item));
        self.insts[split as usize] = Inst::Split(split + 1, sep);
    }

    /// Any number of units of the class, as few as possible.
    fn repeat(&mut self, class: Class, rank: Rank) {
        let here = self.pc();
        self.push(Inst::Loop {
            class,
            rank,
            exit: here + 1,
        });
    }
}

/// One way out of a trie node.
enum Alt<'t> {
    Match(u32),
    /// The literal children, each with the units that lead to it: one, or both cases of a
    /// letter that compares without case.
    Literals(Vec<(Units, usize)>),
    Child(&'t Token, usize),
}

/// The units a literal token takes.
#[derive(Clone, Copy)]
struct Units {
    units: [pct::Unit; 2],
    len: usize,
}

impl Units {
    fn of(token: &Token) -> Option<Self> {
        let raw = |byte| pct::Unit {
            byte,
            encoded: false,
        };
        match *token {
            Token::Unit(unit) => Some(Self {
                units: [unit, unit],
                len: 1,
            }),
            Token::Caseless(lower) => Some(Self {
                units: [raw(lower), raw(lower.to_ascii_uppercase())],
                len: 2,
            }),
            _ => None,
        }
    }

    fn iter(self) -> impl Iterator<Item = pct::Unit> {
        self.units.into_iter().take(self.len)
    }
}

struct Compiler<'t> {
    trie: &'t Trie,
    policy: Policy,
    insts: Vec<Inst>,
    dispatch: Vec<Vec<(pct::Unit, u32)>>,
}

impl<'t> Compiler<'t> {
    fn pc(&self) -> u32 {
        self.insts.len() as u32
    }

    fn push(&mut self, inst: Inst) -> u32 {
        self.insts.push(inst);
        self.pc() - 1
    }

    /// Emits a trie node and what follows it; `var` is the number of variables on the path to
    /// it. Each node's last alternative goes on in the loop rather than in a call, so that a
    /// long literal (a chain of nodes of one child each) takes no stack: only a branch
    /// recurses, so the depth is the trie's branching, not the template's length.
    fn node(&mut self, mut node: usize, mut var: u32) {
        loop {
            let alts = self.alts(node);
            let last = alts.len().saturating_sub(1);
            let mut next = None;
            for (i, alt) in alts.into_iter().enumerate() {
                if i < last {
                    let split = self.push(Inst::Split(0, 0));
                    let start = self.pc();
                    self.alt(alt, var);
                    self.insts[split as usize] = Inst::Split(start, self.pc());
                } else {
                    next = self.alt_head(alt, var);
                }
            }
            match next {
                Some((child, vars)) => (node, var) = (child, vars),
                None => return,
            }
        }
    }

    /// A node's alternatives, in order of precedence: the templates that end here, its literal
    /// edges (one table), then its expressions and query tails.
    fn alts(&self, node: usize) -> Vec<Alt<'t>> {
        let trie = self.trie;
        let n = &trie.nodes[node];
        let mut alts: Vec<Alt<'t>> = n.ends.iter().map(|&k| Alt::Match(k)).collect();
        let literals: Vec<(Units, usize)> = n
            .children
            .iter()
            .filter_map(|(t, child)| Some((Units::of(t)?, *child)))
            .collect();
        if !literals.is_empty() {
            alts.push(Alt::Literals(literals));
        }
        alts.extend(
            n.children
                .iter()
                .filter(|(t, _)| Units::of(t).is_none())
                .map(|(t, child)| Alt::Child(t, *child)),
        );
        alts
    }

    /// Emits an alternative and the node it leads to.
    fn alt(&mut self, alt: Alt<'t>, var: u32) {
        if let Some((child, vars)) = self.alt_head(alt, var) {
            self.node(child, vars);
        }
    }

    /// Emits an alternative's own instructions; answers the node it goes on with, and the
    /// number of variables before it, when it leads to one.
    fn alt_head(&mut self, alt: Alt<'t>, var: u32) -> Option<(usize, u32)> {
        match alt {
            Alt::Match(key) => {
                self.push(Inst::Match(key));
                None
            }
            Alt::Literals(edges) if edges.len() == 1 && edges[0].0.len == 1 => {
                let (units, child) = edges[0];
                self.push(Inst::Unit {
                    unit: units.units[0],
                    rank: Rank::Literal,
                });
                Some((child, var))
            }
            // One child behind the two units of a letter without case: a table of both leads
            // on to the child, which follows, so that a long scheme or host is compiled in a
            // loop, not a recursion a letter deep.
            Alt::Literals(edges) if edges.len() == 1 => {
                let (
                    Units {
                        units: [lower, upper],
                        ..
                    },
                    child,
                ) = edges[0];
                debug_assert!(
                    upper.byte < lower.byte,
                    "a letter's units, as the table sorts them"
                );
                self.push(Inst::Dispatch(self.dispatch.len() as u32));
                let next = self.pc();
                self.dispatch.push(vec![(upper, next), (lower, next)]);
                Some((child, var))
            }
            Alt::Literals(edges) => {
                self.dispatch(&edges, var);
                None
            }
            Alt::Child(Token::Expression { op, vars }, child) => {
                self.expression(*op, vars, var);
                Some((child, var + vars.len() as u32))
            }
            Alt::Child(Token::Tail(start), child) => {
                self.push(Inst::Save(2 * var));
                self.push(Inst::QueryStart(*start));
                let here = self.pc();
                self.push(Inst::Loop {
                    class: Class::query(),
                    rank: Rank::Segment,
                    exit: here + 1,
                });
                Some((child, var))
            }
            Alt::Child(Token::Unit(_) | Token::Caseless(_), _) => {
                unreachable!("literal edges are dispatched")
            }
        }
    }

    /// A literal edge table: each child once, reached by each of its units. Where one unit
    /// leads to several children (a letter that compares without case in one template and
    /// with it in another: `Users:x` and `users/x`), it leads to a split among them.
    fn dispatch(&mut self, edges: &[(Units, usize)], var: u32) {
        let table = self.dispatch.len();
        self.dispatch.push(Vec::new());
        self.push(Inst::Dispatch(table as u32));
        let mut targets: Vec<(pct::Unit, u32)> = Vec::new();
        for &(units, child) in edges {
            let start = self.pc();
            targets.extend(units.iter().map(|unit| (unit, start)));
            self.node(child, var);
        }
        // Stable: children that share a unit keep their order, which is their precedence.
        crate::sort::sort_by_key(&mut targets, |&(u, _)| (u.byte, u.encoded));
        let mut at = 0;
        while at < targets.len() {
            let unit = targets[at].0;
            let same = targets[at..].iter().take_while(|t| t.0 == unit).count();
            let target = match same {
                1 => targets[at].1,
                _ => self.splits(targets[at..at + same].iter().map(|t| t.1)),
            };
            self.dispatch[table].push((unit, target));
            at += same;
        }
    }

    /// A chain of splits that tries each of `starts` in order; returns where it begins.
    fn splits(&mut self, starts: impl Iterator<Item = u32>) -> u32 {
        let starts: Vec<u32> = starts.collect();
        let begin = self.pc();
        let last = starts.len() - 1;
        for (i, &start) in starts[..last].iter().enumerate() {
            // The next split, or after the last one the last child.
            let rest = if i + 1 == last {
                starts[last]
            } else {
                self.pc() + 1
            };
            self.push(Inst::Split(start, rest));
        }
        begin
    }

    fn raw(&mut self, byte: u8, rank: Rank) {
        self.push(Inst::Unit {
            unit: pct::Unit {
                byte,
                encoded: false,
            },
            rank,
        });
    }

    fn literal(&mut self, text: &str, rank: Rank) {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let (unit, len) = pct::unit_at(bytes, i);
            self.push(Inst::Unit { unit, rank });
            i += len;
        }
    }

    /// `{op v0,v1,..}`: for each variable, in order, a choice between defining it (preferred)
    /// and skipping it; the first defined one follows the operator's prefix, later ones its
    /// separator. Two chains of states track whether anything has been defined yet. Under
    /// [`Policy::require_path_vars`], variables outside query expressions cannot be skipped.
    fn expression(&mut self, op: Operator, vars: &[VarToken], first_var: u32) {
        let required = self.policy.require_path_vars && !op.is_query();
        // Jumps and splits to patch: (instruction, chain, index of the variable they lead to).
        let mut pending: Vec<(u32, bool, usize)> = Vec::new();
        let mut entry_none = vec![0u32; vars.len() + 1];
        let mut entry_some = vec![0u32; vars.len() + 1];
        for (i, var) in vars.iter().enumerate() {
            let rank = Rank::of(op, &var.node);
            for defined_before in [false, true] {
                if defined_before && i == 0 || required && defined_before != (i > 0) {
                    continue;
                }
                let split = (!required).then(|| self.push(Inst::Split(0, 0)));
                let entry = split.unwrap_or(self.pc());
                if defined_before {
                    entry_some[i] = entry;
                    self.raw(op.separator(), rank);
                } else {
                    entry_none[i] = entry;
                    self.literal(op.prefix(), rank);
                }
                let reading = Reading {
                    strict: self.policy.strict_encoding,
                    in_query: var.in_query,
                };
                self.variable(op, var, first_var + i as u32, rank, required, reading);
                let jump = self.push(Inst::Jump(0));
                pending.push((jump, true, i + 1));
                if let Some(split) = split {
                    self.insts[split as usize] = Inst::Split(split + 1, 0);
                    pending.push((split, defined_before, i + 1));
                }
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
    }

    /// One defined variable, after its prefix or separator.
    fn variable(
        &mut self,
        op: Operator,
        var: &VarToken,
        index: u32,
        rank: Rank,
        required: bool,
        reading: Reading,
    ) {
        let slot = 2 * index;
        if op.is_named() && !var.node.explode {
            self.literal(&var.name, rank);
            if op == Operator::PathParam && !required {
                // `;name` stands for an empty value, `;name=value` for any other.
                let split = self.push(Inst::Split(0, 0));
                let with_value = self.pc();
                self.raw(b'=', rank);
                self.value(op, &var.node, slot, rank, true, reading);
                let jump = self.push(Inst::Jump(0));
                let empty = self.pc();
                self.push(Inst::Save(slot));
                self.push(Inst::Save(slot + 1));
                let end = self.pc();
                self.insts[split as usize] = Inst::Split(with_value, empty);
                self.insts[jump as usize] = Inst::Jump(end);
                return;
            }
            self.raw(b'=', rank);
        }
        self.value(op, &var.node, slot, rank, required, reading);
    }

    fn value(
        &mut self,
        op: Operator,
        var: &VarNode,
        slot: u32,
        rank: Rank,
        required: bool,
        reading: Reading,
    ) {
        if var.explode && !op.allows_reserved() {
            return self.exploded(op, slot, rank, required, reading);
        }
        let class = Class::variable(op, var, reading);
        self.push(Inst::Save(slot));
        if var.prefix != 0 {
            self.push(Inst::ResetCount);
        }
        if required {
            self.push(Inst::Step { class, rank });
        }
        let here = self.pc();
        if var.prefix != 0 {
            self.push(Inst::Counted {
                class,
                rank,
                max: var.prefix,
                exit: here + 1,
            });
        } else {
            self.push(Inst::Loop {
                class,
                rank,
                exit: here + 1,
            });
        }
        self.push(Inst::Boundary(slot));
        self.push(Inst::Save(slot + 1));
    }
}
