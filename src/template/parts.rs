//! Views over a template's parts: [`Component`]s, [`Expression`]s and [`VarSpec`]s, borrowed
//! from the parsed form.

use std::fmt;

use super::node::{Node, Operator, VarNode};

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

/// Iterator over a template's [`Component`]s; see [`UriTemplate::components`](crate::UriTemplate::components).
///
/// ```
/// # use rfc6570::UriTemplate;
/// assert_eq!(UriTemplate::parse("a{b}c")?.components().count(), 3);
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Components<'t> {
    pub(super) source: &'t str,
    pub(super) nodes: &'t [Node],
    pub(super) index: usize,
}

impl<'t> Iterator for Components<'t> {
    type Item = Component<'t>;

    fn next(&mut self) -> Option<Self::Item> {
        let node = *self.nodes.get(self.index)?;
        match node {
            Node::Literal { start, end } => {
                self.index += 1;
                Some(Component::Literal(
                    &self.source[start as usize..end as usize],
                ))
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
                    source: self.source,
                    operator: op,
                    text: (start, end),
                    vars: &self.nodes[first..self.index],
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
    pub fn variables(&self) -> impl ExactSizeIterator<Item = VarSpec<'t>> + use<'t> {
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
    pub(super) source: &'t str,
    pub(super) node: VarNode,
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
    #[inline]
    pub fn name(&self) -> &'t str {
        &self.source[self.node.name_start as usize..self.node.name_end as usize]
    }

    /// The name's bytes: what matching compares, without slicing a `str`.
    #[inline]
    pub(crate) fn name_bytes(&self) -> &'t [u8] {
        &self.source.as_bytes()[self.node.name_start as usize..self.node.name_end as usize]
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

    /// Where its name starts in the template, in bytes: where lints and refusals point.
    pub(crate) fn position(&self) -> usize {
        self.node.name_start as usize
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
