//! What the fuzz targets share: the checks (`tests/it/common/checks.rs`, also replayed on stable by
//! `tests/it/fuzz_regressions.rs`) and the decoding of libFuzzer's bytes into [`checks::Case`]s.
//!
//! Inputs are laid out so that a seed can be written by hand (see `seed.py`): a template, then
//! optionally a NUL byte and the rest. For `match_uri` the rest is the URI. For the targets that
//! take variables, the rest is either a JSON object (as seeds from the test suites write it) or
//! bytes from which `rfc6570::testing::fuzz` (the builders users get) makes one value per
//! variable of the template, in order, so that generated values always meet the template's
//! names.

#[path = "../../tests/it/common/checks.rs"]
pub mod checks;
#[path = "../../tests/it/common/oracle.rs"]
mod oracle;

use arbitrary::Unstructured;
use rfc6570::{testing, UriTemplate};
use serde_json::Value;

use checks::Case;

/// The whole input as a template.
pub fn template(data: &[u8]) -> Case {
    Case {
        template: String::from_utf8_lossy(data).into_owned(),
        ..Case::default()
    }
}

/// A template, NUL, a URI.
pub fn template_and_uri(data: &[u8]) -> Case {
    let (template, uri) = split(data);
    Case {
        template: String::from_utf8_lossy(template).into_owned(),
        uri: Some(String::from_utf8_lossy(uri).into_owned()),
        ..Case::default()
    }
}

/// A template, NUL, and variables: a JSON object, or bytes for `generate`.
pub fn template_and_vars(data: &[u8]) -> Case {
    let (template, rest) = split(data);
    let template = String::from_utf8_lossy(template).into_owned();
    let vars = match serde_json::from_slice::<Value>(rest) {
        Ok(json @ Value::Object(_)) => json,
        _ => generate(&template, rest),
    };
    Case {
        template,
        vars: Some(vars),
        ..Case::default()
    }
}

fn split(data: &[u8]) -> (&[u8], &[u8]) {
    match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[]),
    }
}

/// One generated value for each distinct variable name of the template, in template order:
/// the public builder users' fuzz targets get (`rfc6570::testing::fuzz`), as JSON; then, from
/// the bytes left, some values turned into what only JSON has: null, booleans, numbers, and a
/// list nested in a list (which expansion must refuse).
fn generate(template: &str, bytes: &[u8]) -> Value {
    let mut u = Unstructured::new(bytes);
    let Ok(t) = UriTemplate::parse(template) else {
        return Value::Object(Default::default());
    };
    let mut json = testing::fuzz::values_for(&t, &mut u)
        .map_or(Value::Object(Default::default()), |v| v.to_json());
    if let Value::Object(vars) = &mut json {
        for value in vars.values_mut() {
            if let Ok(Some(other)) = json_only(&mut u, value) {
                *value = other;
            }
        }
    }
    json
}

/// A value of a shape only JSON has, now and then.
fn json_only(u: &mut Unstructured<'_>, value: &Value) -> arbitrary::Result<Option<Value>> {
    Ok(match u.int_in_range(0..=15u8)? {
        0 => Some(Value::Null),
        1 => Some(Value::Bool(u.arbitrary()?)),
        2 => Some(Value::from(u.arbitrary::<i64>()?)),
        3 => serde_json::Number::from_f64(u.arbitrary()?).map(Value::Number),
        4 => Some(Value::Array(vec![value.clone(), Value::Array(vec![value.clone()])])),
        _ => None,
    })
}

/// A template, NUL, and bytes from which `rfc6570::testing::fuzz::hostile` builds a hostile URI
/// of it: matching it and routing it with a default router give what its label says (a
/// template the matcher refuses when it compiles is never answered wrongly: the checks pass
/// it).
pub fn hostile(data: &[u8]) {
    let (template, rest) = split(data);
    let Ok(t) = std::str::from_utf8(template).map(UriTemplate::parse) else {
        return;
    };
    let Ok(t) = t else { return };
    let Ok(hostile) = testing::fuzz::hostile(&t, &mut Unstructured::new(rest)) else {
        return;
    };
    let case = hostile.case();
    if let Err(mismatch) = case.check_match(&t.match_uri(case.uri())) {
        panic!("{mismatch}");
    }
    let mut router = rfc6570::Router::new();
    if router.insert(t.as_str(), ()).is_ok() {
        if let Err(mismatch) = case.check_route(&router.at(case.uri())) {
            panic!("{mismatch}");
        }
    }
}
