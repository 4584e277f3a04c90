//! Generated templates, kept as a small syntax tree so that a test knows their structure
//! (operators, names, where the query tail starts) without parsing them back.

use std::fmt::{self, Write as _};

use crate::UriTemplate;
use crate::template::{Component, Operator};

/// A variable spec's modifier (RFC 6570 §2.4).
///
/// ```
/// use rfc6570::testing::{GenModifier, GenTemplate};
///
/// let t = GenTemplate::from(&rfc6570::UriTemplate::parse("{a:3,b*}")?);
/// let modifiers: Vec<GenModifier> = t.specs().map(|(_, s)| s.modifier).collect();
/// assert_eq!(modifiers, [GenModifier::Prefix(3), GenModifier::Explode]);
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GenModifier {
    /// No modifier.
    None,
    /// `:n`, a prefix of `n` characters.
    Prefix(u16),
    /// `*`, explode.
    Explode,
}

/// A variable spec: a name and its modifier.
///
/// ```
/// use rfc6570::testing::{GenModifier, GenSpec};
///
/// let spec = GenSpec { name: "path".into(), modifier: GenModifier::Explode };
/// assert_eq!(spec.to_string(), "path*");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GenSpec {
    /// The variable's name.
    pub name: String,
    /// Its modifier.
    pub modifier: GenModifier,
}

impl fmt::Display for GenSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        match self.modifier {
            GenModifier::None => Ok(()),
            GenModifier::Prefix(n) => write!(f, ":{n}"),
            GenModifier::Explode => f.write_str("*"),
        }
    }
}

/// A part of a template: literal text, or an expression with its operator and specs.
///
/// ```
/// use rfc6570::testing::{GenPart, GenTemplate};
/// use rfc6570::template::Operator;
///
/// let t = GenTemplate::from(&rfc6570::UriTemplate::parse("x{?q}")?);
/// assert!(matches!(&t.parts[1], GenPart::Expression(Operator::Query, specs) if specs.len() == 1));
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum GenPart {
    /// Literal text, as written in the template.
    Literal(String),
    /// An expression: its operator and variable specs.
    Expression(Operator, Vec<GenSpec>),
}

/// A template as a syntax tree. [`Display`](fmt::Display) writes its text.
///
/// ```
/// use rfc6570::testing::GenTemplate;
/// use rfc6570::UriTemplate;
///
/// let t = GenTemplate::from(&UriTemplate::parse("log://build/{job_id}{?lines}")?);
/// assert_eq!(t.to_string(), "log://build/{job_id}{?lines}");
/// assert_eq!(t.tail_start(), 2);
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct GenTemplate {
    /// The parts, in order.
    pub parts: Vec<GenPart>,
}

impl GenTemplate {
    /// The parsed template. Every generated tree is a valid template; this fails only for a
    /// tree built by hand with an invalid name or literal.
    ///
    /// ```
    /// # use rfc6570::testing::GenTemplate;
    /// let t = GenTemplate::from(&rfc6570::UriTemplate::parse("{a}")?);
    /// assert_eq!(t.parse()?.as_str(), "{a}");
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn parse(&self) -> Result<UriTemplate, crate::Error> {
        UriTemplate::parse(&self.to_string())
    }

    /// Index of the first part of the query tail: the trailing run of `{?..}`/`{&..}`
    /// expressions (`parts.len()` when there is none).
    ///
    /// ```
    /// # use rfc6570::testing::GenTemplate;
    /// let t = GenTemplate::from(&rfc6570::UriTemplate::parse("{?a}x{?b}{&c}")?);
    /// assert_eq!(t.tail_start(), 2);
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn tail_start(&self) -> usize {
        let is_query = |p: &GenPart| {
            matches!(
                p,
                GenPart::Expression(Operator::Query | Operator::QueryContinuation, _)
            )
        };
        let trailing = self.parts.iter().rev().take_while(|p| is_query(p)).count();
        self.parts.len() - trailing
    }

    /// The template text before the query tail, and that of the tail.
    ///
    /// ```
    /// # use rfc6570::testing::GenTemplate;
    /// let t = GenTemplate::from(&rfc6570::UriTemplate::parse("a/{b}{?c}")?);
    /// assert_eq!(t.head_and_tail(), ("a/{b}".to_owned(), "{?c}".to_owned()));
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn head_and_tail(&self) -> (String, String) {
        let (head, tail) = self.parts.split_at(self.tail_start());
        (render(head), render(tail))
    }

    /// Every variable spec with the operator of its expression, in order.
    ///
    /// ```
    /// # use rfc6570::testing::GenTemplate;
    /// # use rfc6570::template::Operator;
    /// let t = GenTemplate::from(&rfc6570::UriTemplate::parse("{a}{+b}")?);
    /// let ops: Vec<Operator> = t.specs().map(|(op, _)| op).collect();
    /// assert_eq!(ops, [Operator::Simple, Operator::Reserved]);
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn specs(&self) -> impl Iterator<Item = (Operator, &GenSpec)> + '_ {
        specs_of(&self.parts)
    }

    /// The specs of the query tail.
    ///
    /// ```
    /// # use rfc6570::testing::GenTemplate;
    /// let t = GenTemplate::from(&rfc6570::UriTemplate::parse("{a}{?b,c}")?);
    /// assert_eq!(t.tail_specs().count(), 2);
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn tail_specs(&self) -> impl Iterator<Item = (Operator, &GenSpec)> + '_ {
        specs_of(&self.parts[self.tail_start()..])
    }

    /// The same template with every variable name made unique by a `_N` suffix, numbered in
    /// order: a name used twice is refused for matching.
    ///
    /// ```
    /// # use rfc6570::testing::GenTemplate;
    /// let t = GenTemplate::from(&rfc6570::UriTemplate::parse("{a}/{a}")?);
    /// assert_eq!(t.with_distinct_names().to_string(), "{a_0}/{a_1}");
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn with_distinct_names(mut self) -> Self {
        let mut n = 0;
        for part in &mut self.parts {
            if let GenPart::Expression(_, specs) = part {
                for spec in specs {
                    write!(spec.name, "_{n}").expect("writing to a String");
                    n += 1;
                }
            }
        }
        self
    }
}

fn specs_of(parts: &[GenPart]) -> impl Iterator<Item = (Operator, &GenSpec)> + '_ {
    parts.iter().flat_map(|p| match p {
        GenPart::Expression(op, specs) => specs.iter().map(|s| (*op, s)).collect(),
        GenPart::Literal(_) => Vec::new(),
    })
}

fn render(parts: &[GenPart]) -> String {
    let mut out = String::new();
    for part in parts {
        match part {
            GenPart::Literal(text) => out.push_str(text),
            GenPart::Expression(op, specs) => {
                out.push('{');
                out.extend(op.symbol());
                for (i, spec) in specs.iter().enumerate() {
                    let sep = if i == 0 { "" } else { "," };
                    write!(out, "{sep}{spec}").expect("writing to a String");
                }
                out.push('}');
            }
        }
    }
    out
}

impl fmt::Display for GenTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&render(&self.parts))
    }
}

impl From<&UriTemplate> for GenTemplate {
    fn from(template: &UriTemplate) -> Self {
        let parts = template
            .components()
            .map(|c| match c {
                Component::Literal(text) => GenPart::Literal(text.to_owned()),
                Component::Expression(e) => GenPart::Expression(
                    e.operator(),
                    e.variables()
                        .map(|v| GenSpec {
                            name: v.name().to_owned(),
                            modifier: match (v.prefix(), v.is_exploded()) {
                                (Some(n), _) => GenModifier::Prefix(n),
                                (None, true) => GenModifier::Explode,
                                (None, false) => GenModifier::None,
                            },
                        })
                        .collect(),
                ),
            })
            .collect();
        Self { parts }
    }
}
