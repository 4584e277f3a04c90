//! The rules of templates that cannot be matched back, or not unambiguously: each written once
//! here (those of repeated names in `repeated`), as a function that finds where a template
//! breaks it and says so in a sentence. Every
//! finding is a [`Lint`]; matching refuses a template at its first finding whose kind
//! [refuses](LintKind::refuses) it. `UriTemplate::lints`, `rfc6570 check` and the refusal of
//! a compile read the same findings, and so always agree.
//!
//! What a variable *can hold* is what its expansion can write there: [`Class::variable`], read
//! strictly. Every variable holds percent-triplets, so a literal `%XX` or a non-ASCII literal
//! character (matched as its triplets) ends none.

use super::class::{Class, Reading};
use super::lint::{Lint, LintKind};
use super::node::{Node, Operator, VarNode, tail_start};
use super::parts::VarSpec;
use crate::pct;

/// Every finding of every rule, in template order: by position, and at one position in the
/// order of [`RULES`].
pub(super) fn lints(source: &str, nodes: &[Node], first: &[u32]) -> Vec<Lint> {
    let template = Template::new(source, nodes, first);
    let mut found = Vec::new();
    for rule in RULES {
        rule(&template, &mut found);
    }
    crate::sort::sort_by_key(&mut found, Lint::position);
    found
}

/// The first finding that refuses the template for matching, if any.
pub(super) fn refusal(source: &str, nodes: &[Node], first: &[u32]) -> Option<Lint> {
    lints(source, nodes, first)
        .into_iter()
        .find(|lint| lint.kind().refuses())
}

/// A rule's check: it adds each place where the template breaks the rule. (Not a
/// [`safety::Rule`](crate::safety::Rule), which judges a captured value.)
type Check = fn(&Template<'_>, &mut Vec<Lint>);

/// Every rule, the warnings first.
const RULES: [Check; 12] = [
    adjacent_variables,
    several_crossing,
    repeated::repeated_name,
    name_not_utf8,
    repeated::repeated_ambiguous,
    query_after_fragment,
    query_before_tail,
    query_after_query,
    ambiguous_query_start,
    several_exploded_in_query,
    exploded_before_variable,
    variable_before_exploded,
];

/// A template's parts as the rules read them.
struct Template<'t> {
    source: &'t str,
    parts: Vec<Part<'t>>,
    /// The index of the first part of the query tail (the trailing run of `{?..}` and
    /// `{&..}` expressions), `parts.len()` if there is none.
    tail: usize,
    /// Whether a fragment starts before the tail (a literal `#` or a `{#..}` expression).
    fragment_before_tail: bool,
}

enum Part<'t> {
    Literal {
        text: &'t str,
        start: usize,
    },
    Expression {
        op: Operator,
        /// Its text, `{` to `}`.
        text: &'t str,
        start: usize,
        vars: Vec<Var>,
    },
}

/// A variable of the template, with its expression's operator.
#[derive(Clone, Copy)]
struct Var {
    op: Operator,
    node: VarNode,
    /// Its index among the template's variables.
    index: u32,
    /// The index of the first variable with its name: its own, unless the name is repeated.
    first: u32,
}

impl<'t> Template<'t> {
    fn new(source: &'t str, nodes: &[Node], first: &[u32]) -> Self {
        let tail_node = tail_start(nodes);
        let mut index = 0;
        let mut parts = Vec::new();
        let mut tail = None;
        let mut i = 0;
        while i < nodes.len() {
            if i >= tail_node && tail.is_none() {
                tail = Some(parts.len());
            }
            match nodes[i] {
                Node::Literal { start, end } => parts.push(Part::Literal {
                    text: &source[start as usize..end as usize],
                    start: start as usize,
                }),
                Node::Expression {
                    op,
                    vars,
                    start,
                    end,
                } => {
                    let vars = nodes[i + 1..=i + usize::from(vars)]
                        .iter()
                        .map(|n| match *n {
                            Node::Var(node) => {
                                let var = Var {
                                    op,
                                    node,
                                    index: index as u32,
                                    first: first.get(index).copied().unwrap_or(index as u32),
                                };
                                index += 1;
                                var
                            }
                            _ => unreachable!("an expression's nodes are variables"),
                        })
                        .collect::<Vec<_>>();
                    i += vars.len();
                    parts.push(Part::Expression {
                        op,
                        text: &source[start as usize..end as usize],
                        start: start as usize,
                        vars,
                    });
                }
                Node::Var(_) => unreachable!("variables follow their expression"),
            }
            i += 1;
        }
        let tail = tail.unwrap_or(parts.len());
        let fragment_before_tail = parts[..tail].iter().any(Part::starts_fragment);
        Self {
            source,
            parts,
            tail,
            fragment_before_tail,
        }
    }

    fn spec(&self, v: Var) -> VarSpec<'t> {
        VarSpec {
            source: self.source,
            node: v.node,
        }
    }

    fn head(&self) -> &[Part<'t>] {
        &self.parts[..self.tail]
    }

    fn tail(&self) -> &[Part<'t>] {
        &self.parts[self.tail..]
    }
}

impl Part<'_> {
    /// Whether the part writes the `#` that starts a URI's fragment.
    fn starts_fragment(&self) -> bool {
        match self {
            Part::Literal { text, .. } => text.contains('#'),
            Part::Expression { op, .. } => *op == Operator::Fragment,
        }
    }
}

impl Var {
    fn position(self) -> usize {
        self.node.name_start as usize
    }

    /// The ASCII bytes its expansion can write raw.
    fn class(self) -> Class {
        let strictly = Reading {
            strict: true,
            in_query: false,
        };
        Class::variable(self.op, &self.node, strictly)
    }

    /// Whether its value can hold the URI byte `c`.
    fn holds(self, c: u8) -> bool {
        c == b'%' || !c.is_ascii() || self.class().allows_raw(c)
    }

    /// Whether its value can hold the URI byte `c` in any reading: as expansion writes it,
    /// or as clients send it, with raw sub-delimiters.
    fn holds_leniently(self, c: u8) -> bool {
        self.holds(c) || Class::variable_in_any_reading(self.op, &self.node).allows_raw(c)
    }

    /// Whether one item of its value (a list's item, a map's key or value) can hold the URI
    /// byte `c` in any reading.
    fn item_holds(self, c: u8) -> bool {
        Class::value(self.op, self.node.explode, Reading::default()).allows_raw(c)
    }

    /// Whether an earlier variable has its name.
    fn is_repeat(self) -> bool {
        self.first != self.index
    }

    fn crosses(self) -> bool {
        self.op.crosses(self.node.explode)
    }

    /// Whether it can capture a map: exploded, of an operator that writes `key=value` items
    /// its values cannot hold.
    fn map_capable(self) -> bool {
        self.node.explode && !self.op.allows_reserved()
    }
}

fn push(found: &mut Vec<Lint>, kind: LintKind, position: usize, message: String) {
    found.push(Lint::new(kind, position, message));
}

/// [`LintKind::AdjacentVariables`] and [`LintKind::PrefixNextToVariable`]: a variable after
/// another with nothing between them that ends the first.
fn adjacent_variables(t: &Template<'_>, found: &mut Vec<Lint>) {
    // The last variable of the expression just before, when no literal came since.
    let mut previous: Option<Var> = None;
    let mut fragment = false;
    for part in &t.parts {
        let Part::Expression { op, text, vars, .. } = part else {
            fragment |= part.starts_fragment();
            previous = None;
            continue;
        };
        // A query expression after the fragment has a lint of its own.
        let after_fragment = op.is_query() && fragment;
        fragment |= part.starts_fragment();
        let mut last: Option<Var> = None;
        for &v in vars {
            let before = match last {
                None => previous.filter(|_| !after_fragment).and_then(|u| {
                    match op.prefix().as_bytes().first() {
                        None => Some((u, Between::Nothing)),
                        Some(&c) => u
                            .holds(c)
                            .then_some((u, Between::Prefix(char::from(c), text))),
                    }
                }),
                // `,` and the names of named operators separate the variables of one
                // expression; `.` and `/` may not.
                Some(u) => {
                    let sep = op.separator();
                    (matches!(op, Operator::Label | Operator::Path) && u.holds(sep))
                        .then_some((u, Between::Separator(char::from(sep), text)))
                }
            };
            if let Some((u, between)) = before {
                let (kind, message) = adjacent(t, u, v, &between);
                push(found, kind, v.position(), message);
            }
            last = Some(v);
        }
        previous = last;
    }
}

/// What lies between two adjacent variables.
enum Between<'t> {
    Nothing,
    /// The prefix character that the second variable's expression (its text) writes.
    Prefix(char, &'t str),
    /// The separator of the expression (its text) that holds both.
    Separator(char, &'t str),
}

/// The kind and sentence for `v` adjacent to `u` before it.
fn adjacent(t: &Template<'_>, u: Var, v: Var, between: &Between<'_>) -> (LintKind, String) {
    let (su, sv) = (t.spec(u), t.spec(v));
    let prefixed = su.prefix().is_some() || sv.prefix().is_some();
    let label = |s: VarSpec<'_>| match s.prefix() {
        Some(_) => format!("the prefix variable `{s}`"),
        None => format!("`{s}`"),
    };
    let name = su.name();
    let (between, fix) = match between {
        Between::Nothing => (
            "with no literal between them".to_owned(),
            "put a literal between them",
        ),
        Between::Prefix(c, text) => (
            format!(
                "with only the `{c}` that `{text}` writes between them, which `{name}` can hold \
                 too"
            ),
            "put a literal between them",
        ),
        Between::Separator(c, text) => (
            format!(
                "in `{text}` with only its separator `{c}` between them, which `{name}` can \
                 hold too"
            ),
            "split them into two expressions with a literal between them",
        ),
    };
    let (kind, or) = if prefixed {
        (
            LintKind::PrefixNextToVariable,
            ", or drop the prefix modifier",
        )
    } else {
        (LintKind::AdjacentVariables, "")
    };
    let message = format!(
        "{} at byte {} follows {} {between}, so where one ends is ambiguous; {fix}{or}",
        label(sv),
        v.position(),
        label(su),
    );
    (kind, message)
}

/// [`LintKind::SeveralCrossing`]: a variable that can cross `/` after another one that
/// nothing has ended.
fn several_crossing(t: &Template<'_>, found: &mut Vec<Lint>) {
    // The variables that can cross `/` and that nothing has ended yet, in order.
    let mut crossing: Vec<Var> = Vec::new();
    for part in &t.parts {
        let vars = match part {
            Part::Literal { text, .. } => {
                crossing.retain(|u| text.bytes().all(|c| u.holds(c)));
                continue;
            }
            Part::Expression { op, vars, .. } => {
                if *op == Operator::Fragment {
                    crossing.retain(|u| u.holds(b'#'));
                }
                vars
            }
        };
        for &v in vars.iter().filter(|v| v.crosses()) {
            if let Some(&u) = crossing.first() {
                let message = format!(
                    "`{}` at byte {} can cross `/`, and so can `{}` at byte {} before it, with \
                     nothing between them that ends it, so where one ends is ambiguous; let only \
                     one of them cross `/` (`{{v}}` and `{{/v}}` cannot)",
                    t.spec(v),
                    v.position(),
                    t.spec(u),
                    u.position(),
                );
                push(found, LintKind::SeveralCrossing, v.position(), message);
            }
            crossing.push(v);
        }
    }
}

/// [`LintKind::NameNotUtf8`]: a name whose triplets do not decode to UTF-8, which an exploded
/// named variable writes into the URI.
fn name_not_utf8(t: &Template<'_>, found: &mut Vec<Lint>) {
    for v in t.parts.iter().flat_map(Part::vars) {
        let name = t.spec(v).name();
        if let Err(at) = pct::check_utf8(name.as_bytes()) {
            let message = format!(
                "the name `{name}` at byte {} holds percent-encoded bytes that are not UTF-8 \
                 (from byte {}), so the template cannot be matched; encode the name's \
                 characters as UTF-8",
                v.position(),
                v.position() + at,
            );
            push(found, LintKind::NameNotUtf8, v.position(), message);
        }
    }
}

/// [`LintKind::QueryAfterFragment`]: a query expression after the `#` that starts the
/// fragment, where a URI has no query.
fn query_after_fragment(t: &Template<'_>, found: &mut Vec<Lint>) {
    let mut fragment: Option<Fragment<'_>> = None;
    for part in &t.parts {
        match *part {
            Part::Expression {
                op, text, start, ..
            } if op.is_query() => {
                if let Some(fragment) = &fragment {
                    let message = format!(
                        "`{text}` at byte {start} follows the fragment that {fragment} starts, \
                         and in a URI everything after `#` is fragment, so the template cannot \
                         be matched; move it before the fragment"
                    );
                    push(found, LintKind::QueryAfterFragment, start, message);
                }
            }
            Part::Expression {
                op, text, start, ..
            } if op == Operator::Fragment && fragment.is_none() => {
                fragment = Some(Fragment::Expression(text, start));
            }
            Part::Literal { text, start } if fragment.is_none() => {
                if let Some(at) = text.find('#') {
                    fragment = Some(Fragment::Literal(start + at));
                }
            }
            _ => {}
        }
    }
}

/// Where the fragment starts.
enum Fragment<'t> {
    /// A literal `#`, at this byte.
    Literal(usize),
    /// A `{#..}` expression: its text and offset.
    Expression(&'t str, usize),
}

impl std::fmt::Display for Fragment<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Literal(at) => write!(f, "the `#` at byte {at}"),
            Self::Expression(text, at) => write!(f, "`{text}` at byte {at}"),
        }
    }
}

/// [`LintKind::QueryBeforeTail`]: a query expression in the head of a template that ends with
/// query expressions: its `?` would end the head's reading early.
fn query_before_tail(t: &Template<'_>, found: &mut Vec<Lint>) {
    if t.tail().is_empty() {
        return;
    }
    // A query expression after the fragment has a lint of its own.
    let mut fragment = false;
    for part in t.head() {
        let before_fragment = !fragment;
        fragment |= part.starts_fragment();
        if let Part::Expression {
            op, text, start, ..
        } = *part
        {
            if op.is_query() && before_fragment {
                let message = format!(
                    "`{text}` at byte {start} is a query expression with more of the template \
                     after it before the query expressions at the end, so the template cannot \
                     be matched; keep the query expressions together at the end"
                );
                push(found, LintKind::QueryBeforeTail, start, message);
            }
        }
    }
}

/// [`LintKind::QueryAfterQuery`]: a `{?..}` expression after another expression of the query
/// tail, which writes its `?` inside the query.
fn query_after_query(t: &Template<'_>, found: &mut Vec<Lint>) {
    if t.fragment_before_tail {
        return;
    }
    for part in t.tail().iter().skip(1) {
        if let Part::Expression {
            op: Operator::Query,
            text,
            start,
            ..
        } = *part
        {
            let message = format!(
                "`{text}` at byte {start} follows another query expression and writes a second \
                 `?` inside the query, so the template cannot be matched; write it as `{{&..}}`"
            );
            push(found, LintKind::QueryAfterQuery, start, message);
        }
    }
}

/// [`LintKind::AmbiguousQueryStart`]: a `{+v}` in the query (since the last `?` the template
/// writes) before a query tail with a `{&..}` expression: the `&` that starts the tail could
/// as well be part of the value.
fn ambiguous_query_start(t: &Template<'_>, found: &mut Vec<Lint>) {
    let ampersand = t.tail().iter().find_map(|part| match *part {
        Part::Expression {
            op: Operator::QueryContinuation,
            text,
            ..
        } => Some(text),
        _ => None,
    });
    let Some(continuation) = ampersand.filter(|_| !t.fragment_before_tail) else {
        return;
    };
    let mut in_query: Vec<(&str, usize)> = Vec::new();
    for part in t.head() {
        match *part {
            Part::Literal { text, .. } if text.contains('?') => in_query.clear(),
            Part::Expression {
                op: Operator::Reserved,
                text,
                start,
                ..
            } => in_query.push((text, start)),
            _ => {}
        }
    }
    for (text, start) in in_query {
        let message = format!(
            "`{text}` at byte {start} stands in the query before `{continuation}`, and could \
             hold the `&` that starts it, so the template cannot be matched; end the value with \
             a literal, or use `{{v}}`"
        );
        push(found, LintKind::AmbiguousQueryStart, start, message);
    }
}

/// [`LintKind::SeveralExplodedInQuery`]: a second exploded variable in the query tail: each
/// would collect the same undeclared parameters.
fn several_exploded_in_query(t: &Template<'_>, found: &mut Vec<Lint>) {
    if t.fragment_before_tail {
        return;
    }
    let mut exploded = t
        .tail()
        .iter()
        .flat_map(Part::vars)
        .filter(|v| v.node.explode);
    let Some(first) = exploded.next() else {
        return;
    };
    for v in exploded {
        let message = format!(
            "`{}` at byte {} is exploded after `{}` at byte {} in the query expressions, and \
             both would collect the undeclared parameters, so the template cannot be matched; \
             explode only one of them",
            t.spec(v),
            v.position(),
            t.spec(first),
            first.position(),
        );
        push(
            found,
            LintKind::SeveralExplodedInQuery,
            v.position(),
            message,
        );
    }
}

/// What an exploded variable `e` writes first where `v` follows it with nothing between: the
/// prefix of `v`'s operator, or, inside one expression, its separator; `None` for a variable
/// written as its value alone.
fn leads(v: Var, first_in_expression: bool) -> [Option<u8>; 2] {
    let prefix = v.op.prefix().bytes().next();
    let separator = (!first_in_expression).then(|| v.op.separator());
    [prefix, separator.or(prefix)]
}

/// [`LintKind::ExplodedBeforeVariable`]: a map-capable exploded variable of the head followed,
/// with no literal between, by a variable whose items its map could take: an exploded one, or
/// any one after a named operator's, that the explode can run into (its class holds what that
/// variable writes first, or both write the same prefix). The variables between count for
/// nothing: they may be undefined.
fn exploded_before_variable(t: &Template<'_>, found: &mut Vec<Lint>) {
    let mut explodes: Vec<Var> = Vec::new();
    for part in t.head() {
        let Part::Expression { vars, .. } = part else {
            explodes.clear();
            continue;
        };
        for (i, &v) in vars.iter().enumerate() {
            let leads = leads(v, i == 0);
            let runs_into = |e: &&Var| {
                let e_prefix = e.op.prefix().bytes().next();
                (v.node.explode || e.op.is_named())
                    && leads.iter().any(|lead| match *lead {
                        None => true,
                        Some(b) => e.class().allows_raw(b) || e_prefix == Some(b),
                    })
            };
            if let Some(&e) = explodes.iter().find(runs_into) {
                let message = format!(
                    "`{}` at byte {} follows the exploded `{}` at byte {} with no literal \
                     between them, and as a map `{}` could take the items `{}` writes, so the \
                     template cannot be matched; put a literal between them",
                    t.spec(v),
                    v.position(),
                    t.spec(e),
                    e.position(),
                    t.spec(e).name(),
                    t.spec(v).name(),
                );
                push(
                    found,
                    LintKind::ExplodedBeforeVariable,
                    v.position(),
                    message,
                );
            }
            if v.map_capable() {
                explodes.push(v);
            }
        }
    }
}

/// [`LintKind::VariableBeforeExploded`]: a map-capable exploded variable of the head after a
/// variable, with no literal between, whose values can hold how the map starts: that value
/// could take the start of the map's first entry, and the map hold a key twice. The map starts
/// with the separator after a variable of its own expression, and with the operator's prefix
/// (nothing, for some) after an earlier expression.
fn variable_before_exploded(t: &Template<'_>, found: &mut Vec<Lint>) {
    // The variables since the last literal, with their expression's number.
    let mut values: Vec<(Var, usize)> = Vec::new();
    for (expression, part) in t.head().iter().enumerate() {
        let Part::Expression { op, vars, .. } = part else {
            values.clear();
            continue;
        };
        for &v in vars {
            let taken_into = |&&(u, e): &&(Var, usize)| {
                let lead = if e == expression {
                    Some(op.separator())
                } else {
                    op.prefix().bytes().next()
                };
                let strictly = Reading {
                    strict: true,
                    in_query: false,
                };
                lead.is_none_or(|b| Class::value(u.op, false, strictly).allows_raw(b))
            };
            if let Some(&(u, _)) = values.iter().find(taken_into).filter(|_| v.map_capable()) {
                let message = format!(
                    "the exploded `{}` at byte {} follows `{}` at byte {} with no literal \
                     between them, and `{}` can hold how a map's first entry starts, so the \
                     template cannot be matched; put a literal between them",
                    t.spec(v),
                    v.position(),
                    t.spec(u),
                    u.position(),
                    t.spec(u).name(),
                );
                push(
                    found,
                    LintKind::VariableBeforeExploded,
                    v.position(),
                    message,
                );
            }
            values.push((v, expression));
        }
    }
}

impl Part<'_> {
    /// Its variables, if it is an expression.
    fn vars(&self) -> impl Iterator<Item = Var> + '_ {
        let vars: &[Var] = match self {
            Part::Expression { vars, .. } => vars,
            Part::Literal { .. } => &[],
        };
        vars.iter().copied()
    }
}

mod repeated;
#[cfg(test)]
mod tests;
