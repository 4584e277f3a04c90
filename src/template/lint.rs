//! Lints: valid templates that cannot be matched back unambiguously.
//!
//! A lint is computed from the parsed form alone, in one pass over its nodes, and never
//! changes what a template matches. Two kinds (a repeated name, a query after the fragment)
//! are shapes that matching refuses outright; as lints they are reported where only the
//! template is read. What a variable *can hold* is what its expansion can write
//! there, with the one exception that matching keeps: `{+v}` never takes `?` or `#`.
//!
//! * `{#v}`: every unreserved and reserved character;
//! * `{+v}`: the same but `?` and `#`;
//! * any other operator: the unreserved characters (of the operator characters, only `.`),
//!   and for an exploded `{/v*}` also the `/` that joins its items.
//!
//! Every variable holds percent-triplets, so a literal `%XX` or a non-ASCII literal character
//! (matched as its triplets) ends none.

use std::fmt;

use super::node::{Node, Operator, VarNode};
use super::parts::VarSpec;
use crate::pct;

/// What a [`Lint`] is about. Each kind has a stable [`code`](Self::code).
///
/// ```
/// use rfc6570::UriTemplate;
/// use rfc6570::template::LintKind;
///
/// let t = UriTemplate::parse("{+path}{ext}")?;
/// let kinds: Vec<LintKind> = t.lints().iter().map(|l| l.kind()).collect();
/// assert_eq!(kinds, [LintKind::AdjacentVariables]);
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LintKind {
    /// A variable follows another with nothing the template writes between them that can end
    /// the first: consecutive expressions with no literal between them, where the second
    /// writes no prefix (`{a}{b}`, `{+path}{ext}`, `{a}{+b}`) or one that the first variable
    /// can hold (`{a}{.b}`: `.` is unreserved; `{+a}{/b}`: `{+a}` holds `/`); or, inside one
    /// `{.a,b}` or `{/a*,b}`, a separator that the first variable can hold. `{a}{/b}`,
    /// `{a}{?q}`, `{+a}{?q}`, `{a,b}` and `{a}.{b}` are not adjacent: `,` separates the
    /// variables of `{..}`, `{+..}` and `{#..}` expressions, names separate those of named
    /// ones, and any literal counts as an end.
    AdjacentVariables,
    /// More than one variable that can cross `/` (those of `{+..}` and `{#..}`, and exploded
    /// `{/v*}`; `{+a,b}` has two), with nothing between them that ends the first: `{+a}/{+b}`.
    /// A literal character the first cannot hold ends it (`{+path}?{+q}`), and so does the `#`
    /// of a `{#..}` expression after a `{+..}` or `{/..*}`, which cannot hold it
    /// (`{+path}{#section}` is clean).
    SeveralCrossing,
    /// A variable name used more than once (`{x}/{x}`, `{a,b,a}`): its occurrences would have
    /// to capture the same value, which no linear-time match can enforce, so the template
    /// expands but is refused for matching
    /// ([`Unsupported::RepeatedName`](crate::matching::Unsupported::RepeatedName)).
    RepeatedName,
    /// A query expression (`{?..}` or `{&..}`) after a `{#..}` expression or a literal `#`
    /// (`{#f}{?q}`, `x#y{?q}`): in a URI everything after `#` is fragment, so the template
    /// expands but is refused for matching
    /// ([`Unsupported::QueryAfterFragment`](crate::matching::Unsupported::QueryAfterFragment)).
    QueryAfterFragment,
    /// Adjacent variables (as [`AdjacentVariables`](Self::AdjacentVariables)) of which one or
    /// both have a prefix modifier (`{a:3}{b}`), reported instead of `AdjacentVariables`.
    PrefixNextToVariable,
}

impl LintKind {
    /// A stable `snake_case` name for logs and machine-readable output.
    ///
    /// ```
    /// use rfc6570::template::LintKind;
    ///
    /// assert_eq!(LintKind::AdjacentVariables.code(), "adjacent_variables");
    /// assert_eq!(LintKind::QueryAfterFragment.code(), "query_after_fragment");
    /// ```
    pub fn code(self) -> &'static str {
        match self {
            Self::AdjacentVariables => "adjacent_variables",
            Self::SeveralCrossing => "several_crossing",
            Self::RepeatedName => "repeated_name",
            Self::QueryAfterFragment => "query_after_fragment",
            Self::PrefixNextToVariable => "prefix_next_to_variable",
        }
    }
}

/// A valid template's shape that cannot be matched back unambiguously, or, for two kinds, not
/// at all: its kind, where it is, and a sentence that says what, where and how to fix it (its
/// `Display`).
///
/// Given by [`UriTemplate::lints`](crate::UriTemplate::lints), and refused by a router with
/// [`RouterOptions::deny_lints`](crate::router::RouterOptions::deny_lints). The
/// [semantics](crate::semantics) list every kind with an example.
///
/// ```
/// use rfc6570::UriTemplate;
/// use rfc6570::template::LintKind;
///
/// let t = UriTemplate::parse("{a}{b}")?;
/// let lint = &t.lints()[0];
/// assert_eq!((lint.kind(), lint.position(), lint.code()), (LintKind::AdjacentVariables, 4, "adjacent_variables"));
/// assert_eq!(
///     lint.to_string(),
///     "`b` at byte 4 follows `a` with no literal between them, so where one ends is ambiguous; \
///      put a literal between them"
/// );
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Lint {
    kind: LintKind,
    position: usize,
    message: Box<str>,
}

impl Lint {
    /// What the lint is about.
    ///
    /// ```
    /// # use rfc6570::{UriTemplate, template::LintKind};
    /// let t = UriTemplate::parse("{x}/{x}")?;
    /// assert_eq!(t.lints()[0].kind(), LintKind::RepeatedName);
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn kind(&self) -> LintKind {
        self.kind
    }

    /// The byte offset in the template of what is at fault: the first byte of the variable's
    /// name (the later variable of two), or the `{` of the query expression for
    /// [`LintKind::QueryAfterFragment`].
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// assert_eq!(UriTemplate::parse("{x}/{x}")?.lints()[0].position(), 5);
    /// assert_eq!(UriTemplate::parse("x#y{?q}")?.lints()[0].position(), 3);
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn position(&self) -> usize {
        self.position
    }

    /// The kind's stable `snake_case` name, as [`LintKind::code`].
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// assert_eq!(UriTemplate::parse("{+a}/{+b}")?.lints()[0].code(), "several_crossing");
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }
}

impl fmt::Display for Lint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Lint {}

/// A variable of the template, with its expression's operator.
#[derive(Clone, Copy)]
struct Var {
    op: Operator,
    node: VarNode,
}

impl Var {
    fn position(self) -> usize {
        self.node.name_start as usize
    }

    fn spec(self, source: &str) -> VarSpec<'_> {
        VarSpec {
            source,
            node: self.node,
        }
    }

    /// Whether its value can hold the URI byte `c` (see the module's docs).
    fn holds(self, c: u8) -> bool {
        if c == b'%' || !c.is_ascii() {
            return true;
        }
        let any = pct::is_unreserved(c) || pct::is_reserved(c);
        match self.op {
            Operator::Fragment => any,
            Operator::Reserved => any && c != b'?' && c != b'#',
            Operator::Path if self.node.explode => pct::is_unreserved(c) || c == b'/',
            _ => pct::is_unreserved(c),
        }
    }

    fn crosses(self) -> bool {
        self.op.allows_reserved() || (self.op == Operator::Path && self.node.explode)
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

/// Where the fragment starts.
enum Fragment<'t> {
    /// A literal `#`, at this byte.
    Literal(usize),
    /// A `{#..}` expression: its text and offset.
    Expression(&'t str, usize),
}

impl fmt::Display for Fragment<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Literal(at) => write!(f, "the `#` at byte {at}"),
            Self::Expression(text, at) => write!(f, "`{text}` at byte {at}"),
        }
    }
}

/// The lints of the template `source`, parsed into `nodes`, in template order (by position;
/// lints of one variable in the order adjacency, crossing, repeated name), each reported once.
pub(crate) fn lints(source: &str, nodes: &[Node]) -> Vec<Lint> {
    let mut lints = Vec::new();
    let mut push = |kind, position, message: String| {
        lints.push(Lint {
            kind,
            position,
            message: message.into(),
        })
    };
    // The last variable of the expression just before, when no literal came since.
    let mut previous: Option<Var> = None;
    let mut fragment: Option<Fragment<'_>> = None;
    // The variables that can cross `/` and that nothing has ended yet, in order.
    let mut crossing: Vec<Var> = Vec::new();
    // The first variable of each name.
    let mut named: Vec<Var> = Vec::new();
    let mut i = 0;
    while i < nodes.len() {
        let (op, count, start, end) = match nodes[i] {
            Node::Literal { start, end } => {
                let text = &source[start as usize..end as usize];
                if fragment.is_none() {
                    if let Some(at) = text.find('#') {
                        fragment = Some(Fragment::Literal(start as usize + at));
                    }
                }
                crossing.retain(|u| text.bytes().all(|c| u.holds(c)));
                previous = None;
                i += 1;
                continue;
            }
            Node::Expression {
                op,
                vars,
                start,
                end,
            } => (op, usize::from(vars), start as usize, end as usize),
            Node::Var(_) => unreachable!("variables are read with their expression"),
        };
        let text = &source[start..end];
        let after_fragment = op.is_query() && fragment.is_some();
        if let Some(fragment) = fragment.as_ref().filter(|_| after_fragment) {
            push(
                LintKind::QueryAfterFragment,
                start,
                format!(
                    "`{text}` at byte {start} follows the fragment that {fragment} starts, and in \
                     a URI everything after `#` is fragment, so the template cannot be matched; \
                     move it before the fragment"
                ),
            );
        }
        if op == Operator::Fragment {
            crossing.retain(|u| u.holds(b'#'));
            if fragment.is_none() {
                fragment = Some(Fragment::Expression(text, start));
            }
        }
        let mut last: Option<Var> = None;
        for node in &nodes[i + 1..i + 1 + count] {
            let Node::Var(node) = *node else {
                unreachable!("an expression's nodes are variables")
            };
            let v = Var { op, node };
            let before = match last {
                // The first variable: after the previous expression, unless this query
                // expression is already linted for following the fragment.
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
                let (kind, message) = adjacent(source, u, v, &between);
                push(kind, v.position(), message);
            }
            if v.crosses() {
                if let Some(&u) = crossing.first() {
                    push(
                        LintKind::SeveralCrossing,
                        v.position(),
                        format!(
                            "`{}` at byte {} can cross `/`, and so can `{}` at byte {} before it, \
                             with nothing between them that ends it, so where one ends is \
                             ambiguous; let only one of them cross `/` (`{{v}}` and `{{/v}}` \
                             cannot)",
                            v.spec(source),
                            v.position(),
                            u.spec(source),
                            u.position(),
                        ),
                    );
                }
                crossing.push(v);
            }
            let name = v.spec(source).name();
            // Names compare normalized, as matching compares them (`%61` is `a`).
            match named
                .iter()
                .find(|u| crate::pct::equivalent(u.spec(source).name(), name))
            {
                Some(u) => push(
                    LintKind::RepeatedName,
                    v.position(),
                    format!(
                        "`{}` at byte {} repeats the name of `{}` at byte {}, and no match can \
                         make the two agree, so the template cannot be matched; give each its \
                         own name",
                        v.spec(source),
                        v.position(),
                        u.spec(source),
                        u.position(),
                    ),
                ),
                None => named.push(v),
            }
            last = Some(v);
        }
        previous = last;
        i += 1 + count;
    }
    lints
}

/// The kind and sentence for `v` adjacent to `u` before it.
fn adjacent(source: &str, u: Var, v: Var, between: &Between<'_>) -> (LintKind, String) {
    let (su, sv) = (u.spec(source), v.spec(source));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::template::Parsed;

    /// The kind and position of each lint of `template`.
    fn found(template: &str) -> Vec<(LintKind, usize)> {
        Parsed::parse(template)
            .unwrap()
            .lints()
            .iter()
            .map(|l| (l.kind(), l.position()))
            .collect()
    }

    fn messages(template: &str) -> Vec<String> {
        Parsed::parse(template)
            .unwrap()
            .lints()
            .iter()
            .map(|l| l.to_string())
            .collect()
    }

    use LintKind::*;

    #[test]
    fn clean_templates_have_no_lints() {
        for t in [
            "",
            "config://app",
            "file:///{+path}",
            "file:///{+path}{?rev}",
            "file:///{+path}{#section}",
            "log://build/{job_id}{?lines}",
            "search://docs{?q,lang}",
            "x://r{/p*}",
            "{/path*}{?q}",
            "{a}/{b}",
            "{name}.txt",
            "{a}.{b}",
            "{a,b}",
            "{a:3,b}",
            "{+a}?{+b}",
            "{/a*}:{/b*}",
            "{a}{/b}",
            "{a}{?q}",
            "{+a}{?q}",
            "{+a}{#f}",
            "{a}{;b}",
            "{;a,b}",
            "{?a,b}{&c}",
            "{/a,b}",
            "x{?a}#{f}",
            "users://{id}/profile",
            "notes://{id}",
        ] {
            assert_eq!(found(t), [], "{t}");
        }
    }

    #[test]
    fn adjacent_variables() {
        assert_eq!(found("{a}{b}"), [(AdjacentVariables, 4)]);
        assert_eq!(found("{+path}{ext}"), [(AdjacentVariables, 8)]);
        assert_eq!(found("{a}{+b}"), [(AdjacentVariables, 5)]);
        // A prefix that the first variable can hold.
        assert_eq!(found("{a}{.b}"), [(AdjacentVariables, 5)]);
        assert_eq!(found("{+a}{/b}"), [(AdjacentVariables, 6)]);
        assert_eq!(found("{/a*}{/b}"), [(AdjacentVariables, 7)]);
        assert_eq!(found("{+a}{&q}"), [(AdjacentVariables, 6)]);
        // A separator the first variable can hold, inside one expression.
        assert_eq!(found("{.a,b}"), [(AdjacentVariables, 4)]);
        assert_eq!(found("{/a*,b}"), [(AdjacentVariables, 5)]);
        // The last variable of one expression and the first of the next.
        assert_eq!(found("x{a,b}{c}"), [(AdjacentVariables, 7)]);
        // Each pair once, in order.
        assert_eq!(
            found("{a}{b}{c}"),
            [(AdjacentVariables, 4), (AdjacentVariables, 7)]
        );
        assert_eq!(
            messages("{+path}{ext}"),
            [
                "`ext` at byte 8 follows `path` with no literal between them, so where one ends \
              is ambiguous; put a literal between them"
            ]
        );
        assert_eq!(
            messages("{a}{.b}"),
            [
                "`b` at byte 5 follows `a` with only the `.` that `{.b}` writes between them, \
              which `a` can hold too, so where one ends is ambiguous; put a literal between them"
            ]
        );
        assert_eq!(
            messages("{.a,b}"),
            [
                "`b` at byte 4 follows `a` in `{.a,b}` with only its separator `.` between them, \
              which `a` can hold too, so where one ends is ambiguous; split them into two \
              expressions with a literal between them"
            ]
        );
    }

    #[test]
    fn several_crossing() {
        assert_eq!(found("{+a}/{+b}"), [(SeveralCrossing, 7)]);
        assert_eq!(found("{+a,b}"), [(SeveralCrossing, 4)]);
        assert_eq!(found("x{/p*}/{+q}"), [(SeveralCrossing, 9)]);
        // The `#` of `{#..}` ends `{/p*}`.
        assert_eq!(found("x{/p*}/y{#f}"), []);
        assert_eq!(found("{#f}/{+g}"), [(SeveralCrossing, 7)]);
        // Every later one, naming the first still open.
        assert_eq!(
            found("{+a}/{+b}/{+c}"),
            [(SeveralCrossing, 7), (SeveralCrossing, 12)]
        );
        // A `?` ends `{+a}`, but not a `{#..}`'s value.
        assert_eq!(found("{+a}?{+b}"), []);
        assert_eq!(found("{#a}?{+b}"), [(SeveralCrossing, 7)]);
        // Adjacent as well: two lints of the same variable, adjacency first.
        assert_eq!(
            found("{+a}{+b}"),
            [(AdjacentVariables, 6), (SeveralCrossing, 6)]
        );
        assert_eq!(
            messages("{+a}/{+b}"),
            [
                "`b` at byte 7 can cross `/`, and so can `a` at byte 2 before it, with nothing \
              between them that ends it, so where one ends is ambiguous; let only one of them \
              cross `/` (`{v}` and `{/v}` cannot)"
            ]
        );
    }

    #[test]
    fn repeated_name() {
        assert_eq!(found("{x}/{x}"), [(RepeatedName, 5)]);
        assert_eq!(found("{a,b,a}"), [(RepeatedName, 5)]);
        assert_eq!(
            found("{x}/{y}/{x}/{x}"),
            [(RepeatedName, 9), (RepeatedName, 13)]
        );
        assert_eq!(found("o/{h:2}/{h}"), [(RepeatedName, 9)]);
        assert_eq!(found("{x}/{xy}"), []);
        assert_eq!(
            messages("{x}/{x}"),
            [
                "`x` at byte 5 repeats the name of `x` at byte 1, and no match can make the two \
                 agree, so the template cannot be matched; give each its own name"
            ]
        );
    }

    #[test]
    fn query_after_fragment() {
        assert_eq!(found("{#f}{?q}"), [(QueryAfterFragment, 4)]);
        assert_eq!(found("x#y{?q}"), [(QueryAfterFragment, 3)]);
        assert_eq!(found("x{#f}/{&q}"), [(QueryAfterFragment, 6)]);
        // Each query expression after the fragment.
        assert_eq!(
            found("#{?a}{&b}"),
            [(QueryAfterFragment, 1), (QueryAfterFragment, 5)]
        );
        assert_eq!(found("x{?q}#y"), []);
        assert_eq!(found("x{?q}{#f}"), []);
        assert_eq!(
            messages("{#f}{?q}"),
            [
                "`{?q}` at byte 4 follows the fragment that `{#f}` at byte 0 starts, and in a URI \
                 everything after `#` is fragment, so the template cannot be matched; move it \
                 before the fragment"
            ]
        );
        assert_eq!(
            messages("x#y{?q}"),
            ["`{?q}` at byte 3 follows the fragment that the `#` at byte 1 starts, and in a URI \
              everything after `#` is fragment, so the template cannot be matched; move it \
              before the fragment"]
        );
    }

    #[test]
    fn prefix_next_to_variable() {
        assert_eq!(found("{a:3}{b}"), [(PrefixNextToVariable, 6)]);
        assert_eq!(found("{a}{b:2}"), [(PrefixNextToVariable, 4)]);
        assert_eq!(found("{a:3}{.b}"), [(PrefixNextToVariable, 7)]);
        assert_eq!(found("{a:3}/{b}"), []);
        assert_eq!(found("{a:3,b}"), []);
        assert_eq!(
            messages("{a:3}{b}"),
            [
                "`b` at byte 6 follows the prefix variable `a:3` with no literal between them, so \
              where one ends is ambiguous; put a literal between them, or drop the prefix \
              modifier"
            ]
        );
    }

    #[test]
    fn lints_come_in_template_order() {
        let t = "{#f}{?q}{x}{x}";
        assert_eq!(
            found(t),
            [
                (QueryAfterFragment, 4),
                (AdjacentVariables, 9),
                (AdjacentVariables, 12),
                (RepeatedName, 12)
            ]
        );
    }
}
