//! The compiled form's pieces: the [`Operator`] of an expression, and the nodes a template is
//! parsed into (literal spans, expression headers, variable specs, in one flat array), and
//! what matching reads of their structure: where the query tail starts, where the scheme and
//! authority end, and which variables share a name.

use std::collections::HashMap;

use crate::{pct, uri};

/// An RFC 6570 expression operator (§2.2).
///
/// ```
/// use rfc6570::UriTemplate;
/// use rfc6570::template::Operator;
///
/// let t = UriTemplate::parse("{/path*}{?q}").unwrap();
/// let ops: Vec<Operator> = t.expressions().map(|e| e.operator()).collect();
/// assert_eq!(ops, [Operator::Path, Operator::Query]);
/// assert_eq!(Operator::Query.prefix(), "?");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operator {
    /// `{var}`: simple string expansion.
    Simple,
    /// `{+var}`: reserved expansion, which keeps reserved characters.
    Reserved,
    /// `{#var}`: fragment expansion.
    Fragment,
    /// `{.var}`: label expansion with dot prefix.
    Label,
    /// `{/var}`: path segments.
    Path,
    /// `{;var}`: path-style parameters.
    PathParam,
    /// `{?var}`: form-style query.
    Query,
    /// `{&var}`: form-style query continuation.
    QueryContinuation,
}

impl Operator {
    /// Every operator, simple expansion first, in the order of RFC 6570's table (§2.2).
    ///
    /// ```
    /// # use rfc6570::template::Operator;
    /// assert_eq!(Operator::ALL.len(), 8);
    /// assert_eq!(Operator::ALL[0], Operator::Simple);
    /// ```
    pub const ALL: [Operator; 8] = [
        Self::Simple,
        Self::Reserved,
        Self::Fragment,
        Self::Label,
        Self::Path,
        Self::PathParam,
        Self::Query,
        Self::QueryContinuation,
    ];

    pub(crate) fn from_byte(b: u8) -> Option<Self> {
        Some(match b {
            b'+' => Self::Reserved,
            b'#' => Self::Fragment,
            b'.' => Self::Label,
            b'/' => Self::Path,
            b';' => Self::PathParam,
            b'?' => Self::Query,
            b'&' => Self::QueryContinuation,
            _ => return None,
        })
    }

    /// The operator's own character, `None` for simple expansion.
    ///
    /// ```
    /// # use rfc6570::template::Operator;
    /// assert_eq!(Operator::Reserved.symbol(), Some('+'));
    /// assert_eq!(Operator::Simple.symbol(), None);
    /// ```
    pub fn symbol(self) -> Option<char> {
        match self {
            Self::Simple => None,
            Self::Reserved => Some('+'),
            Self::Fragment => Some('#'),
            Self::Label => Some('.'),
            Self::Path => Some('/'),
            Self::PathParam => Some(';'),
            Self::Query => Some('?'),
            Self::QueryContinuation => Some('&'),
        }
    }

    /// What the expansion starts with when at least one variable is defined (RFC 6570
    /// Appendix A, `first`).
    ///
    /// ```
    /// # use rfc6570::template::Operator;
    /// assert_eq!(Operator::Reserved.prefix(), "");
    /// assert_eq!(Operator::Fragment.prefix(), "#");
    /// ```
    pub const fn prefix(self) -> &'static str {
        match self {
            Self::Simple | Self::Reserved => "",
            Self::Fragment => "#",
            Self::Label => ".",
            Self::Path => "/",
            Self::PathParam => ";",
            Self::Query => "?",
            Self::QueryContinuation => "&",
        }
    }

    /// The separator between defined variables and between exploded items (`sep`).
    ///
    /// ```
    /// # use rfc6570::template::Operator;
    /// assert_eq!(Operator::Query.separator(), b'&');
    /// assert_eq!(Operator::Simple.separator(), b',');
    /// ```
    pub const fn separator(self) -> u8 {
        match self {
            Self::Simple | Self::Reserved | Self::Fragment => b',',
            Self::Label => b'.',
            Self::Path => b'/',
            Self::PathParam => b';',
            Self::Query | Self::QueryContinuation => b'&',
        }
    }

    /// Whether values are written as `name=value` pairs (`named`).
    ///
    /// ```
    /// # use rfc6570::template::Operator;
    /// assert!(Operator::PathParam.is_named());
    /// assert!(!Operator::Path.is_named());
    /// ```
    pub const fn is_named(self) -> bool {
        matches!(
            self,
            Self::PathParam | Self::Query | Self::QueryContinuation
        )
    }

    /// What a named, empty value is written as after its name (`ifemp`): nothing for `;`, `=`
    /// for `?` and `&`.
    ///
    /// ```
    /// # use rfc6570::template::Operator;
    /// assert_eq!(Operator::PathParam.if_empty(), "");
    /// assert_eq!(Operator::Query.if_empty(), "=");
    /// ```
    pub const fn if_empty(self) -> &'static str {
        match self {
            Self::Query | Self::QueryContinuation => "=",
            _ => "",
        }
    }

    /// Whether reserved characters and percent-triplets in values are written as they are
    /// (`allow` is `U+R`), as for `+` and `#`.
    ///
    /// ```
    /// # use rfc6570::template::Operator;
    /// assert!(Operator::Fragment.allows_reserved());
    /// assert!(!Operator::Path.allows_reserved());
    /// ```
    pub const fn allows_reserved(self) -> bool {
        matches!(self, Self::Reserved | Self::Fragment)
    }

    /// Whether this is a query operator, `?` or `&`.
    pub(crate) fn is_query(self) -> bool {
        matches!(self, Self::Query | Self::QueryContinuation)
    }

    /// Whether a variable of this operator can cross `/`: those of `{+..}` and `{#..}`, and an
    /// exploded `{/v*}`, whose items `/` joins. What a router ranks below a variable that
    /// cannot (the semantics, section 5).
    pub(crate) fn crosses(self, explode: bool) -> bool {
        self.allows_reserved() || self == Self::Path && explode
    }
}

/// One element of the compiled form: a literal span, an expression header (its variables follow
/// it), or a variable spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Node {
    Literal {
        start: u32,
        end: u32,
    },
    Expression {
        op: Operator,
        /// Number of [`Node::Var`] nodes that follow.
        vars: u16,
        start: u32,
        end: u32,
    },
    Var(VarNode),
}

/// A variable spec in the compiled form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct VarNode {
    pub(crate) name_start: u32,
    pub(crate) name_end: u32,
    /// Prefix length in characters; 0 when there is none.
    pub(crate) prefix: u16,
    pub(crate) explode: bool,
}

/// The source offset where the template's scheme and authority end: the letters of its literal
/// text before it compare without case (RFC 3986 section 6.2.2.1). The scheme must be literal
/// text with its `:`; the authority follows a literal `//` and ends at the first `/`, `?` or
/// `#` of literal text, or at an expression that could write one first (`{/..}`, `{?..}`,
/// `{&..}`, `{#..}`, `{+..}`). 0 if the template does not start with a scheme.
pub(crate) fn caseless_end(source: &str, nodes: &[Node]) -> usize {
    let Some(&Node::Literal { end, .. }) = nodes.first() else {
        return 0;
    };
    let first = &source.as_bytes()[..end as usize];
    let Some(scheme) = uri::scheme_len(first) else {
        return 0;
    };
    let authority = scheme + 3;
    if !first[scheme + 1..].starts_with(b"//") {
        return scheme;
    }
    let mut i = 0;
    while i < nodes.len() {
        match nodes[i] {
            Node::Literal { start, end } => {
                let from = (start as usize).max(authority);
                let text = &source.as_bytes()[from..(end as usize).max(from)];
                if let Some(at) = text.iter().position(|&b| uri::ends_authority(b)) {
                    return from + at;
                }
            }
            Node::Expression {
                op, vars, start, ..
            } => {
                let writes_an_end = matches!(
                    op,
                    Operator::Path | Operator::Query | Operator::QueryContinuation
                );
                if writes_an_end || op.allows_reserved() {
                    return start as usize;
                }
                i += usize::from(vars);
            }
            Node::Var(_) => {}
        }
        i += 1;
    }
    source.len()
}

/// Index of the first node of the trailing run of query expressions (`nodes.len()` if none).
pub(crate) fn tail_start(nodes: &[Node]) -> usize {
    let mut start = nodes.len();
    let mut i = 0;
    while i < nodes.len() {
        let (query, len) = match nodes[i] {
            Node::Expression { op, vars, .. } => (op.is_query(), 1 + usize::from(vars)),
            _ => (false, 1),
        };
        if !query {
            start = nodes.len();
        } else if start == nodes.len() {
            start = i;
        }
        i += len;
    }
    start
}

/// For each variable, the index of the first with the same name (names compare normalized, as
/// matching compares them: `%61` is `a`); empty when every name is used once. A few names are
/// compared pairwise, without allocating; many are hashed, so that a template of many
/// variables costs no more than its length.
pub(super) fn first_occurrences(source: &str, nodes: &[Node]) -> Box<[u32]> {
    const PAIRWISE: usize = 32;
    let names = || {
        nodes.iter().filter_map(|n| match n {
            Node::Var(v) => Some(&source[v.name_start as usize..v.name_end as usize]),
            _ => None,
        })
    };
    let count = names().count();
    if count <= PAIRWISE {
        let repeats = names()
            .enumerate()
            .any(|(v, name)| names().take(v).any(|u| pct::equivalent(u, name)));
        if !repeats {
            return Box::default();
        }
    }
    let mut seen: HashMap<Vec<pct::Unit>, u32> = HashMap::with_capacity(count);
    let first: Vec<u32> = names()
        .enumerate()
        .map(|(v, name)| {
            *seen
                .entry(pct::units(name.as_bytes()).collect())
                .or_insert(v as u32)
        })
        .collect();
    if first.iter().enumerate().all(|(v, &f)| f as usize == v) {
        return Box::default();
    }
    first.into()
}
