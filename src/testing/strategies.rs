//! proptest strategies: templates of every operator and modifier, values made of [`Piece`]s,
//! cases for a template, and hostile variants.
//!
//! Everything shrinks towards the plain: pieces towards unreserved text and small seeds,
//! templates towards fewer and simpler parts, hostile variants towards the first (simplest)
//! spelling of the first variable.

use proptest::prelude::*;
use proptest::sample::select;

use super::case::Case;
use super::hostile::{Hostile, hostile_variants, splice};
use super::pieces::{Piece, encode_char, string_of, triplet};
use super::shape::{shape_template, shape_values};
use super::template::{GenModifier, GenPart, GenSpec, GenTemplate};
use super::value::{Value, Values};
use crate::UriTemplate;
use crate::template::Operator;

/// A piece and its seed; see [`Piece::text`].
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let (piece, seed) = rfc6570::testing::strategies::pieces()
///     .new_tree(&mut TestRunner::deterministic()).unwrap().current();
/// assert!(!piece.text(seed).is_empty());
/// ```
pub fn pieces() -> impl Strategy<Value = (Piece, u32)> {
    (0..Piece::ALL.len(), any::<u32>()).prop_map(|(i, seed)| (Piece::ALL[i], seed))
}

/// A string of up to six [`pieces`], sometimes empty.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let s = rfc6570::testing::strategies::strings().new_tree(&mut runner).unwrap().current();
/// assert!(s.chars().count() <= 6 * 12);
/// ```
pub fn strings() -> impl Strategy<Value = String> {
    prop::collection::vec(pieces(), 0..=6).prop_map(|p| string_of(&p))
}

/// As [`strings`], never empty.
fn nonempty_strings() -> impl Strategy<Value = String> {
    prop::collection::vec(pieces(), 1..=6).prop_map(|p| string_of(&p))
}

/// A string, a list (possibly empty) or a map (possibly empty, a key possibly repeated).
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let v = rfc6570::testing::strategies::values().new_tree(&mut TestRunner::deterministic()).unwrap().current();
/// let _ = v.strings().count();
/// ```
pub fn values() -> impl Strategy<Value = Value> {
    values_from(strings().boxed())
}

fn values_from(s: BoxedStrategy<String>) -> impl Strategy<Value = Value> {
    prop_oneof![
        5 => s.clone().prop_map(Value::Text),
        2 => prop::collection::vec(s.clone(), 0..4).prop_map(Value::List),
        2 => prop::collection::vec((s.clone(), s), 0..4).prop_map(Value::Map),
    ]
}

/// Values for `template`'s variables, in the round-trip domain ([`shape_values`]): each
/// variable defined with a chance of 85 %.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let t = rfc6570::UriTemplate::parse("{a:2}")?;
/// let mut runner = TestRunner::deterministic();
/// let values = rfc6570::testing::strategies::values_for(&t).new_tree(&mut runner).unwrap().current();
/// assert!(values.iter().all(|(_, v)| matches!(v, rfc6570::testing::Value::Text(_))));
/// # Ok::<(), rfc6570::Error>(())
/// ```
pub fn values_for(template: &UriTemplate) -> impl Strategy<Value = Values> + use<> {
    let g = GenTemplate::from(template);
    let names = distinct_names(&g);
    let each = prop::option::weighted(0.85, values());
    prop::collection::vec(each, names.len()).prop_map(move |values| {
        let values = names
            .iter()
            .zip(values)
            .filter_map(|(n, v)| Some((n.clone(), v?)))
            .collect();
        shape_values(&g, &values)
    })
}

/// Cases a router must route to `template`: every variable outside the query holds a value
/// with no empty string (a router requires them), query variables may be undefined, and the
/// values are shaped to the round-trip domain.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// use rfc6570::Router;
///
/// let t = rfc6570::UriTemplate::parse("log://build/{job_id}{?lines}")?;
/// let mut router = Router::new();
/// router.insert(t.as_str(), ())?;
/// let mut runner = TestRunner::deterministic();
/// for _ in 0..100 {
///     let case = rfc6570::testing::strategies::cases(&t).new_tree(&mut runner).unwrap().current();
///     case.check_route(&router.at(case.uri()))?;
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn cases(template: &UriTemplate) -> impl Strategy<Value = Case> + use<> {
    let g = GenTemplate::from(template);
    let tail: Vec<String> = g.tail_specs().map(|(_, s)| s.name.clone()).collect();
    let names = distinct_names(&g);
    let per_name: Vec<BoxedStrategy<Option<Value>>> = names
        .iter()
        .map(|n| {
            if tail.contains(n) {
                prop::option::weighted(0.85, values()).boxed()
            } else {
                values_from(nonempty_strings().boxed())
                    .prop_filter("a value for a path variable", |v| !v.is_undefined())
                    .prop_map(Some)
                    .boxed()
            }
        })
        .collect();
    let template = template.clone();
    per_name.prop_filter_map("a case that expands", move |values| {
        let values: Values = names
            .iter()
            .zip(values)
            .filter_map(|(n, v)| Some((n.clone(), v?)))
            .collect();
        // Shaping may empty a value (`{+a}` holds no `?`): such a case is not for a router.
        let values = shape_values(&g, &values);
        let emptied = names.iter().filter(|n| !tail.contains(n)).any(|n| {
            values
                .get(n)
                .is_none_or(|v| v.is_undefined() || v.strings().any(str::is_empty))
        });
        (!emptied)
            .then(|| Case::new(&template, values).ok())
            .flatten()
    })
}

fn distinct_names(g: &GenTemplate) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for (_, spec) in g.specs() {
        if !names.contains(&spec.name) {
            names.push(spec.name.clone());
        }
    }
    names
}

/// Half [`cases`], half [`hostile`] variants' cases: every kind of URI a client could send for
/// `template`, each with what a router must do with it.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// use rfc6570::Router;
///
/// let t = rfc6570::UriTemplate::parse("file:///{+path}")?;
/// let mut router = Router::new();
/// router.insert(t.as_str(), ())?;
/// let mut runner = TestRunner::deterministic();
/// for _ in 0..100 {
///     let case = rfc6570::testing::strategies::all_cases(&t).new_tree(&mut runner).unwrap().current();
///     case.check_route(&router.at(case.uri()))?;
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn all_cases(template: &UriTemplate) -> impl Strategy<Value = Case> + use<> {
    if hostile_variants(template).is_empty() {
        // A template without variables has no hostile variant: its cases are all there is.
        return cases(template).boxed();
    }
    prop_oneof![
        cases(template),
        hostile(template).prop_map(|h| h.case().clone()),
    ]
    .boxed()
}

/// A hostile variant of `template`: one of its [`hostile_variants`] (shrinking towards the
/// first), or, as often, one variable's place written as any string of [`pieces`], raw, and
/// labelled by the same rules. A template without variables has none, and the strategy
/// rejects every case: [`all_cases`] serves any template.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let t = rfc6570::UriTemplate::parse("file:///{+path}")?;
/// let mut runner = TestRunner::deterministic();
/// let v = rfc6570::testing::strategies::hostile(&t).new_tree(&mut runner).unwrap().current();
/// assert_eq!(v.variable(), "path");
/// # Ok::<(), rfc6570::Error>(())
/// ```
pub fn hostile(template: &UriTemplate) -> impl Strategy<Value = Hostile> + use<> {
    let variants = hostile_variants(template);
    let listed = (0..variants.len().max(1))
        .prop_filter_map("a template with variables", move |i| {
            variants.get(i).cloned()
        });
    let count = template.variables().count().max(1);
    let t = template.clone();
    let spliced = (0..count, prop::collection::vec(pieces(), 1..6)).prop_filter_map(
        "a variable whose plain value survives expansion",
        move |(index, p)| splice(&t, index, "pieces/raw", &string_of(&p)),
    );
    prop_oneof![listed, spliced]
}

/// Any valid template: literals (ASCII, non-ASCII, triplets) and up to six parts, expressions
/// of every operator with up to four specs, prefixes and explode. Names may repeat.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// for _ in 0..100 {
///     let t = rfc6570::testing::strategies::templates().new_tree(&mut runner).unwrap().current();
///     assert!(t.parse().is_ok(), "{t}");
/// }
/// ```
pub fn templates() -> impl Strategy<Value = GenTemplate> {
    templates_with(
        varname(any_triplet().boxed()).boxed(),
        literal(any_triplet().boxed()).boxed(),
    )
}

/// Templates for matching: every name distinct (a `_N` suffix), names and literals whose
/// triplets encode whole UTF-8 characters that expansion would encode too, and query
/// expressions only in the query tail ([`shape_template`]).
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let t = rfc6570::testing::strategies::matchable_templates().new_tree(&mut runner).unwrap().current();
/// assert!(t.parse().is_ok());
/// ```
pub fn matchable_templates() -> impl Strategy<Value = GenTemplate> {
    let encoded = prop_oneof![
        select(
            " !\"#$%&'()*+,/:;<=>?@[\\]^`{|}"
                .chars()
                .collect::<Vec<_>>()
        ),
        prop::char::range('\u{80}', char::MAX),
    ];
    let name_triplets = (encoded, any::<bool>()).prop_map(|(c, lower)| encode_char(c, lower));
    templates_with(
        varname(name_triplets.boxed()).boxed(),
        literal(char_triplets().boxed()).boxed(),
    )
    .prop_map(|t| shape_template(t.with_distinct_names()))
}

/// A template for matching ([`matchable_templates`]) and values for it (any, empty ones
/// included), shaped to the round-trip domain, as a case.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// for _ in 0..50 {
///     let case = rfc6570::testing::strategies::round_trip_cases().new_tree(&mut runner).unwrap().current();
///     case.check_match(&case.template().match_uri(case.uri()))?;
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn round_trip_cases() -> impl Strategy<Value = Case> {
    cases_of(matchable_templates())
}

/// A template of `templates` and values for it ([`values_for`]), as a case.
fn cases_of(templates: impl Strategy<Value = GenTemplate>) -> impl Strategy<Value = Case> {
    templates
        .prop_flat_map(|g| {
            let t = g.parse().expect("generated templates are valid");
            let values = values_for(&t);
            (Just(t), values)
        })
        .prop_filter_map("a case that expands", |(t, values)| {
            Case::new(&t, values).ok()
        })
}

/// Templates for matching that use a name more than once, as RFC 6570 allows
/// (`{/var:1,var}`, `dict://{term:1}/{term}`), of those that matching serves (the rule
/// `RepeatedAmbiguous` refuses the others): a fifth are [`matchable_templates`] with a later
/// variable renamed after an earlier one, the others built of segments (single-variable
/// expressions of a few names, with prefixes and explodes, each ended by a literal that starts
/// with `/`, and a query tail that may name them again).
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// for _ in 0..20 {
///     let g = rfc6570::testing::strategies::repeated_name_templates().new_tree(&mut runner).unwrap().current();
///     let t = g.parse()?;
///     let names: Vec<&str> = t.variables().map(|v| v.name()).collect();
///     assert!((1..names.len()).any(|i| names[..i].contains(&names[i])), "{t}");
///     assert!(t.lints().iter().all(|l| !l.kind().refuses()), "{t}");
/// }
/// # Ok::<(), rfc6570::Error>(())
/// ```
pub fn repeated_name_templates() -> impl Strategy<Value = GenTemplate> {
    let renamed = (
        matchable_templates(),
        any::<prop::sample::Index>(),
        any::<prop::sample::Index>(),
    )
        .prop_filter_map("a renamed template that matching serves", |(g, a, b)| {
            let count = g.specs().count();
            let (a, b) = (a.index(count.max(1)), b.index(count.max(1)));
            (a != b).then(|| rename(g, a.max(b), a.min(b)))
        });
    // Each expression ends at a `/`, which none of these can hold: most such templates are
    // served.
    let segment = (
        select(vec![Operator::Simple, Operator::Label, Operator::PathParam]),
        select(vec!["a", "b"]),
        prop_oneof![
            3 => Just(GenModifier::None),
            1 => (1u16..4).prop_map(GenModifier::Prefix),
            1 => Just(GenModifier::Explode),
        ],
        select(vec!["/", "/x/", "/-"]),
    );
    let tail = prop::collection::vec(select(vec!["a", "b", "q"]), 0..3);
    let built = ("[a-z]{1,3}://", prop::collection::vec(segment, 2..5), tail).prop_map(
        |(scheme, segments, tail)| {
            let mut parts = vec![GenPart::Literal(scheme)];
            for (op, name, modifier, literal) in segments {
                let spec = GenSpec {
                    name: name.into(),
                    modifier,
                };
                parts.push(GenPart::Expression(op, vec![spec]));
                parts.push(GenPart::Literal(literal.into()));
            }
            if !tail.is_empty() {
                let specs = tail
                    .into_iter()
                    .map(|name| GenSpec {
                        name: name.into(),
                        modifier: GenModifier::None,
                    })
                    .collect();
                parts.push(GenPart::Expression(Operator::Query, specs));
            }
            GenTemplate { parts }
        },
    );
    prop_oneof![1 => renamed, 4 => built].prop_filter("a repeated name that matching serves", |g| {
        g.parse().is_ok_and(|t| {
            let names: Vec<&str> = t.variables().map(|v| v.name()).collect();
            let repeats = (1..names.len()).any(|i| names[..i].contains(&names[i]));
            repeats && t.lints().iter().all(|l| !l.kind().refuses())
        })
    })
}

/// `g` with variable `later` renamed after variable `earlier`.
fn rename(mut g: GenTemplate, later: usize, earlier: usize) -> GenTemplate {
    let name = g
        .specs()
        .nth(earlier)
        .map(|(_, s)| s.name.clone())
        .unwrap_or_default();
    let specs = g.parts.iter_mut().flat_map(|p| match p {
        GenPart::Expression(_, specs) => specs.iter_mut().collect(),
        GenPart::Literal(_) => Vec::new(),
    });
    if let Some(spec) = specs.into_iter().nth(later) {
        spec.name = name;
    }
    g
}

/// A template that repeats a name ([`repeated_name_templates`]) and values for it, shaped to
/// the round-trip domain, as a case: what expansion writes must match back, each name with
/// one value.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// for _ in 0..20 {
///     let case = rfc6570::testing::strategies::repeated_round_trip_cases().new_tree(&mut runner).unwrap().current();
///     case.check_match(&case.template().match_uri(case.uri()))?;
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn repeated_round_trip_cases() -> impl Strategy<Value = Case> {
    cases_of(repeated_name_templates())
}

/// A URI-like string: URI characters, triplets (valid, not UTF-8, malformed), non-ASCII.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let uri = rfc6570::testing::strategies::uri_like().new_tree(&mut runner).unwrap().current();
/// assert!(uri.chars().count() <= 24 * 12);
/// ```
pub fn uri_like() -> impl Strategy<Value = String> {
    let atom = prop_oneof![
        4 => "[a-z0-9]{1,3}",
        4 => select(":/?#[]@!$&'()*+,;=.-_~%".chars().collect::<Vec<_>>()).prop_map(String::from),
        1 => any_triplet(),
        1 => char_triplets(),
        1 => any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(atom, 0..24).prop_map(|a| a.concat())
}

/// A `%XX` triplet with any hex digits, in either case.
fn any_triplet() -> impl Strategy<Value = String> {
    (any::<u8>(), any::<bool>()).prop_map(|(b, lower)| triplet(b, lower))
}

/// The triplets that encode one character's UTF-8, hex in either case.
fn char_triplets() -> impl Strategy<Value = String> {
    (any::<char>(), any::<bool>()).prop_map(|(c, lower)| encode_char(c, lower))
}

/// One `literals` unit of RFC 6570 §2.1: an allowed ASCII character, a non-ASCII `ucschar` or
/// `iprivate` character, or a triplet.
fn literal_unit(triplet: BoxedStrategy<String>) -> impl Strategy<Value = String> {
    const ASCII: &str = "!#$&()*+,-./0123456789:;=?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]_\
                         abcdefghijklmnopqrstuvwxyz~'";
    prop_oneof![
        6 => select(ASCII.chars().collect::<Vec<_>>()).prop_map(String::from),
        1 => prop_oneof![
            prop::char::range('\u{A0}', '\u{D7FF}'),
            prop::char::range('\u{F900}', '\u{FDCF}'),
            prop::char::range('\u{FDF0}', '\u{FFEF}'),
            prop::char::range('\u{10000}', '\u{1FFFD}'),
            prop::char::range('\u{E000}', '\u{F8FF}'),
            prop::char::range('\u{100000}', '\u{10FFFD}'),
        ]
        .prop_map(String::from),
        1 => triplet,
    ]
}

fn literal(triplet: BoxedStrategy<String>) -> impl Strategy<Value = String> {
    prop::collection::vec(literal_unit(triplet), 1..6).prop_map(|units| units.concat())
}

/// A `varname`: varchars (ALPHA, DIGIT, `_`, triplets) with single dots between them.
fn varname(triplet: BoxedStrategy<String>) -> impl Strategy<Value = String> {
    let varchar = prop_oneof![
        8 => "[A-Za-z0-9_]".prop_map(String::from),
        1 => triplet,
    ];
    let segment = prop::collection::vec(varchar, 1..4).prop_map(|v| v.concat());
    prop::collection::vec(segment, 1..3).prop_map(|segments| segments.join("."))
}

fn modifier() -> impl Strategy<Value = GenModifier> {
    prop_oneof![
        4 => Just(GenModifier::None),
        1 => prop_oneof![1u16..6, 1u16..=9999].prop_map(GenModifier::Prefix),
        2 => Just(GenModifier::Explode),
    ]
}

fn templates_with(
    name: BoxedStrategy<String>,
    literal: BoxedStrategy<String>,
) -> impl Strategy<Value = GenTemplate> {
    let spec = (name, modifier()).prop_map(|(name, modifier)| GenSpec { name, modifier });
    let expression = (
        select(Operator::ALL.to_vec()),
        prop::collection::vec(spec, 1..5),
    )
        .prop_map(|(op, specs)| GenPart::Expression(op, specs));
    let part = prop_oneof![literal.prop_map(GenPart::Literal), expression];
    prop::collection::vec(part, 0..7).prop_map(|parts| GenTemplate { parts })
}
