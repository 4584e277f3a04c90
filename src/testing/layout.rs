//! Where each variable of a template sits, as far as labelling a URI needs: its operator,
//! modifier, scope, whether its expression delimits it, and what the template writes next.

use super::oracle::canonical;
use super::template::GenTemplate;
use crate::UriTemplate;
use crate::safety::Scope;
use crate::template::{Component, Operator};

/// One variable's place in a template.
#[derive(Debug, Clone)]
pub(crate) struct Place {
    pub(crate) name: String,
    pub(crate) op: Operator,
    pub(crate) exploded: bool,
    pub(crate) prefix: Option<u16>,
    /// In the query tail: the trailing run of `{?..}`/`{&..}` expressions.
    pub(crate) in_tail: bool,
    /// The only variable of its expression; or one of a named (`;`, `?`, `&`) expression,
    /// whose names delimit each value; or of a `{a,b}` or `{/a,b}` expression, whose
    /// separator such a variable never holds.
    pub(crate) delimited: bool,
    /// The index of its expression among the template's expressions.
    pub(crate) expression: usize,
    /// Whether it shares its expression with others that only a separator tells apart
    /// (`{a,b}`, `{/a,b}`): a list there would shift the values after it.
    pub(crate) in_list: bool,
    /// What the template may write right after the expression, as units of its canonical
    /// form ([`canonical`](super::oracle::canonical): a character, or a triplet for a byte of
    /// a non-ASCII one): the prefixes of the expressions after it, which write nothing when
    /// their variables are undefined, up to the first unit of the next literal.
    pub(crate) next: Vec<String>,
}

impl Place {
    /// How the router's safety check reads the variable's value: one path segment, or text
    /// that may cross `/` (`{+v}`, `{#v}`, query parameters).
    pub(crate) fn scope(&self) -> Scope {
        let crossing = self.in_tail || matches!(self.op, Operator::Reserved | Operator::Fragment);
        if crossing {
            Scope::Crossing
        } else {
            Scope::Segment
        }
    }

    /// Whether `written`, text of the variable's value in the URI, holds something the template
    /// may write next, where shortest-first (section 1 of the semantics) could end it.
    pub(super) fn holds_next(&self, written: &str) -> bool {
        let written = canonical(written);
        self.next.iter().any(|unit| written.contains(unit.as_str()))
    }

    /// The character between items of the variable's exploded list.
    pub(super) fn item_separator(&self) -> char {
        char::from(self.op.separator())
    }

    /// Whether a default router needs the variable present and non-empty.
    pub(crate) fn required(&self) -> bool {
        !self.in_tail
    }
}

/// The places of a template's variables, and whether it has lints.
pub(super) struct Layout {
    pub(crate) places: Vec<Place>,
    pub(crate) lint_free: bool,
}

impl Layout {
    pub(crate) fn of(template: &UriTemplate) -> Self {
        let components: Vec<Component<'_>> = template.components().collect();
        let tail_start = GenTemplate::from(template).tail_start();
        let mut places = Vec::new();
        let mut expression = 0;
        for (i, component) in components.iter().enumerate() {
            let Component::Expression(e) = component else {
                continue;
            };
            expression += 1;
            let next = next_units(&components[i + 1..]);
            let op = e.operator();
            let separated = op.is_named() || matches!(op, Operator::Simple | Operator::Path);
            let alone = e.variables().len() == 1;
            for v in e.variables() {
                places.push(Place {
                    name: v.name().to_owned(),
                    op,
                    exploded: v.is_exploded(),
                    prefix: v.prefix(),
                    in_tail: i >= tail_start,
                    delimited: alone || separated,
                    expression,
                    in_list: !alone && !op.is_named(),
                    next: next.clone(),
                });
            }
        }
        Self {
            places,
            // A repeated name is a warning of agreement, not of an ambiguous reading.
            lint_free: template
                .lints()
                .iter()
                .all(|l| l.kind() == crate::template::LintKind::RepeatedName)
                && !separator_then_literal(&components),
        }
    }
}

/// Whether an expression that writes its separator (more than one variable, or an explode) is
/// followed by a literal that starts with it: `{?k,t}&{+s*}` on `?k=1&t=2&x` reads the `&`
/// after `k` as the literal (a literal outranks a variable), leaving `t` undefined, where the
/// values that wrote it had `t` defined. No lint names that reading, so no label may pin it.
fn separator_then_literal(components: &[Component<'_>]) -> bool {
    components.windows(2).any(|pair| match pair {
        [Component::Expression(e), Component::Literal(text)] => {
            let writes_separator =
                e.variables().len() > 1 || e.variables().any(|v| v.is_exploded());
            writes_separator && text.as_bytes().first() == Some(&e.operator().separator())
        }
        // Nor where an expression that writes a prefix is followed by one that starts with the
        // same byte: `{/a}{/b:1}` on `/a` gives `a`, where the values had `a` undefined.
        [Component::Expression(e), Component::Expression(f)] => {
            let prefix = |x: &crate::template::Expression<'_>| x.operator().prefix().bytes().next();
            prefix(e).is_some() && prefix(e) == prefix(f)
        }
        _ => false,
    })
}

/// What the template may write first after an expression, followed by `rest`: see
/// [`Place::next`]. Literals compare in canonical form (section 4 of the semantics: `%2E` is a
/// `.`, and `é` is `%C3%A9`).
fn next_units(rest: &[Component<'_>]) -> Vec<String> {
    let mut units = Vec::new();
    for component in rest {
        match component {
            Component::Expression(e) => {
                units.extend(e.operator().prefix().chars().map(String::from))
            }
            Component::Literal(text) => {
                let text = canonical(text);
                let len = if text.starts_with('%') {
                    3
                } else {
                    text.chars().next().map_or(0, char::len_utf8)
                };
                units.push(text[..len.min(text.len())].to_owned());
                break;
            }
        }
    }
    units
}
