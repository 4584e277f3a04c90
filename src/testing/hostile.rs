//! Hostile variants of a URI: for one variable, the spellings a client or an attacker may send
//! in its place, each labelled with what a default router must do with it.
//!
//! Nothing here is a list of payloads. A few *base* texts state each safety rule's cases
//! (section 7 of the [semantics](crate::semantics)) and a few benign look-alikes that must get
//! through; *spellings* turn each base into URI text by the means RFC 3986 gives (a triplet for
//! any octet, §2.1; unreserved characters equal their triplets, §2.3; `%` itself encoded, which
//! is double encoding, §2.4) and RFC 3629 forbids (overlong forms, surrogates, stray bytes).
//! Look-alikes come from [`LOOK_ALIKES`](crate::safety::LOOK_ALIKES).

use std::collections::BTreeSet;

use super::case::{Case, Expected, expand_alone};
use super::layout::{Layout, Place};
use super::oracle::{decode, fault, is_unreserved, normalize};
use super::pieces::encode_char;
use super::value::{Value, Values};
use crate::UriTemplate;
use crate::matching::Malformed;
use crate::safety::{LOOK_ALIKES, SafetyPolicy};
use crate::template::Operator;

/// One base text: what a value should decode to, by what it tries.
struct Base {
    name: String,
    text: String,
}

/// The bases, simplest first. Each rule's cases come from its definition; the benign ones
/// resemble an attack and must be delivered unchanged.
fn bases() -> Vec<Base> {
    let base = |name: &str, text: &str| Base {
        name: name.to_owned(),
        text: text.to_owned(),
    };
    let mut all = vec![
        base("dot-dot", ".."),
        base("dot-dot-up", "../x"),
        base("dot-dot-inside", "a/../b"),
        base("dot-dot-backslash", "..\\x"),
        base("separator", "a/b"),
        base("separator-backslash", "a\\b"),
        base("absolute", "/x"),
        base("absolute-backslash", "\\x"),
        base("unc", "\\\\h\\s"),
        base("drive", "C:x"),
        base("drive-backslash", "C:\\x"),
        base("drive-in-segment", "d/C:x"),
        base("nul", "a\0b"),
        base("line-feed", "a\nb"),
        base("delete", "a\x7f"),
        base("triplet-text", "%2e%2e"),
        base("benign-dots", "v1..v2"),
        base("benign-ellipsis", "..."),
        base("benign-dotfile", ".gitignore"),
        base("benign-plus", "a+b.txt"),
        base("benign-percent", "100%.txt"),
        base("benign-parens", "report(1).pdf"),
        base("benign-at", "ada@example.com"),
        base("benign-colon", "notes:2024.md"),
        base("benign-question", "what?.md"),
        base("benign-tilde", "~user"),
        base("benign-non-ascii", "caf\u{e9}.md"),
    ];
    // Look-alikes: each character whose NFKC form is made of `.`, `/` or `\`, put where that
    // form would make a dot segment or a separator.
    for (c, form) in LOOK_ALIKES {
        let text = match form {
            "." => format!("{c}{c}"),
            ".." | "..." => c.to_string(),
            _ => format!("a{c}b"),
        };
        all.push(Base {
            name: format!("look-alike-u{:04x}", u32::from(c)),
            text,
        });
    }
    all.push(base("look-alike-up", "\u{ff0e}\u{ff0e}\u{ff0f}x"));
    all
}

/// A way of writing a base into a URI.
#[derive(Clone, Copy)]
enum Spell {
    /// As a client library expands it.
    Expanded,
    /// As it is, unencoded.
    Raw,
    /// Every `.` as `%2E` (or `%2e`).
    DotsEncoded(bool),
    /// Every `/` as `%2F` and `\` as `%5C` (or lower-case).
    SeparatorsEncoded(bool),
    /// Every character as the triplets of its UTF-8.
    AllEncoded,
    /// Every character as triplets, and each `%` of those as `%25`.
    DoubleEncoded,
    /// Every `.`, `/`, `\` as a two-byte overlong UTF-8 form (RFC 3629 forbids it).
    Overlong2,
    /// ... or a three-byte one.
    Overlong3,
}

const SPELLS: [(Spell, &str); 10] = [
    (Spell::Expanded, "expanded"),
    (Spell::Raw, "raw"),
    (Spell::DotsEncoded(false), "dots-encoded"),
    (Spell::DotsEncoded(true), "dots-encoded-lower"),
    (Spell::SeparatorsEncoded(false), "separators-encoded"),
    (Spell::SeparatorsEncoded(true), "separators-encoded-lower"),
    (Spell::AllEncoded, "all-encoded"),
    (Spell::DoubleEncoded, "double-encoded"),
    (Spell::Overlong2, "overlong"),
    (Spell::Overlong3, "overlong-3"),
];

impl Spell {
    /// The URI text of `base` for the variable at `place`; `None` where the spelling changes
    /// nothing that another does not.
    fn write(self, base: &str, place: &Place) -> Option<String> {
        let encode_if = |hit: &dyn Fn(char) -> bool, lower: bool| {
            base.chars()
                .map(|c| {
                    if hit(c) {
                        encode_char(c, lower)
                    } else {
                        c.to_string()
                    }
                })
                .collect::<String>()
        };
        let text = match self {
            Self::Expanded => expand_alone(place, base, None),
            Self::Raw => base.to_owned(),
            Self::DotsEncoded(lower) => encode_if(&|c| c == '.', lower),
            Self::SeparatorsEncoded(lower) => encode_if(&|c| c == '/' || c == '\\', lower),
            Self::AllEncoded => encode_if(&|_| true, false),
            Self::DoubleEncoded => encode_if(&|_| true, false).replace('%', "%25"),
            Self::Overlong2 | Self::Overlong3 => base
                .chars()
                .map(|c| match c {
                    '.' | '/' | '\\' => overlong(c as u8, matches!(self, Self::Overlong3)),
                    c => c.to_string(),
                })
                .collect(),
        };
        let changed = match self {
            Self::DotsEncoded(_) => base.contains('.'),
            Self::Overlong2 | Self::Overlong3 => base.contains(['.', '/', '\\']),
            Self::SeparatorsEncoded(_) => base.contains(['/', '\\']),
            _ => true,
        };
        changed.then_some(text)
    }
}

/// An ASCII byte's overlong UTF-8 form, as triplets: `.` is `%C0%AE` in two bytes.
fn overlong(b: u8, three: bool) -> String {
    if three {
        format!("%E0%{:02X}%{:02X}", 0x80 | (b >> 6), 0x80 | (b & 0x3F))
    } else {
        format!("%{:02X}%{:02X}", 0xC0 | (b >> 6), 0x80 | (b & 0x3F))
    }
}

/// Texts that are faulty on their own, after a plain `a`: bytes that are not UTF-8 and `%`s
/// that start no triplet.
fn faulty() -> Vec<(&'static str, String)> {
    let mut all: Vec<(&'static str, String)> = vec![
        ("stray-continuation", "a%80".into()),
        ("truncated", "a%C3x".into()),
        ("surrogate", "a%ED%A0%80".into()),
        ("past-u10ffff", "a%F4%90%80%80".into()),
        ("invalid-byte", "a%FF".into()),
        ("lone-percent", "a%".into()),
        ("short-triplet", "a%4".into()),
        ("non-hex-triplet", "a%G0".into()),
    ];
    all.sort_by_key(|(_, t)| t.len());
    all
}

/// A hostile variant of a case: a URI with one variable's place written by a spelling, and
/// what matching and routing it must give ([`Hostile::case`]).
///
/// ```
/// use rfc6570::testing::{hostile_variants, Expected};
/// use rfc6570::safety::Rule;
///
/// let t = rfc6570::UriTemplate::parse("file:///{+path}")?;
/// let variants = hostile_variants(&t);
/// let v = variants.iter().find(|v| v.spelling() == "dot-dot-up/separators-encoded").unwrap();
/// assert_eq!(v.case().uri(), "file:///..%2Fx");
/// assert_eq!(
///     v.case().expected_route(),
///     &Expected::Unsafe { variable: "path".into(), rule: Rule::DotDotSegment },
/// );
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Hostile {
    case: Case,
    variable: String,
}

impl Hostile {
    /// The case: template, URI, and what matching and a default router must give.
    ///
    /// ```
    /// # let t = rfc6570::UriTemplate::parse("x://{a}")?;
    /// let v = &rfc6570::testing::hostile_variants(&t)[0];
    /// assert!(v.case().uri().starts_with("x://"));
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn case(&self) -> &Case {
        &self.case
    }

    /// The variable whose place the spelling takes.
    ///
    /// ```
    /// # let t = rfc6570::UriTemplate::parse("x://{a}")?;
    /// assert_eq!(rfc6570::testing::hostile_variants(&t)[0].variable(), "a");
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn variable(&self) -> &str {
        &self.variable
    }

    /// The spelling's name: `base/spell`, such as `dot-dot/dots-encoded`.
    ///
    /// ```
    /// # let t = rfc6570::UriTemplate::parse("x://{a}")?;
    /// assert_eq!(rfc6570::testing::hostile_variants(&t)[0].spelling(), "dot-dot/expanded");
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn spelling(&self) -> &str {
        // The case's note is the spelling's name: one string, kept once.
        self.case.note().unwrap_or_default()
    }
}

/// Every hostile variant of `template`, for each variable in order: every base in every
/// spelling, and the faulty texts, each once (two spellings that write the same text are one
/// variant). The other variables hold plain values, so that the label is the variable's own.
/// A name the template uses more than once has none: a text written at one of its places
/// disagrees with the others ([`MatchError::Disagreement`](crate::MatchError::Disagreement)),
/// which says nothing of how the text itself is read.
///
/// Labels are exact where the template pins the variable's value (no lints; a variable that
/// its expression delimits; text its operator can capture and that does not hold what the
/// template writes next). Elsewhere the label is [`Expected::NeverUnsafe`]: whatever the reading,
/// no value that breaks a rule is delivered.
///
/// ```
/// use rfc6570::testing::{hostile_variants, Expected};
/// use rfc6570::matching::Malformed;
///
/// let t = rfc6570::UriTemplate::parse("log://build/{job_id}{?lines}")?;
/// let variants = hostile_variants(&t);
/// let nul = variants.iter().find(|v| v.spelling() == "nul/raw" && v.variable() == "job_id").unwrap();
/// assert_eq!(nul.case().uri(), "log://build/a\0b?lines=zq1w");
/// assert_eq!(
///     nul.case().expected_route(),
///     &Expected::Malformed { position: 13, reason: Malformed::Disallowed { byte: 0 } },
/// );
/// # Ok::<(), rfc6570::Error>(())
/// ```
pub fn hostile_variants(template: &UriTemplate) -> Vec<Hostile> {
    variants_of(template, texts_for)
}

/// The variants of `template` where each variable's place holds each of its `texts`, once
/// each (two spellings that write the same text are one variant).
fn variants_of(
    template: &UriTemplate,
    texts: impl Fn(&Place) -> Vec<(String, String)>,
) -> Vec<Hostile> {
    let layout = Layout::of(template);
    let mut out = Vec::new();
    for (i, place) in layout.places.iter().enumerate() {
        let Some(plain) = Plain::of(template, &layout, i) else {
            continue;
        };
        let mut seen = BTreeSet::new();
        for (spelling, text) in texts(place) {
            if seen.insert(text.clone()) {
                out.push(variant(template, &layout, &plain, &spelling, &text));
            }
        }
    }
    out
}

/// The spelled texts for variable `index` of `template` (in template order), simplest first:
/// `(name, text)` pairs, as [`hostile_variants`] writes them.
#[cfg_attr(not(feature = "arbitrary"), allow(dead_code))]
pub(super) fn spellings(template: &UriTemplate, index: usize) -> Vec<(String, String)> {
    Layout::of(template)
        .places
        .get(index)
        .map(texts_for)
        .unwrap_or_default()
}

/// The spelled texts for one variable, simplest first.
fn texts_for(place: &Place) -> Vec<(String, String)> {
    let mut texts: Vec<_> = bases()
        .iter()
        .flat_map(|base| spell_each(&base.name, &base.text, place))
        .collect();
    for (name, text) in faulty() {
        texts.push((format!("{name}/raw"), text));
    }
    texts
}

/// `text` in every spelling for the variable at `place`, each named `name/spelling`.
fn spell_each(name: &str, text: &str, place: &Place) -> Vec<(String, String)> {
    SPELLS
        .iter()
        .filter_map(|&(spell, spell_name)| {
            let spelled = spell.write(text, place)?;
            Some((format!("{name}/{spell_name}"), spelled))
        })
        .collect()
}

/// Every spelling of one text of your own (a path to a file that must stay out of reach, say)
/// at each variable of `template`, labelled as [`hostile_variants`] labels its own: expanded as
/// a client library writes it, raw, with its dots or separators as triplets, all of it as
/// triplets, doubly encoded, and with overlong UTF-8. Each is named `name/spelling`.
///
/// ```
/// use rfc6570::testing::{spelled_variants, Expected};
/// use rfc6570::safety::Rule;
///
/// let t = rfc6570::UriTemplate::parse("notes://{id}")?;
/// let variants = spelled_variants(&t, "secret", "../../secret.txt");
/// let v = variants.iter().find(|v| v.spelling() == "secret/expanded").unwrap();
/// assert_eq!(v.case().uri(), "notes://..%2F..%2Fsecret.txt");
/// assert_eq!(
///     v.case().expected_route(),
///     &Expected::Unsafe { variable: "id".into(), rule: Rule::DotDotSegment },
/// );
/// // Every character as a triplet, and each `%` of those as `%25`:
/// assert!(variants.iter().any(|v| v.case().uri().starts_with("notes://%252E%252E%252F%252E")));
/// # Ok::<(), rfc6570::Error>(())
/// ```
pub fn spelled_variants(template: &UriTemplate, name: &str, text: &str) -> Vec<Hostile> {
    variants_of(template, |place| spell_each(name, text, place))
}

/// Plain values: unique, unchanged by expansion, and without what the template writes after
/// each (which would end the variable early).
fn sentinels(layout: &Layout) -> Values {
    layout
        .places
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let words = [format!("zq{i}w"), format!("jx{i}k"), format!("{i}Kv")];
            let word = words
                .into_iter()
                .find(|w| !p.holds_next(w))
                .unwrap_or_else(|| format!("{i}"));
            (p.name.clone(), Value::Text(word))
        })
        .collect()
}

/// Whether the plain values of the variables before `index` end where their expressions do.
fn clean_before(layout: &Layout, values: &Values, index: usize) -> bool {
    layout.places[..index].iter().all(|p| {
        let written = values
            .get(&p.name)
            .map(|v| v.strings().collect::<String>())
            .unwrap_or_default();
        p.in_tail || !p.holds_next(&written)
    })
}

/// `template` expanded with plain values, and the place of variable `index` written as `text`
/// instead, labelled; `None` when it cannot be built (no plain value of the variable occurs
/// just once in the URI). The `index` counts variables in template order.
#[cfg_attr(
    not(any(feature = "proptest", feature = "arbitrary")),
    allow(dead_code)
)]
pub(super) fn splice(
    template: &UriTemplate,
    index: usize,
    spelling: &str,
    text: &str,
) -> Option<Hostile> {
    let layout = Layout::of(template);
    let plain = Plain::of(template, &layout, index)?;
    Some(variant(template, &layout, &plain, spelling, text))
}

/// The URI of plain values, with the place of one variable told apart by a value that occurs
/// just once in it.
struct Plain {
    index: usize,
    values: Values,
    uri: String,
    offset: usize,
    len: usize,
}

impl Plain {
    fn of(template: &UriTemplate, layout: &Layout, index: usize) -> Option<Self> {
        let place = layout.places.get(index)?;
        // A repeated name's places must agree: one of them alone cannot be told apart.
        if layout
            .places
            .iter()
            .filter(|p| p.name == place.name)
            .count()
            > 1
        {
            return None;
        }
        let mut values = sentinels(layout);
        let words = [
            format!("zq{index}w"),
            format!("jx{index}k"),
            format!("{index}Kq"),
        ];
        let letters = ["w", "k", "q", "j", "x", "Z", "Q", "W"].map(String::from);
        words.into_iter().chain(letters).find_map(|word| {
            // Under a prefix the value is cut to fit, so that expansion writes all of it.
            let word: String = match place.prefix {
                Some(n) => word.chars().take(usize::from(n)).collect(),
                None => word,
            };
            values.set(place.name.clone(), Value::Text(word.clone()));
            let uri = template.expand(&values).ok()?;
            let offset = uri.find(&word)?;
            let once = !uri[offset + 1..].contains(&word);
            once.then(|| Self {
                index,
                values: values.clone(),
                uri,
                offset,
                len: word.len(),
            })
        })
    }
}

/// The variant of `plain` with its variable's place written as `text`.
fn variant(
    template: &UriTemplate,
    layout: &Layout,
    plain: &Plain,
    spelling: &str,
    text: &str,
) -> Hostile {
    let place = &layout.places[plain.index];
    let (offset, uri) = (plain.offset, &plain.uri);
    let uri = format!("{}{text}{}", &uri[..offset], &uri[offset + plain.len..]);
    let (matched, routed) = if clean_before(layout, &plain.values, plain.index) {
        label(layout, place, &uri, text, offset)
    } else {
        (Expected::Any, Expected::NeverUnsafe)
    };
    let mut values = plain.values.clone();
    values.set(
        place.name.clone(),
        Value::Text(decode(text).unwrap_or_else(|_| text.to_owned())),
    );
    let case = Case {
        template: template.clone(),
        values,
        uri,
        matched,
        routed,
        note: Some(spelling.to_owned()),
    };
    Hostile {
        case,
        variable: place.name.clone(),
    }
}

/// What matching and a default router must give for `uri`, where `text` at `offset` took the
/// place of the variable at `place` and the rest is plain.
fn label(
    layout: &Layout,
    place: &Place,
    uri: &str,
    text: &str,
    offset: usize,
) -> (Expected, Expected) {
    let malformed =
        |(position, reason): (usize, Malformed)| Expected::Malformed { position, reason };
    let in_uri = fault(uri);
    // Characters a URI may not hold and broken `%`s are found before any matching.
    if let Some(found @ (_, Malformed::Disallowed { .. } | Malformed::InvalidPercentEncoding)) =
        in_uri
    {
        return (malformed(found), malformed(found));
    }
    // The text on its own must read as it does in the URI: `%4` before a literal `1` is a
    // triplet there.
    let in_text = fault(text).map(|(at, reason)| (offset + at, reason));
    if in_uri != in_text || !pinned(layout, place, text) {
        return (Expected::Any, Expected::NeverUnsafe);
    }
    if let Some(found) = in_text {
        return (malformed(found), malformed(found));
    }
    let decoded = decode(text).expect("no fault");
    // An exploded variable with one item captures a list of it.
    let value = if place.exploded {
        Value::List(vec![decoded.clone()])
    } else {
        Value::Text(decoded.clone())
    };
    let exact = Values::new().with(place.name.clone(), value);
    let matched = Expected::Match {
        exact,
        round_trip: false,
    };
    let routed = match SafetyPolicy::STRICT.verdict(&decoded, place.scope()) {
        Err(rule) => Expected::Unsafe {
            variable: place.name.clone(),
            rule,
        },
        Ok(()) => matched.clone(),
    };
    (matched, routed)
}

/// Whether the template pins what the variable captures when its place holds `text`.
fn pinned(layout: &Layout, place: &Place, text: &str) -> bool {
    layout.lint_free
        && place.delimited
        && place.prefix.is_none()
        && !(place.exploded && normalize(text).contains(place.item_separator()))
        && !text.is_empty()
        && text.chars().all(|c| capturable(place, c))
        && !place.holds_next(text)
}

/// Whether a variable at `place` captures `c` raw, by the operator's rules and the lenient
/// reading of sub-delimiters (section 2 of the semantics), leaving out every character that
/// can separate something there.
fn capturable(place: &Place, c: char) -> bool {
    if !c.is_ascii() || is_unreserved(c as u8) || c == '%' {
        return true;
    }
    let crossing = !place.in_tail && matches!(place.op, Operator::Reserved | Operator::Fragment);
    match c {
        '!' | '$' | '\'' | '(' | ')' | '*' | '+' | ':' | '@' => true,
        '/' | ';' | '=' => crossing,
        '?' => crossing && place.op == Operator::Fragment,
        _ => false,
    }
}
