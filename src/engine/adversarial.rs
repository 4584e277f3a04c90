//! The adversarial shapes of the semantics (Cost and limits): matching stays linear in the
//! URI. Linearity is checked by counting the work of the engine that served, VM steps or the
//! table's bytes and notes, at two input sizes, never by wall-clock time; the counters exist
//! only in test builds, so these tests live inside the crate. The URIs are longer than the
//! default limit, which is lifted.

use super::{dfa, vm};
use crate::matching::MatchOptions;
use crate::{MatchError, UriTemplate};

/// The outcome of matching `uri`, and the work of each engine: (VM steps, table work).
fn steps(template: &UriTemplate, uri: &str) -> (Result<usize, MatchError>, (u64, u64)) {
    let lifted = MatchOptions::new().max_uri_len(usize::MAX);
    vm::take_steps();
    dfa::take_work();
    let outcome = template.match_uri_with(uri, &lifted).map(|c| c.len());
    (outcome, (vm::take_steps(), dfa::take_work()))
}

/// The work of both engines together.
fn work(template: &UriTemplate, uri: &str) -> (Result<usize, MatchError>, u64) {
    let (outcome, (vm, table)) = steps(template, uri);
    (outcome, vm + table)
}

/// Runs the shape at n and 10n separators and checks the work grew by at most about 10 (a
/// quadratic matcher would grow by 100), and stays within a small constant per byte.
fn assert_linear(template: &str, make_uri: impl Fn(usize) -> String) {
    let t = UriTemplate::parse(template).unwrap();
    let (_, small) = work(&t, &make_uri(10_000));
    let (outcome, large) = work(&t, &make_uri(100_000));
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
    let lifted = MatchOptions::new().max_uri_len(usize::MAX);
    let caps = t.match_uri_with(&uri, &lifted).unwrap();
    assert_eq!(caps.get("a").unwrap().raw(), "a");
    assert_eq!(caps.get("b").unwrap().raw(), "a");
    assert_eq!(caps.get("c").unwrap().raw().len(), 2 * 100_000 - 5);
    let nothing = format!("x://{}", "/".repeat(100_000));
    assert_eq!(
        t.match_uri_with(&nothing, &lifted).unwrap_err(),
        MatchError::NoMatch
    );
}

/// Every shape is served by the VM's table, at a unit and a note per byte at most, prefix
/// modifiers included: their counting loops keep a register each.
#[test]
fn the_table_serves_every_shape() {
    for (template, uri) in [
        (
            "x://{+a}/{+b}/{+c}/end",
            format!("x://{}", "/".repeat(10_000)),
        ),
        (
            "x://{+a}/{+b}/{+c}/end",
            format!("x://{}end", "a/".repeat(5_000)),
        ),
        ("x://{a}-{b}-{c}.z", format!("x://{}", "-".repeat(10_000))),
        ("x://r{/id*}", format!("x://r{}", "/".repeat(10_000))),
        ("{a}{b:9999}", "x".repeat(10_000)),
        ("{a:3}{b:9999}{c}", "x".repeat(10_000) + "!"),
    ] {
        let t = UriTemplate::parse(template).unwrap();
        let (_, (vm, table)) = steps(&t, &uri);
        assert_eq!(vm, 0, "{template}: the VM did not run");
        assert!(
            table > 0 && table <= 4 * uri.len() as u64,
            "{template}: {table}"
        );
    }
}

#[test]
fn repeated_names_stay_linear() {
    // The engine places each occurrence on its own; agreement is one pass after it.
    assert_linear("x{.who,who}", |n| format!("x{}", ".a".repeat(n)));
    assert_linear("x://{a}/{a}", |n| {
        format!("x://{}/{}", "a".repeat(n), "a".repeat(n))
    });
    assert_linear("x{/var:1,var}", |n| format!("x/v/{}", "v".repeat(n)));
    assert_linear("x://{a}/{a}/{b}/{b}", |n| format!("x://{}", "/".repeat(n)));
}

#[test]
fn repeated_names_on_long_uris_give_the_expected_answers() {
    let lifted = MatchOptions::new().max_uri_len(usize::MAX);
    let half = ".a".repeat(50_000);
    let t = UriTemplate::parse("x{.who,who}").unwrap();
    let uri = format!("x{half}{half}");
    let caps = t.match_uri_with(&uri, &lifted).unwrap();
    assert_eq!(caps.get("who").unwrap().raw(), &half[1..]);
    let odd = format!("x{half}{half}.a");
    assert_eq!(
        t.match_uri_with(&odd, &lifted).unwrap_err(),
        MatchError::Disagreement {
            variable: "who".into()
        }
    );
    let t = UriTemplate::parse("x://{a}/{a}").unwrap();
    let long = "a".repeat(100_000);
    let uri = format!("x://{long}/{long}");
    let caps = t.match_uri_with(&uri, &lifted).unwrap();
    assert_eq!(caps.get("a").unwrap().raw().len(), 100_000);
    assert_eq!(
        t.match_uri_with(&format!("x://{long}/{long}b"), &lifted)
            .unwrap_err(),
        MatchError::Disagreement {
            variable: "a".into()
        }
    );
}
