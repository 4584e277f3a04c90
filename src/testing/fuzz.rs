//! Builders from a fuzzer's bytes ([`arbitrary::Unstructured`]), for cargo-fuzz targets: the
//! same values, cases and hostile URIs as the proptest strategies, from the same [`Piece`]s.

use arbitrary::{Arbitrary, Result, Unstructured};

use super::case::Case;
use super::hostile::{Hostile, spellings, splice};
use super::pieces::{Piece, string_of};
use super::shape::shape_values;
use super::template::{GenModifier, GenPart, GenSpec, GenTemplate};
use super::value::{Value, Values};
use crate::UriTemplate;
use crate::template::Operator;

/// A string: mostly [`Piece`]s, sometimes any Unicode.
///
/// ```
/// use arbitrary::Unstructured;
///
/// let mut u = Unstructured::new(&[1, 0, 0, 0, 0, 0]);
/// let s = rfc6570::testing::fuzz::string(&mut u)?;
/// assert!(s.len() < 64);
/// # Ok::<(), arbitrary::Error>(())
/// ```
pub fn string(u: &mut Unstructured<'_>) -> Result<String> {
    if u.ratio(1, 8)? {
        return String::arbitrary(u);
    }
    let count = u.int_in_range(0..=6)?;
    let mut pieces = Vec::with_capacity(count);
    for _ in 0..count {
        pieces.push((*u.choose(Piece::ALL)?, u32::arbitrary(u)?));
    }
    Ok(string_of(&pieces))
}

impl<'a> Arbitrary<'a> for Value {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(match u.int_in_range(0..=8)? {
            0..=4 => Value::Text(string(u)?),
            5 | 6 => {
                let n = u.int_in_range(0..=3)?;
                Value::List((0..n).map(|_| string(u)).collect::<Result<_>>()?)
            }
            _ => {
                let n = u.int_in_range(0..=3)?;
                Value::Map(
                    (0..n)
                        .map(|_| Ok((string(u)?, string(u)?)))
                        .collect::<Result<_>>()?,
                )
            }
        })
    }
}

/// A random valid template, as [`strategies::templates`](super::strategies) makes them (with
/// feature `proptest`): up to six parts, literals of ASCII, non-ASCII and triplets, and
/// expressions of every operator with up to four specs, prefixes and explode. For testing
/// another template engine against this one: expand the same values with both.
///
/// ```
/// use arbitrary::Unstructured;
///
/// let bytes: Vec<u8> = (0..64u8).map(|i| i.wrapping_mul(37)).collect();
/// let t = rfc6570::testing::fuzz::template(&mut Unstructured::new(&bytes))?;
/// assert!(t.parse().is_ok(), "{t}");
/// # Ok::<(), arbitrary::Error>(())
/// ```
pub fn template(u: &mut Unstructured<'_>) -> Result<GenTemplate> {
    const LITERAL: &[u8] = b"abcXYZ019-._~:/?#[]@!$&'()*+,;=";
    const NAME: &[u8] = b"abcxyzXYZ019_";
    let mut parts = Vec::new();
    for _ in 0..u.int_in_range(0..=6)? {
        if u.arbitrary()? {
            let mut text = String::new();
            for _ in 0..u.int_in_range(1..=5)? {
                match u.int_in_range(0..=7)? {
                    0 => text.push_str(&super::pieces::triplet(u.arbitrary()?, u.arbitrary()?)),
                    1 => text.push(*u.choose(&['\u{e9}', '\u{4e2d}', '\u{1f600}', '\u{e000}'])?),
                    _ => text.push(char::from(*u.choose(LITERAL)?)),
                }
            }
            parts.push(GenPart::Literal(text));
            continue;
        }
        let op = *u.choose(&Operator::ALL)?;
        let mut specs = Vec::new();
        for _ in 0..u.int_in_range(1..=4)? {
            let mut name: String = (0..u.int_in_range(1..=3)?)
                .map(|_| u.choose(NAME).map(|&b| char::from(b)))
                .collect::<Result<_>>()?;
            if u.ratio(1, 8)? {
                name.push('.');
                name.push(char::from(*u.choose(NAME)?));
            }
            let modifier = match u.int_in_range(0..=6)? {
                0 => GenModifier::Prefix(u.int_in_range(1..=9999)?),
                1 | 2 => GenModifier::Explode,
                _ => GenModifier::None,
            };
            specs.push(GenSpec { name, modifier });
        }
        parts.push(GenPart::Expression(op, specs));
    }
    Ok(GenTemplate { parts })
}

/// Values for every distinct variable of `template`, in order, each possibly undefined; not
/// shaped (unlike [`strategies::values_for`](super::strategies)), so that expansion sees
/// everything (a list under a prefix included). [`case`] shapes them.
///
/// ```
/// use arbitrary::Unstructured;
///
/// let t = rfc6570::UriTemplate::parse("{a}{b}")?;
/// let values = rfc6570::testing::fuzz::values_for(&t, &mut Unstructured::new(b"\x01\x02\x03"))?;
/// assert!(values.len() <= 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn values_for(template: &UriTemplate, u: &mut Unstructured<'_>) -> Result<Values> {
    let mut values = Values::new();
    for spec in template.variables() {
        if values.get(spec.name()).is_none() && !u.ratio(1, 8)? {
            values.set(spec.name(), Value::arbitrary(u)?);
        }
    }
    Ok(values)
}

/// A case of `template`: [`values_for`], shaped to the round-trip domain, expanded. Unlike
/// [`strategies::cases`](super::strategies), a variable may be undefined or empty, and a
/// router then answers "not found", as the case's label says.
///
/// ```
/// use arbitrary::Unstructured;
///
/// let t = rfc6570::UriTemplate::parse("log://build/{job_id}")?;
/// let case = rfc6570::testing::fuzz::case(&t, &mut Unstructured::new(b"\x00\x05abc"))?;
/// assert!(case.uri().starts_with("log://build/"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn case(template: &UriTemplate, u: &mut Unstructured<'_>) -> Result<Case> {
    let values = shape_values(&GenTemplate::from(template), &values_for(template, u)?);
    Case::new(template, values).map_err(|_| arbitrary::Error::IncorrectFormat)
}

/// One of `template`'s [`hostile_variants`](super::hostile_variants), or, as often, a URI with
/// one variable's place written as any text (pieces, raw), labelled by the same rules.
/// [`arbitrary::Error::IncorrectFormat`] when the template has no variable.
///
/// ```
/// use arbitrary::Unstructured;
///
/// let t = rfc6570::UriTemplate::parse("file:///{+path}")?;
/// let v = rfc6570::testing::fuzz::hostile(&t, &mut Unstructured::new(b"\x00\x07"))?;
/// assert_eq!(v.variable(), "path");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn hostile(template: &UriTemplate, u: &mut Unstructured<'_>) -> Result<Hostile> {
    let count = template.variables().count();
    if count == 0 {
        return Err(arbitrary::Error::IncorrectFormat);
    }
    let listed = u.arbitrary()?;
    let index = u.choose_index(count)?;
    let (name, text) = if listed {
        // One spelling, not all of them: a fuzzer runs this for every input.
        u.choose(&spellings(template, index))?.clone()
    } else {
        ("fuzzed/raw".to_owned(), string(u)?)
    };
    splice(template, index, &name, &text).ok_or(arbitrary::Error::IncorrectFormat)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fixed pseudo-random buffers (xorshift), the same on every run.
    fn buffers() -> impl Iterator<Item = Vec<u8>> {
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        (0..3000).map(move |i| {
            (0..8 + i % 120)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state as u8
                })
                .collect()
        })
    }

    #[test]
    fn every_built_template_parses_and_every_case_expands() {
        let mut operators = std::collections::BTreeSet::new();
        for bytes in buffers() {
            let mut u = Unstructured::new(&bytes);
            let Ok(g) = template(&mut u) else { continue };
            let t = g.parse().unwrap_or_else(|e| panic!("{g}: {e}"));
            operators.extend(t.expressions().map(|e| e.operator()));
            if let Ok(case) = case(&t, &mut u) {
                assert!(case.uri().is_ascii(), "{}", case.uri());
            }
        }
        assert_eq!(operators.len(), 8, "every operator: {operators:?}");
    }
}
