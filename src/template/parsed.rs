//! A parsed template: its source text and its nodes, with what matching derives from them once.

use super::Limits;
use super::grammar;
use super::lint::Lint;
use super::node::{Node, first_occurrences, tail_start};
use super::parts::{Component, Components, Expression, VarSpec};
use super::rules;
use crate::error::{Error, ErrorKind};
use std::sync::OnceLock;

impl std::fmt::Debug for Parsed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.source)
    }
}

/// A template as parsed: two allocations, its source text and a flat array of [`Node`]s. The
/// public [`UriTemplate`](crate::UriTemplate) wraps it with the matching programs it compiles
/// on first use; expansion and the matching engine read only this.
#[derive(Clone)]
pub(crate) struct Parsed {
    source: Box<str>,
    nodes: Vec<Node>,
    /// Whether some variable is exploded (`{m*}`), and so may capture a map.
    explodes: bool,
    /// See [`splits_characters`](Self::splits_characters).
    splits_characters: bool,
    /// See [`tail_var`](Self::tail_var).
    tail_var: Option<usize>,
    /// The index of the node where the query tail starts, or the number of nodes (which the
    /// template's length bounds, as it does every offset).
    tail_node: u32,
    /// See [`var_count`](Self::var_count).
    var_count: usize,
    /// See [`tail_words`](Self::tail_words).
    tail_words: TailWords,
    /// For each variable, the index of the first variable with its name, when some name is
    /// used more than once; empty otherwise (see [`first_of`](Self::first_of)). Found when
    /// matching first asks, so that parsing stays at two allocations.
    first_of: OnceLock<Box<[u32]>>,
}

/// Two parsed templates are equal when their text is: the rest is derived from it.
impl PartialEq for Parsed {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl Eq for Parsed {}

impl Parsed {
    /// Parses with the default limits (for the crate's own tests).
    #[cfg(test)]
    pub(crate) fn parse(template: &str) -> Result<Self, Error> {
        Self::parse_with_limits(template, &Limits::DEFAULT)
    }

    pub(crate) fn parse_with_limits(template: &str, limits: &Limits) -> Result<Self, Error> {
        // Offsets are stored as u32; longer templates are refused whatever the limit says.
        let max_len = limits.max_template_len.min(u32::MAX as usize);
        if template.len() > max_len {
            return Err(Error::new(
                ErrorKind::TemplateTooLong { limit: max_len },
                None,
                template,
            ));
        }
        let nodes = grammar::parse(template, limits.max_expressions)
            .map_err(|(kind, at)| Error::new(kind, at, template))?;
        let explodes = nodes.iter().any(|n| matches!(n, Node::Var(v) if v.explode));
        // A triplet of a byte from 0x80 up, whose first hex digit is `8` or above (the grammar
        // has checked that two hex digits follow every `%`): looked for in the whole text,
        // names included, which errs on the side of checking.
        let splits_characters =
            (template.as_bytes().windows(2)).any(|pair| pair[0] == b'%' && pair[1] >= b'8');
        let tail_node = tail_start(&nodes);
        let tail_var = first_tail_var(&nodes, tail_node);
        let tail_node = tail_node as u32;
        let var_count = nodes.iter().filter(|n| matches!(n, Node::Var(_))).count();
        let tail_words = TailWords::of(template, &nodes[tail_node as usize..]);
        Ok(Self {
            source: template.into(),
            nodes,
            explodes,
            splits_characters,
            tail_var,
            tail_node,
            var_count,
            tail_words,
            first_of: OnceLock::new(),
        })
    }

    pub(crate) fn as_str(&self) -> &str {
        &self.source
    }

    pub(crate) fn components(&self) -> Components<'_> {
        Components {
            source: &self.source,
            nodes: &self.nodes,
            index: 0,
        }
    }

    pub(crate) fn expressions(&self) -> impl Iterator<Item = Expression<'_>> + '_ {
        self.components().filter_map(|c| match c {
            Component::Expression(e) => Some(e),
            Component::Literal(_) => None,
        })
    }

    pub(crate) fn variables(&self) -> impl Iterator<Item = VarSpec<'_>> + '_ {
        self.variables_of(&self.nodes)
    }

    /// The variable specs among `nodes`, which are some of this template's.
    #[inline]
    fn variables_of<'a>(&'a self, nodes: &'a [Node]) -> impl Iterator<Item = VarSpec<'a>> + 'a {
        nodes.iter().filter_map(|n| match n {
            Node::Var(v) => Some(VarSpec {
                source: &self.source,
                node: *v,
            }),
            _ => None,
        })
    }

    /// The template's lints, in template order.
    pub(crate) fn lints(&self) -> Vec<Lint> {
        rules::lints(&self.source, &self.nodes, self.first_occurrences())
    }

    /// The first lint that refuses the template for matching, if any.
    pub(crate) fn refusal(&self) -> Option<Lint> {
        rules::refusal(&self.source, &self.nodes, self.first_occurrences())
    }

    /// Whether the template has a fragment part, a `{#..}` expression or a literal `#`: then
    /// it matches a URI's fragment, where others set it aside.
    pub(crate) fn has_fragment_part(&self) -> bool {
        self.nodes.iter().any(|n| match *n {
            Node::Literal { start, end } => self.span(start, end).contains('#'),
            Node::Expression { op, .. } => op == super::Operator::Fragment,
            Node::Var(_) => false,
        })
    }

    pub(crate) fn is_static(&self) -> bool {
        self.nodes.iter().all(|n| matches!(n, Node::Literal { .. }))
    }

    /// Whether some variable is exploded, and so may capture a map.
    #[inline]
    pub(crate) fn explodes(&self) -> bool {
        self.explodes
    }

    /// Whether the template holds a triplet of a non-ASCII byte, which in a literal may be part
    /// of a character only (`x/%C3{v}`, half of `é`): matched against the URI's raw `é`, such
    /// a literal takes the character's first byte, and a variable would start inside the
    /// character. A match checks that its spans start and end between characters.
    #[inline]
    pub(crate) fn splits_characters(&self) -> bool {
        self.splits_characters
    }

    /// Index of the first variable of the query tail (the trailing run of `{?..}` and `{&..}`
    /// expressions, whose pairs a match takes in any order), if the template has one. Kept
    /// here rather than in each match's captures, which stay small enough to move cheaply.
    #[inline]
    pub(crate) fn tail_var(&self) -> Option<usize> {
        self.tail_var
    }

    /// The variables of the query tail, from [`tail_var`](Self::tail_var) on: what a match
    /// binds the query's pairs to, read without walking the rest of the template.
    #[inline]
    pub(crate) fn tail_variables(&self) -> impl Iterator<Item = VarSpec<'_>> + '_ {
        self.variables_of(&self.nodes[self.tail_node as usize..])
    }

    /// The names of the query tail's variables, each packed in a word as [`name_word`] packs a
    /// name (with the `=` after it, where each has at most seven bytes: see
    /// [`PackedNames::has_heads`]), in tail order; `None` unless the tail has at most four
    /// variables, each plain (no explode, no prefix), named once in the tail, with at most
    /// eight bytes and no triplet. Then a pair's name is the tail's variable that
    /// [`PackedNames::find`] finds, or none of them: one comparison a variable, where names
    /// compare unit by unit otherwise.
    #[inline]
    pub(crate) fn tail_words(&self) -> Option<PackedNames<'_>> {
        let TailWords { words, len, heads } = &self.tail_words;
        (*len > 0).then(|| PackedNames {
            words: &words[..usize::from(*len)],
            heads: *heads,
        })
    }

    /// The number of variable specs: spec `i` has match slots `2i` (start) and `2i + 1` (end).
    #[inline]
    pub(crate) fn var_count(&self) -> usize {
        self.var_count
    }

    /// Whether some name is used by more than one variable (`{x}/{x}`, `{/var:1,var}`): then
    /// a match must make its occurrences agree.
    #[inline]
    pub(crate) fn has_repeats(&self) -> bool {
        !self.first_occurrences().is_empty()
    }

    /// The index of the first variable named as variable `var` is (`var` itself for most).
    pub(crate) fn first_of(&self, var: usize) -> usize {
        self.first_occurrences()
            .get(var)
            .map_or(var, |&first| first as usize)
    }

    #[inline]
    fn first_occurrences(&self) -> &[u32] {
        self.first_of
            .get_or_init(|| first_occurrences(&self.source, &self.nodes))
    }

    /// The variables named as variable `var` is, `var` included, in template order.
    pub(crate) fn occurrences(&self, var: usize) -> impl Iterator<Item = usize> + '_ {
        let first = self.first_of(var);
        (first..self.var_count).filter(move |&v| v == var || self.first_of(v) == first)
    }

    pub(crate) fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    #[inline]
    pub(crate) fn span(&self, start: u32, end: u32) -> &str {
        &self.source[start as usize..end as usize]
    }
}

/// The index of the first variable of the query tail of `nodes`, which starts at node `tail`,
/// if there is one.
fn first_tail_var(nodes: &[Node], tail: usize) -> Option<usize> {
    (tail < nodes.len()).then(|| {
        nodes[..tail]
            .iter()
            .filter(|n| matches!(n, Node::Var(_)))
            .count()
    })
}

/// What [`Parsed::tail_words`] answers, kept in the template: no allocation of its own.
#[derive(Clone, Copy, Default)]
struct TailWords {
    words: [u64; 4],
    /// How many of `words` are the tail's; 0 where the tail has none, or cannot be read so.
    len: u8,
    /// Whether each word holds its name and the `=` after it (see [`PackedNames::has_heads`]).
    heads: bool,
}

impl TailWords {
    fn of(source: &str, tail: &[Node]) -> Self {
        let mut packed = Self::default();
        for node in tail {
            let Node::Var(v) = node else { continue };
            let name = &source.as_bytes()[v.name_start as usize..v.name_end as usize];
            let len = usize::from(packed.len);
            let word = name_word(name).filter(|_| !v.explode && v.prefix == 0);
            match word {
                Some(word) if len < packed.words.len() && !packed.words[..len].contains(&word) => {
                    packed.words[len] = word;
                    packed.len += 1;
                }
                _ => return Self::default(),
            }
        }
        if packed.words.iter().all(|&w| w >> 56 == 0) {
            packed.heads = true;
            for word in &mut packed.words[..usize::from(packed.len)] {
                *word = with_eq(*word);
            }
        }
        packed
    }
}

/// A query tail's names packed in words (see [`Parsed::tail_words`]).
#[derive(Clone, Copy)]
pub(crate) struct PackedNames<'a> {
    words: &'a [u64],
    heads: bool,
}

impl<'a> PackedNames<'a> {
    /// Whether the words are the heads of the pairs that bind their names, each name and the
    /// `=` after it (each name has at most seven bytes): then [`head_of`](Self::head_of)
    /// reads a pair's name from its first eight bytes.
    #[inline]
    pub(crate) fn has_heads(self) -> bool {
        self.heads
    }

    /// Where `first`, the first eight bytes of a pair packed as [`name_word`] packs a name
    /// (zero past the query's end), start with a head: its index and the name's length. A
    /// pair that starts with a head has its name, whatever follows: names hold no `=`. Only
    /// where [`has_heads`](Self::has_heads).
    #[inline(always)]
    pub(crate) fn head_of(self, first: u64) -> Option<(usize, usize)> {
        self.words.iter().enumerate().find_map(|(i, &head)| {
            let unused = head.leading_zeros() & !7;
            ((first ^ head) & (u64::MAX >> unused) == 0).then(|| (i, 7 - unused as usize / 8))
        })
    }

    /// The words, where they are heads (see [`has_heads`](Self::has_heads)): what a walk
    /// keeps to bind a tail's pairs itself (natively: WebAssembly's walks bind none).
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn heads(self) -> Option<&'a [u64]> {
        self.heads.then_some(self.words)
    }

    /// Names packed as heads, from [`heads`](Self::heads).
    #[cfg(not(target_arch = "wasm32"))]
    #[inline]
    pub(crate) fn of_heads(words: &'a [u64]) -> Self {
        Self { words, heads: true }
    }

    /// The index of the name that `name` is, if one is; `None` where `name` cannot be packed.
    #[inline]
    pub(crate) fn find(self, name: &[u8]) -> Option<Option<usize>> {
        let word = name_word(name)?;
        let word = if self.heads { with_eq(word) } else { word };
        Some(self.words.iter().position(|&w| w == word))
    }
}

/// A packed name with an `=` after it, where there is room for one: an eight-byte name is
/// left as it is, and equals no word of a name of seven bytes or fewer and its `=`.
fn with_eq(word: u64) -> u64 {
    let len = 8 - word.leading_zeros() / 8;
    word | u64::from(b'=').checked_shl(8 * len).unwrap_or(0)
}

/// A name of at most eight bytes and no `%`, packed little-endian in a word, zero past its end
/// (names hold no zero byte, so two words are equal where the names are); `None` for any
/// other name.
#[inline]
pub(crate) fn name_word(name: &[u8]) -> Option<u64> {
    if name.len() > 8 {
        return None;
    }
    let mut word = 0;
    for (i, &b) in name.iter().enumerate() {
        if b == b'%' {
            return None;
        }
        word |= u64::from(b) << (8 * i);
    }
    Some(word)
}
