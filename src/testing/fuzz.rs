//! Builders from a fuzzer's bytes ([`arbitrary::Unstructured`]), for cargo-fuzz targets: the
//! same values, cases and hostile URIs as the proptest strategies, from the same [`Piece`]s.

use arbitrary::{Arbitrary, Result, Unstructured};

use super::case::Case;
use super::hostile::{spellings, splice, Hostile};
use super::pieces::{string_of, Piece};
use super::shape::shape_values;
use super::template::GenTemplate;
use super::value::{Value, Values};
use crate::UriTemplate;

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
        pieces.push((*u.choose(&Piece::ALL)?, u32::arbitrary(u)?));
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

/// Values for every distinct variable of `template`, in order, each possibly undefined; not
/// shaped, so that expansion sees everything (a list under a prefix included).
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

/// A case of `template`: [`values_for`], shaped to the round-trip domain, expanded.
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
/// [`arbitrary::Error::NotEnoughData`] when the template has no variable.
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
        return Err(arbitrary::Error::NotEnoughData);
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
