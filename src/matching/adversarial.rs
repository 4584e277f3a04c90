//! The adversarial shapes of the semantics (Cost and limits): matching stays linear in the
//! URI. Linearity is checked by counting VM steps at two input sizes, never by wall-clock time;
//! the step counter exists only in test builds, so these tests live inside the crate.

use super::vm;
use crate::{MatchError, UriTemplate};

fn steps(template: &UriTemplate, uri: &str) -> (Result<usize, MatchError>, u64) {
    let outcome = template.match_uri(uri).map(|c| c.len());
    (outcome, vm::last_steps())
}

/// Runs the shape at n and 10n separators and checks the work grew by at most about 10 (a
/// quadratic matcher would grow by 100), and stays within a small constant per byte.
fn assert_linear(template: &str, make_uri: impl Fn(usize) -> String) {
    let t = UriTemplate::parse(template).unwrap();
    let (_, small) = steps(&t, &make_uri(10_000));
    let (outcome, large) = steps(&t, &make_uri(100_000));
    let ratio = large as f64 / small.max(1) as f64;
    let per_byte = large as f64 / make_uri(100_000).len() as f64;
    assert!(
        ratio < 11.5 && per_byte < 64.0,
        "{template}: {small} steps at 10k, {large} at 100k (x{ratio:.1}, {per_byte:.1}/byte); outcome {outcome:?}"
    );
}

#[test]
fn reserved_expressions_with_many_slashes() {
    assert_linear("x://{+a}/{+b}/{+c}/end", |n| {
        format!("x://{}", "/".repeat(n))
    });
    assert_linear("x://{+a}/{+b}/{+c}/end", |n| {
        format!("x://{}end", "a/".repeat(n))
    });
}

#[test]
fn simple_expressions_with_many_dashes() {
    assert_linear("x://{a}-{b}-{c}.z", |n| format!("x://{}", "-".repeat(n)));
    assert_linear("x://{a}-{b}-{c}.z", |n| format!("x://{}.y", "a-".repeat(n)));
}

#[test]
fn exploded_path_with_many_commas() {
    assert_linear("x://r{/id*}", |n| format!("x://r/{}", ",".repeat(n / 2)));
    assert_linear("x://r{/id*}", |n| format!("x://r{}", "/".repeat(n)));
    assert_linear("x://r{/id*}", |n| format!("x://r{}", "/a,".repeat(n / 3)));
}

#[test]
fn ambiguous_prefixes_stay_linear() {
    assert_linear("{a}{b:9999}", |n| "x".repeat(n));
    assert_linear("{a:3}{b:9999}{c}", |n| "x".repeat(n) + "!");
}

#[test]
fn adversarial_shapes_give_the_expected_answers() {
    let t = UriTemplate::parse("x://{+a}/{+b}/{+c}/end").unwrap();
    let uri = format!("x://{}end", "a/".repeat(100_000));
    let caps = t.match_uri(&uri).unwrap();
    assert_eq!(caps.get("a").unwrap().raw(), "a");
    assert_eq!(caps.get("b").unwrap().raw(), "a");
    assert_eq!(caps.get("c").unwrap().raw().len(), 2 * 100_000 - 5);
    let nothing = format!("x://{}", "/".repeat(100_000));
    assert_eq!(t.match_uri(&nothing).unwrap_err(), MatchError::NoMatch);
}
