//! Templates: [`UriTemplate`], the views over its parts ([`Component`], [`Expression`],
//! [`VarSpec`], [`Operator`]), and the [`Limits`] a parse enforces.
//!
//! A template is parsed once into two allocations: its source text and a flat array of nodes
//! (literal spans, expression headers, variable specs). Expansion, matching and routing walk
//! that array and never scan the source text for structure again.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;
use std::sync::OnceLock;

use crate::error::{Error, ErrorKind};
use crate::grammar;
use crate::matching::program::{Policy, Program};
use crate::matching::Unsupported;

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
}

/// Limits applied when parsing a template; [`Limits::default`] documents the defaults.
///
/// ```
/// use rfc6570::{ErrorKind, UriTemplate};
/// use rfc6570::template::Limits;
///
/// let limits = Limits::default().max_expressions(2);
/// let err = UriTemplate::parse_with_limits("{a}{b}{c}", &limits).unwrap_err();
/// assert_eq!(err.kind(), &ErrorKind::TooManyExpressions { limit: 2 });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// The longest template accepted, in bytes. Default: 65,536 (64 KiB).
    pub max_template_len: usize,
    /// The most expressions a template may have. Default: 1,024.
    pub max_expressions: usize,
}

impl Limits {
    /// The default limits: 64 KiB templates with at most 1,024 expressions.
    pub const DEFAULT: Self = Self {
        max_template_len: 64 * 1024,
        max_expressions: 1024,
    };
}

impl Limits {
    /// Sets [`max_template_len`](Self::max_template_len).
    pub fn max_template_len(mut self, max: usize) -> Self {
        self.max_template_len = max;
        self
    }

    /// Sets [`max_expressions`](Self::max_expressions).
    pub fn max_expressions(mut self, max: usize) -> Self {
        self.max_expressions = max;
        self
    }
}

impl Default for Limits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// One element of the compiled form; see the module docs.
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

/// A parsed, validated RFC 6570 URI template.
///
/// Parse with [`UriTemplate::parse`] (or `str::parse`, `TryFrom<&str>`), then expand it with
/// variables ([`expand`](Self::expand), [`expand_to`](Self::expand_to)) or match a concrete URI
/// back to its variables ([`match_uri`](Self::match_uri)). Two templates are equal when their
/// text is equal; `Display` writes the text back.
///
/// ```
/// use rfc6570::UriTemplate;
///
/// let t: UriTemplate = "search://docs{?q,lang}".parse()?;
/// assert_eq!(t.to_string(), "search://docs{?q,lang}");
/// assert_eq!(t.expand(&[("q", "uri templates")])?, "search://docs?q=uri%20templates");
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Clone)]
pub struct UriTemplate {
    source: Box<str>,
    nodes: Vec<Node>,
    /// The matching programs, without and with required path variables, compiled on
    /// first use so that parsing stays at two allocations.
    programs: [OnceLock<Result<Box<Program>, Unsupported>>; 2],
    repeated_names: bool,
    /// See [`tail_var`](Self::tail_var).
    tail_var: Option<usize>,
    /// See [`var_count`](Self::var_count).
    var_count: usize,
}

impl UriTemplate {
    /// Parses and validates a template with the default [`Limits`].
    ///
    /// The whole template is checked against the grammar of RFC 6570 §2; the error names the
    /// first problem and its byte offset.
    ///
    /// ```
    /// use rfc6570::{ErrorKind, UriTemplate};
    ///
    /// let t = UriTemplate::parse("log://build/{job_id}{?lines}")?;
    /// assert_eq!(t.as_str(), "log://build/{job_id}{?lines}");
    ///
    /// let err = UriTemplate::parse("{var:0}").unwrap_err();
    /// assert_eq!(err.kind(), &ErrorKind::InvalidPrefix);
    /// assert_eq!(err.position(), Some(5));
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn parse(template: &str) -> Result<Self, Error> {
        Self::parse_with_limits(template, &Limits::DEFAULT)
    }

    /// Parses a template with explicit [`Limits`].
    ///
    /// ```
    /// use rfc6570::{ErrorKind, UriTemplate};
    /// use rfc6570::template::Limits;
    ///
    /// let limits = Limits::default().max_template_len(8);
    /// let err = UriTemplate::parse_with_limits("file:///{+path}", &limits).unwrap_err();
    /// assert_eq!(err.kind(), &ErrorKind::TemplateTooLong { limit: 8 });
    /// ```
    pub fn parse_with_limits(template: &str, limits: &Limits) -> Result<Self, Error> {
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
        let name = |v: &VarNode| &template[v.name_start as usize..v.name_end as usize];
        let repeated_names = nodes.iter().enumerate().any(|(i, a)| match a {
            Node::Var(a) => nodes[i + 1..]
                .iter()
                .any(|b| matches!(b, Node::Var(b) if name(a) == name(b))),
            _ => false,
        });
        let tail_var = first_tail_var(&nodes);
        let var_count = nodes.iter().filter(|n| matches!(n, Node::Var(_))).count();
        Ok(Self {
            source: template.into(),
            nodes,
            programs: Default::default(),
            repeated_names,
            tail_var,
            var_count,
        })
    }

    /// The template's source text.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let t = UriTemplate::parse("file:///{+path}")?;
    /// assert_eq!(t.as_str(), "file:///{+path}");
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The template's parts in order: literal text and expressions.
    ///
    /// ```
    /// use rfc6570::UriTemplate;
    /// use rfc6570::template::Component;
    ///
    /// let t = UriTemplate::parse("log://build/{job_id}")?;
    /// let parts: Vec<String> = t
    ///     .components()
    ///     .map(|c| match c {
    ///         Component::Literal(text) => format!("literal {text}"),
    ///         Component::Expression(e) => format!("expression {}", e.as_str()),
    ///     })
    ///     .collect();
    /// assert_eq!(parts, ["literal log://build/", "expression {job_id}"]);
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn components(&self) -> Components<'_> {
        Components {
            template: self,
            index: 0,
        }
    }

    /// The template's expressions in order.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let t = UriTemplate::parse("/a{/b}{?c,d}")?;
    /// assert_eq!(t.expressions().count(), 2);
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn expressions(&self) -> impl Iterator<Item = Expression<'_>> + '_ {
        self.components().filter_map(|c| match c {
            Component::Expression(e) => Some(e),
            Component::Literal(_) => None,
        })
    }

    /// Every variable spec of the template, in order (a name used twice appears twice).
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let t = UriTemplate::parse("log://build/{job_id}{?lines}")?;
    /// let names: Vec<&str> = t.variables().map(|v| v.name()).collect();
    /// assert_eq!(names, ["job_id", "lines"]);
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn variables(&self) -> impl Iterator<Item = VarSpec<'_>> + '_ {
        self.nodes.iter().filter_map(|n| match n {
            Node::Var(v) => Some(VarSpec {
                source: &self.source,
                node: *v,
            }),
            _ => None,
        })
    }

    /// Whether the template has no expressions, so that it stands for exactly one URI.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// assert!(UriTemplate::parse("config://app")?.is_static());
    /// assert!(!UriTemplate::parse("notes://{id}")?.is_static());
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn is_static(&self) -> bool {
        self.nodes.iter().all(|n| matches!(n, Node::Literal { .. }))
    }

    /// Whether some variable name appears more than once.
    #[inline]
    pub(crate) fn has_repeated_names(&self) -> bool {
        self.repeated_names
    }

    /// Index of the first variable of the query tail (the trailing run of `{?..}` and `{&..}`
    /// expressions, whose pairs a match takes in any order), if the template has one. Kept
    /// here rather than in each match's captures, which stay small enough to move cheaply.
    #[inline]
    pub(crate) fn tail_var(&self) -> Option<usize> {
        self.tail_var
    }

    /// The number of variable specs: spec `i` has match slots `2i` (start) and `2i + 1` (end).
    #[inline]
    pub(crate) fn var_count(&self) -> usize {
        self.var_count
    }

    pub(crate) fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    #[inline]
    pub(crate) fn span(&self, start: u32, end: u32) -> &str {
        &self.source[start as usize..end as usize]
    }

    pub(crate) fn program(&self, policy: Policy) -> Result<&Program, Unsupported> {
        self.programs[usize::from(policy.require_path_vars)]
            .get_or_init(|| Program::compile(self, policy).map(Box::new))
            .as_ref()
            .map(|p| &**p)
            .map_err(|&e| e)
    }
}

/// One part of a template: literal text or an expression.
///
/// ```
/// use rfc6570::UriTemplate;
/// use rfc6570::template::Component;
///
/// let t = UriTemplate::parse("a{b}")?;
/// assert!(matches!(t.components().next(), Some(Component::Literal("a"))));
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub enum Component<'t> {
    /// Literal text, as written in the template (percent-triplets and non-ASCII included).
    Literal(&'t str),
    /// An expression, `{...}`.
    Expression(Expression<'t>),
}

/// Iterator over a template's [`Component`]s; see [`UriTemplate::components`].
///
/// ```
/// # use rfc6570::UriTemplate;
/// assert_eq!(UriTemplate::parse("a{b}c")?.components().count(), 3);
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Components<'t> {
    template: &'t UriTemplate,
    index: usize,
}

impl<'t> Iterator for Components<'t> {
    type Item = Component<'t>;

    fn next(&mut self) -> Option<Self::Item> {
        let t = self.template;
        let node = *t.nodes.get(self.index)?;
        match node {
            Node::Literal { start, end } => {
                self.index += 1;
                Some(Component::Literal(t.span(start, end)))
            }
            Node::Expression {
                op,
                vars,
                start,
                end,
            } => {
                let first = self.index + 1;
                self.index = first + usize::from(vars);
                Some(Component::Expression(Expression {
                    source: &t.source,
                    operator: op,
                    text: (start, end),
                    vars: &t.nodes[first..self.index],
                }))
            }
            Node::Var(_) => unreachable!("variables are consumed with their expression"),
        }
    }
}

/// An expression of a template: an operator and one or more variable specs.
///
/// ```
/// use rfc6570::UriTemplate;
/// use rfc6570::template::Operator;
///
/// let t = UriTemplate::parse("{?q,lang}")?;
/// let e = t.expressions().next().unwrap();
/// assert_eq!((e.operator(), e.variables().len()), (Operator::Query, 2));
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Expression<'t> {
    source: &'t str,
    operator: Operator,
    text: (u32, u32),
    vars: &'t [Node],
}

impl<'t> Expression<'t> {
    /// The expression's operator.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// # use rfc6570::template::Operator;
    /// let t = UriTemplate::parse("{+path}")?;
    /// assert_eq!(t.expressions().next().unwrap().operator(), Operator::Reserved);
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn operator(&self) -> Operator {
        self.operator
    }

    /// The expression's text, braces included.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let t = UriTemplate::parse("a{?x,y}")?;
    /// assert_eq!(t.expressions().next().unwrap().as_str(), "{?x,y}");
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn as_str(&self) -> &'t str {
        &self.source[self.text.0 as usize..self.text.1 as usize]
    }

    /// The byte offset of the expression's `{` in the template.
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    pub(crate) fn offset(&self) -> usize {
        self.text.0 as usize
    }

    /// The expression's variable specs, in order.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let t = UriTemplate::parse("{x,y:3,z*}")?;
    /// let e = t.expressions().next().unwrap();
    /// let specs: Vec<String> = e.variables().map(|v| v.to_string()).collect();
    /// assert_eq!(specs, ["x", "y:3", "z*"]);
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn variables(&self) -> impl ExactSizeIterator<Item = VarSpec<'t>> + 't {
        let source = self.source;
        self.vars.iter().map(move |n| match n {
            Node::Var(node) => VarSpec {
                source,
                node: *node,
            },
            _ => unreachable!("an expression's nodes are variables"),
        })
    }
}

/// A variable spec: a name with an optional prefix (`:3`) or explode (`*`) modifier.
///
/// ```
/// # use rfc6570::UriTemplate;
/// let t = UriTemplate::parse("{var:3}")?;
/// let spec = t.variables().next().unwrap();
/// assert_eq!((spec.name(), spec.prefix(), spec.to_string()), ("var", Some(3), "var:3".into()));
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct VarSpec<'t> {
    source: &'t str,
    node: VarNode,
}

impl<'t> VarSpec<'t> {
    /// The variable's name, as written (percent-triplets included).
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let t = UriTemplate::parse("{user.name:3}")?;
    /// assert_eq!(t.variables().next().unwrap().name(), "user.name");
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn name(&self) -> &'t str {
        &self.source[self.node.name_start as usize..self.node.name_end as usize]
    }

    /// The prefix length in characters, if the spec has one.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let t = UriTemplate::parse("{a:3,b}")?;
    /// let prefixes: Vec<_> = t.variables().map(|v| v.prefix()).collect();
    /// assert_eq!(prefixes, [Some(3), None]);
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn prefix(&self) -> Option<u16> {
        (self.node.prefix != 0).then_some(self.node.prefix)
    }

    /// Whether the spec has the explode modifier `*`.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let t = UriTemplate::parse("{/path*}")?;
    /// assert!(t.variables().next().unwrap().is_exploded());
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn is_exploded(&self) -> bool {
        self.node.explode
    }
}

impl fmt::Display for VarSpec<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())?;
        if let Some(p) = self.prefix() {
            write!(f, ":{p}")?;
        }
        if self.is_exploded() {
            f.write_str("*")?;
        }
        Ok(())
    }
}

impl fmt::Debug for UriTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("UriTemplate").field(&self.source).finish()
    }
}

impl fmt::Display for UriTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

impl PartialEq for UriTemplate {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl Eq for UriTemplate {}

impl Hash for UriTemplate {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.source.hash(state);
    }
}

impl PartialOrd for UriTemplate {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for UriTemplate {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.source.cmp(&other.source)
    }
}

impl FromStr for UriTemplate {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        Self::parse(s)
    }
}

impl TryFrom<&str> for UriTemplate {
    type Error = Error;

    fn try_from(s: &str) -> Result<Self, Error> {
        Self::parse(s)
    }
}

impl AsRef<str> for UriTemplate {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for UriTemplate {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for UriTemplate {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = UriTemplate;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an RFC 6570 URI template")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<UriTemplate, E> {
                UriTemplate::parse(v).map_err(E::custom)
            }
        }
        d.deserialize_str(Visitor)
    }
}

/// The index of the first variable of the query tail of `nodes`, if there is one.
fn first_tail_var(nodes: &[Node]) -> Option<usize> {
    let tail = tail_start(nodes);
    (tail < nodes.len()).then(|| {
        nodes[..tail]
            .iter()
            .filter(|n| matches!(n, Node::Var(_)))
            .count()
    })
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
