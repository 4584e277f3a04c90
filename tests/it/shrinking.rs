//! A failing case shrinks to a short value and prints one line that reproduces it: the
//! template, the URI, the values, what was expected and what came.

use proptest::test_runner::{Config, RngAlgorithm, TestError, TestRng, TestRunner};
use rfc6570::testing::strategies;
use rfc6570::{Router, UriTemplate};

/// A runner for 2,000 cases with a fixed seed, so that the shrunk case is the same on every
/// run, and nothing persisted.
fn runner() -> TestRunner {
    let config = Config {
        cases: 2000,
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
}

/// A gateway with a bug: it unescapes `%25` before passing the URI on.
fn gateway(uri: &str) -> String {
    uri.replace("%25", "%")
}

#[test]
fn a_failing_case_shrinks_to_a_short_value_and_one_line() {
    let t = UriTemplate::parse("file:///{+path}").unwrap();
    let mut router = Router::new();
    router.insert(t.as_str(), ()).unwrap();
    let mut runner = runner();
    let result = runner.run(&strategies::cases(&t), |case| {
        case.check_route(&router.at(&gateway(case.uri())))?;
        Ok(())
    });
    let Err(TestError::Fail(reason, case)) = result else {
        panic!("the gateway's bug was not found: {result:?}");
    };
    // The shrunk value is the bug's essence, one piece: a `%` that a `%25` spelled (`%`,
    // or a triplet's `%` escaped by the round-trip shaping, `%2561`).
    let path: String = case
        .values()
        .get("path")
        .map_or("".into(), |v| v.strings().collect());
    assert!(path.contains('%') && path.len() <= 6, "{path:?}");
    let line = reason.message();
    assert!(!line.contains('\n'), "{line}");
    assert!(
        line.starts_with(r#"template "file:///{+path}" uri "file:///"#),
        "{line}"
    );
    assert!(
        line.contains(" values path=") && line.contains(": expected ") && line.contains(", got "),
        "{line}"
    );
}

#[test]
fn a_failing_random_template_shrinks_to_a_short_one() {
    let mut runner = runner();
    // A gateway with another bug: it lower-cases URIs.
    let result = runner.run(&strategies::round_trip_cases(), |case| {
        let t = case.template();
        let lowered = case.uri().to_lowercase();
        case.check_match(&t.match_uri(&lowered))?;
        Ok(())
    });
    let Err(TestError::Fail(reason, case)) = result else {
        panic!("the gateway's bug was not found: {result:?}");
    };
    let text = case.template().as_str();
    // One part, and the name a few characters with its `_N` suffix: `{a_0}` or `A`.
    assert!(text.chars().count() <= 8, "{text:?}: {}", reason.message());
    assert!(!reason.message().contains('\n'));
}
