//! Lints: valid templates that cannot be matched back, or not unambiguously. A [`Lint`] is one
//! finding of one of the rules in `rules`, with its kind, where it is and a sentence; the kind
//! says whether matching refuses the template or only warns of it.

use std::fmt;

/// What a [`Lint`] is about: one rule of the templates that cannot be matched back, or not
/// unambiguously. Each has a stable [`code`](Self::code), a sentence (its `Display`), and
/// either [refuses](Self::refuses) the template for matching (then
/// [`match_uri`](crate::UriTemplate::match_uri) answers
/// [`Unsupported::Shape`](crate::matching::Unsupported::Shape) with it, and a router will not
/// take the template) or only warns of it.
///
/// ```
/// use rfc6570::UriTemplate;
/// use rfc6570::template::LintKind;
///
/// let t = UriTemplate::parse("{+path}{ext}")?;
/// let kinds: Vec<LintKind> = t.lints().iter().map(|l| l.kind()).collect();
/// assert_eq!(kinds, [LintKind::AdjacentVariables]);
/// assert!(!LintKind::AdjacentVariables.refuses());
/// assert!(LintKind::QueryAfterFragment.refuses());
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
    /// ones, and any literal counts as an end. A warning.
    AdjacentVariables,
    /// More than one variable that can cross `/` (those of `{+..}` and `{#..}`, and exploded
    /// `{/v*}`; `{+a,b}` has two), with nothing between them that ends the first: `{+a}/{+b}`.
    /// A literal character the first cannot hold ends it (`{+path}?{+q}`), and so does the `#`
    /// of a `{#..}` expression after a `{+..}` or `{/..*}`, which cannot hold it
    /// (`{+path}{#section}` is clean). A warning.
    SeveralCrossing,
    /// Adjacent variables (as [`AdjacentVariables`](Self::AdjacentVariables)) of which one or
    /// both have a prefix modifier (`{a:3}{b}`), reported instead of `AdjacentVariables`. A
    /// warning.
    PrefixNextToVariable,
    /// A variable name used more than once (`{x}/{x}`, `{/var:1,var}`): a URI matches only
    /// where its occurrences agree (the [semantics](crate::semantics), section 15). A
    /// warning, which [`MatchOptions::refuse_repeated_names`](crate::matching::MatchOptions::refuse_repeated_names)
    /// makes a refusal.
    RepeatedName,
    /// A name used more than once whose agreement the places a match chose cannot decide:
    /// a variable before its last occurrence outside the query tail has no place that the
    /// URI fixes (`{+x}/{+x}`, `{a}.{x}.{x}`, `{/a}{/x}/{x}`), so a match could place the
    /// occurrences where they disagree while another placing agrees; or the name has a prefix
    /// in one place and is exploded in another (`{p:2}/{p*}`), or is exploded where its items
    /// can hold their separator (`{.l*}`, `{+l*}`) or in the query tail, so that its value is
    /// not fixed. Every expression up to the last occurrence must be followed by a literal
    /// whose first character it neither holds nor writes, or end the head before a query
    /// tail it cannot hold the start of; an expression with a repeated name must hold no
    /// other name; and one whose values can hold its separator (`{.who,who}`, found by
    /// length) must hold whole values only. Refused.
    RepeatedAmbiguous,
    /// A variable name holding a percent-triplet that does not decode to UTF-8
    /// (`{?na%FFme*}`), which an exploded named variable writes into the URI. Refused.
    NameNotUtf8,
    /// A query expression (`{?..}` or `{&..}`) after a `{#..}` expression or a literal `#`
    /// (`{#f}{?q}`, `x#y{?q}`): in a URI everything after `#` is fragment, so no query can
    /// follow it. Refused.
    QueryAfterFragment,
    /// A query expression before the template's trailing query expressions, with something
    /// else between them (`{?a}/x{&b}`): its `?` would end the head's reading early. Refused.
    QueryBeforeTail,
    /// A `{?..}` expression after another query expression at the end of the template
    /// (`x{&a}{?b}`), which writes `?` inside the query (`{&..}` is what belongs there).
    /// Refused.
    QueryAfterQuery,
    /// A `{+v}` in the query before a trailing `{&..}` (`x{+v}{&q}`): the `&` that starts the
    /// trailing expressions could as well be part of the value. Refused.
    AmbiguousQueryStart,
    /// More than one exploded variable in the trailing query expressions (`{?a*,b*}`): each
    /// would collect the same undeclared parameters. Refused.
    SeveralExplodedInQuery,
    /// An exploded variable outside the trailing query expressions, followed with no literal
    /// between by another exploded variable (`{.m*,n*}`), or, for the named operators (`{;m*}`,
    /// `{?m*}`, `{&m*}`), by any variable (`{;m*,l*}`, `x{?m*}{?n*}y`), that it can run into:
    /// as a map, its entries could take what the next variable writes (`.k=v`, `;l`, `?n=1`),
    /// and so hold a key twice where another reading fits. Where the next variable starts
    /// with a character the first cannot hold (`x{/path*}{;filters*}`), it is served. Refused.
    ExplodedBeforeVariable,
    /// A variable outside the trailing query expressions followed, with no literal between, by
    /// an exploded variable whose first entry it can hold the start of (`{a}{m*}`,
    /// `{+path}{/m*}`, `{#a}{;m*}`): the reading that gives the first variable the shortest
    /// value could leave the map a key twice (`{+a}{m*}` on `=,=`, from `a = "="` and
    /// `m = {"": ""}`) where another reading fits. Where the exploded variable starts with a
    /// character the first cannot hold (`{a}{/m*}`, `{a,m*}`), or is a list (`{+a,m*}`), it is
    /// served. Refused.
    VariableBeforeExploded,
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
            Self::PrefixNextToVariable => "prefix_next_to_variable",
            Self::RepeatedName => "repeated_name",
            Self::RepeatedAmbiguous => "repeated_ambiguous",
            Self::NameNotUtf8 => "name_not_utf8",
            Self::QueryAfterFragment => "query_after_fragment",
            Self::QueryBeforeTail => "query_before_tail",
            Self::QueryAfterQuery => "query_after_query",
            Self::AmbiguousQueryStart => "ambiguous_query_start",
            Self::SeveralExplodedInQuery => "several_exploded_in_query",
            Self::ExplodedBeforeVariable => "exploded_before_variable",
            Self::VariableBeforeExploded => "variable_before_exploded",
        }
    }

    /// Whether matching refuses a template with this lint: some URI would otherwise get a
    /// wrong assignment, or none could be found in linear time. The others are warnings:
    /// such a template matches, by the documented rule, where its reading is ambiguous, or
    /// (a repeated name) where its occurrences agree.
    ///
    /// ```
    /// use rfc6570::template::LintKind;
    ///
    /// assert!(LintKind::RepeatedAmbiguous.refuses());
    /// assert!(!LintKind::RepeatedName.refuses());
    /// assert!(!LintKind::SeveralCrossing.refuses());
    /// ```
    pub fn refuses(self) -> bool {
        !matches!(
            self,
            Self::AdjacentVariables
                | Self::SeveralCrossing
                | Self::PrefixNextToVariable
                | Self::RepeatedName
        )
    }
}

/// The rule in one sentence, without a template's names and places (a [`Lint`] has those).
///
/// ```
/// use rfc6570::template::LintKind;
///
/// assert_eq!(
///     LintKind::QueryAfterQuery.to_string(),
///     "its query tail has a `{?..}` expression after another one, which writes `?` inside \
///      the query (use `{&..}` there)"
/// );
/// ```
impl fmt::Display for LintKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::AdjacentVariables => {
                "two variables follow each other with nothing between them that ends the first"
            }
            Self::SeveralCrossing => {
                "two variables that can cross `/` follow each other with nothing between them \
                 that ends the first"
            }
            Self::PrefixNextToVariable => {
                "a prefix variable and another follow each other with nothing between them \
                 that ends the first"
            }
            Self::RepeatedName => {
                "a variable name is used more than once, and a URI matches only where its \
                 occurrences agree"
            }
            Self::RepeatedAmbiguous => {
                "a repeated name's occurrences could be read where they disagree while another \
                 reading agrees, or its value's kind is not fixed"
            }
            Self::NameNotUtf8 => "a variable name holds percent-encoded bytes that are not UTF-8",
            Self::QueryAfterFragment => {
                "it has a query expression after a fragment, where a URI has no query"
            }
            Self::QueryBeforeTail => {
                "it has a query expression before other parts and then more query \
                 expressions; keep the query expressions together at the end"
            }
            Self::QueryAfterQuery => {
                "its query tail has a `{?..}` expression after another one, which writes `?` \
                 inside the query (use `{&..}` there)"
            }
            Self::AmbiguousQueryStart => {
                "a `{+..}` expression stands before a `{&..}` query expression and could hold \
                 the `&` that starts it"
            }
            Self::SeveralExplodedInQuery => {
                "its query expressions have more than one exploded variable, which would share \
                 the undeclared parameters"
            }
            Self::ExplodedBeforeVariable => {
                "an exploded variable is followed, with no literal between, by a variable whose \
                 items its map could take"
            }
            Self::VariableBeforeExploded => {
                "a variable is followed, with no literal between, by an exploded variable whose \
                 map's entries it could take part of"
            }
        })
    }
}

/// A valid template's shape that cannot be matched back unambiguously, or, where its kind
/// [refuses](LintKind::refuses) it, not at all: its kind, where it is, and a sentence that
/// says what, where and how to fix it (its `Display`).
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
    pub(super) fn new(kind: LintKind, position: usize, message: String) -> Self {
        Self {
            kind,
            position,
            message: message.into(),
        }
    }

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
    /// name (the later variable of two), or, for the rules of query expressions
    /// ([`QueryAfterFragment`](LintKind::QueryAfterFragment),
    /// [`QueryBeforeTail`](LintKind::QueryBeforeTail),
    /// [`QueryAfterQuery`](LintKind::QueryAfterQuery),
    /// [`AmbiguousQueryStart`](LintKind::AmbiguousQueryStart)), the `{` of the expression.
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
