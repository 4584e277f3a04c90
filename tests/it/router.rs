//! The router: precedence (in both insertion orders), conflicts, required variables, path
//! safety with attack and benign inputs, the uri-template-router reference set, `safe_join`,
//! and a lookup among 10,000 templates.

use crate::common;

use rfc6570::matching::QueryError;
use rfc6570::matching::{Malformed, MatchOptions};
use rfc6570::router::RouteOptions;
use rfc6570::router::RouterOptions;
use rfc6570::safety::{JoinError, Rule, SafetyPolicy, safe_join_resolved};
use rfc6570::template::LintKind;
use rfc6570::{InsertError, MatchError, RouteError, Router, UriTemplate, safe_join};
use serde_json::{Value, json};

/// Routes `uri` over `templates` inserted in the given order and in reverse, checking that both
/// orders pick the same template, which is returned.
fn winner(templates: &[&str], uri: &str) -> Result<String, RouteError> {
    let pick = |order: Vec<&str>| {
        let mut router = Router::new();
        for t in order {
            router.insert(t, t.to_owned()).unwrap();
        }
        router.at(uri).map(|r| r.value.clone())
    };
    let forward = pick(templates.to_vec());
    let backward = pick(templates.iter().rev().copied().collect());
    assert_eq!(
        forward, backward,
        "insertion order changed the answer for {uri}"
    );
    forward
}

#[test]
fn precedence_follows_the_semantics() {
    let cases: [(&[&str], &str, &str); 7] = [
        (&["/a/{name}.txt", "/a/{any}"], "/a/pg.txt", "/a/{name}.txt"),
        (&["/a/{name}.txt", "/a/{any}"], "/a/pg", "/a/{any}"),
        (&["/docs/{name}", "/{+path}"], "/docs/x", "/docs/{name}"),
        (&["/docs/{name}", "/{+path}"], "/docs/x/y", "/{+path}"),
        (
            &["/docs/index", "/docs/{name}", "/{+path}"],
            "/docs/index",
            "/docs/index",
        ),
        (&["x://{a}/b", "x://a/{b}"], "x://a/b", "x://a/{b}"),
        (
            &["log://{+all}", "log://build/{id}{?lines}"],
            "log://build/7?lines=1",
            "log://build/{id}{?lines}",
        ),
    ];
    for (templates, uri, expected) in cases {
        assert_eq!(winner(templates, uri).as_deref(), Ok(expected), "{uri}");
    }
}

/// A walk that finds nothing compares bytes: where the URI spells a literal with a triplet of
/// an unreserved character, the automaton decides; where it is malformed, the miss says so.
#[test]
fn a_miss_is_decided_by_normalized_units_and_reports_a_malformed_uri() {
    let templates = ["x://a/b/{id}", "x://a/{+rest}.md"];
    assert_eq!(
        winner(&templates, "x://a/%62/7").as_deref(),
        Ok("x://a/b/{id}")
    );
    assert_eq!(winner(&["x://a/b"], "x://a/%62").as_deref(), Ok("x://a/b"));
    assert_eq!(winner(&["x://a/b"], "x://a/c"), Err(RouteError::NotFound));
    assert!(matches!(
        winner(&["x://a/b"], "x://a/c%ZZ"),
        Err(RouteError::Malformed { position: 7, .. })
    ));
    assert_eq!(
        winner(&["x://a/b"], "x://a/b#top").as_deref(),
        Ok("x://a/b")
    );
}

#[test]
fn a_static_template_wins_outright() {
    // `x://a{b}` with `b` empty matches `x://a` with every byte a literal too.
    let mut router = Router::with_options(RouterOptions::new().allow_empty_path_vars(true));
    router.insert("x://a{b}", "dynamic").unwrap();
    router.insert("x://a", "static").unwrap();
    assert_eq!(*router.at("x://a").unwrap().value, "static");
    assert_eq!(*router.at("x://ab").unwrap().value, "dynamic");
}

/// A URI that spells a static template is found by the static table, before any search; one
/// that spells it otherwise (case in the scheme and authority, a triplet of an unreserved
/// character) is found by the search, and nothing else changes: the same template wins,
/// with or without a walk, and a malformed URI is still reported as such.
#[test]
fn a_static_template_is_found_however_the_uri_spells_it() {
    for empty in [false, true] {
        let mut router = Router::with_options(RouterOptions::new().allow_empty_path_vars(empty));
        for t in [
            "Docs://Host/guide/{page}",
            "docs://host/guide/intro",
            "docs://host/{+path}",
            "docs://host/guide/introduction-to-templates",
            "docs://host/guide/introduction-to-template{s}",
        ] {
            router.insert(t, t).unwrap();
        }
        for (uri, winner) in [
            ("docs://host/guide/intro", "docs://host/guide/intro"),
            ("DOCS://HOST/guide/intro", "docs://host/guide/intro"),
            ("docs://host/guide/%69ntro", "docs://host/guide/intro"),
            ("docs://host/guide/Intro", "Docs://Host/guide/{page}"),
            ("docs://host/guide/intro/", "docs://host/{+path}"),
            (
                "docs://host/guide/introduction-to-templates",
                "docs://host/guide/introduction-to-templates",
            ),
            (
                "docs://host/guide/introduction-to-templatez",
                "docs://host/guide/introduction-to-template{s}",
            ),
            (
                "docs://host/guide/introduction_to-templates",
                "Docs://Host/guide/{page}",
            ),
        ] {
            let routed = router.at(uri).unwrap_or_else(|e| panic!("{uri}: {e}"));
            assert_eq!(*routed.value, winner, "{uri} (empty variables: {empty})");
        }
        assert!(matches!(
            router.at("docs://host/guide/intro%zz"),
            Err(RouteError::Malformed { .. })
        ));
    }
}

/// A prefix-modified variable reached at one position by two paths keeps the path that has
/// used fewer characters, and a template is ranked by the assignment it reports (found by
/// `router_oracle`). Here `{+p}{q:2}x` reports `p = .`, `q = a`, whose `.` a crossing
/// variable took, so `{.p}x` outranks it. Its passed-over reading `q = .a` would have tied
/// `{.p}x` and won on the template text: the documented limit of prefix modifiers.
#[test]
fn a_counting_loop_does_not_lend_one_path_s_rank_to_another() {
    let mut router = Router::with_options(RouterOptions::new().allow_empty_path_vars(true));
    router.insert("{.p}x", "label").unwrap();
    router.insert("{+p}{q:2}x", "prefix").unwrap();
    let routed = router.at(".ax").unwrap();
    assert_eq!(*routed.value, "label");
    assert_eq!(routed.captures.get("p").unwrap().decoded(), "a");

    let alone = UriTemplate::parse("{+p}{q:2}x").unwrap();
    let options = MatchOptions::default().allow_empty_path_vars(true);
    let caps = alone.match_uri_with(".ax", &options).unwrap();
    assert_eq!(caps.get("p").unwrap().decoded(), ".");
    assert_eq!(caps.get("q").unwrap().decoded(), "a");
    // Of the paths into `{q:2}`, the one that entered last is kept.
    let caps = alone.match_uri_with(".abx", &options).unwrap();
    assert_eq!(caps.get("p").unwrap().decoded(), ".a");
    assert_eq!(caps.get("q").unwrap().decoded(), "b");
}

/// The same limit in a router that requires path variables: `{+p}{q:3}x` reports
/// `p = ..a`, `q = b` on `..abx`, which ranks below `{+r}{s:1}{+t}x`, though its passed-over
/// reading `p = .`, `q = .ab` would rank above (`match_uri`'s documented limit).
#[test]
fn a_template_is_ranked_by_the_assignment_it_reports() {
    let mut router = Router::new();
    router.insert("{+p}{q:3}x", "pq").unwrap();
    router.insert("{+r}{s:1}{+t}x", "rst").unwrap();
    let routed = router.at("..abx").unwrap();
    assert_eq!(*routed.value, "rst");
    let caps = serde_json::to_value(&routed.captures).unwrap();
    assert_eq!(caps, json!({"r": ".", "s": ".", "t": "ab"}));

    let alone = UriTemplate::parse("{+p}{q:3}x").unwrap();
    let caps = serde_json::to_value(alone.match_uri("..abx").unwrap()).unwrap();
    assert_eq!(caps, json!({"p": "..a", "q": "b"}));
}

#[test]
fn conflicts_name_both_templates() {
    let conflicting = [
        ("x/{a}", "x/{b}"),
        ("x{?a}", "x{?b,c}"),
        ("log://build/{id}", "log://build/{job}"),
        ("static://x", "static://x"),
        ("{/a*}", "{/b*}"),
    ];
    for (first, second) in conflicting {
        let mut router = Router::new();
        router.insert(first, 1).unwrap();
        let err = router.insert(second, 2).unwrap_err();
        assert_eq!(
            err,
            InsertError::Conflict {
                existing: first.into(),
                new: second.into()
            }
        );
        assert!(err.to_string().contains(first) && err.to_string().contains(second));
    }
    let mut router = Router::new();
    for distinct in [
        "x/{a}",
        "x/{a}.txt",
        "x/{+a}",
        "x{/a}",
        "x/{a,b}",
        "x/{;a}",
        "x/{;b}",
    ] {
        router.insert(distinct, ()).unwrap();
    }
    assert_eq!(router.len(), 7);
}

#[test]
fn deny_lints_refuses_linted_templates_only() {
    let mut router = Router::with_options(RouterOptions::new().deny_lints(true));
    let err = router.insert("x://{a}{b}", ()).unwrap_err();
    let lint = UriTemplate::parse("x://{a}{b}").unwrap().lints().remove(0);
    assert_eq!(lint.kind(), LintKind::AdjacentVariables);
    assert_eq!(
        err,
        InsertError::Lint {
            template: "x://{a}{b}".into(),
            lint: lint.clone()
        }
    );
    assert_eq!(err.code(), "lint");
    assert_eq!(err.to_string(), "`x://{a}{b}` matches ambiguously");
    let source = std::error::Error::source(&err).unwrap();
    assert_eq!(source.to_string(), lint.to_string());
    // The first lint, when there are several.
    match router.insert("{+a}{+b}{x}/{x}", ()).unwrap_err() {
        InsertError::Lint { lint, .. } => {
            assert_eq!(
                (lint.kind(), lint.position()),
                (LintKind::RepeatedAmbiguous, 0)
            )
        }
        other => panic!("{other:?}"),
    }
    assert!(router.is_empty());
    // A lint that matching refuses anyway is reported as the lint, checked first.
    let err = router.insert("x://{+x}/{+x}", ()).unwrap_err();
    assert!(
        matches!(err, InsertError::Lint { ref lint, .. } if lint.kind() == LintKind::RepeatedAmbiguous)
    );
    // A repeated name is a warning, which the option denies too.
    let err = router.insert("x://{x}/{x}", ()).unwrap_err();
    assert!(
        matches!(err, InsertError::Lint { ref lint, .. } if lint.kind() == LintKind::RepeatedName)
    );
    let err = Router::new().insert("x://{+x}/{+x}", ()).unwrap_err();
    assert!(matches!(err, InsertError::Unsupported { .. }), "{err:?}");

    // Clean templates go in, and route as without the option.
    for clean in [
        "x://{a}/{b}",
        "file:///{+path}",
        "log://build/{job_id}{?lines}",
    ] {
        router.insert(clean, ()).unwrap();
    }
    assert_eq!(
        router.at("x://1/2").unwrap().template.as_str(),
        "x://{a}/{b}"
    );

    // By default a linted template is accepted and matched as ever (both variables required,
    // the earlier one shortest).
    let mut lenient = Router::new();
    lenient.insert("x://{a}{b}", ()).unwrap();
    let routed = lenient.at("x://abc").unwrap();
    let value = |name| routed.captures.get(name).unwrap().decoded();
    assert_eq!((value("a"), value("b")), ("a".into(), "bc".into()));
}

#[test]
fn path_variables_are_required_unless_allowed() {
    let mut router = Router::new();
    router.insert("users://{id}/profile", ()).unwrap();
    assert_eq!(
        router.at("users:///profile").unwrap_err(),
        RouteError::NotFound
    );
    assert!(router.at("users://ada/profile").is_ok());

    let mut lenient = Router::with_options(RouterOptions::new().allow_empty_path_vars(true));
    lenient.insert("users://{id}/profile", ()).unwrap();
    assert!(lenient.at("users:///profile").is_ok());
}

#[test]
fn query_parameters_are_optional_and_unordered() {
    let mut router = Router::new();
    router.insert("search://docs{?q,lang}", ()).unwrap();
    for uri in [
        "search://docs",
        "search://docs?lang=en",
        "search://docs?lang=en&q=x",
    ] {
        assert!(router.at(uri).is_ok(), "{uri}");
    }
    assert_eq!(
        router.at("search://docs?q=a&q=b").unwrap_err(),
        RouteError::Refused {
            template: "search://docs{?q,lang}".into(),
            source: MatchError::Query(QueryError::DuplicateParameter { name: "q".into() }),
        }
    );
    let mut strict = Router::with_options(RouterOptions::new().strict_query(true));
    strict.insert("search://docs{?q,lang}", ()).unwrap();
    assert_eq!(
        strict.at("search://docs?q=a&utm=b").unwrap_err(),
        RouteError::Refused {
            template: "search://docs{?q,lang}".into(),
            source: MatchError::Query(QueryError::UnexpectedParameter { name: "utm".into() }),
        }
    );
}

fn refusal<T>(router: &Router<T>, uri: &str) -> Option<(String, Rule)> {
    match router.at(uri) {
        Err(RouteError::Unsafe { variable, rule, .. }) => Some((variable, rule)),
        Ok(_) => None,
        Err(other) => panic!("{uri}: {other}"),
    }
}

fn safety_router() -> Router<&'static str> {
    let mut router = Router::new();
    router.insert("file:///{+path}", "files").unwrap();
    router.insert("notes://{id}", "notes").unwrap();
    router.insert("search://docs{?q}", "search").unwrap();
    router
}

#[test]
fn each_safety_rule_refuses_its_attacks() {
    let router = safety_router();
    let attacks = [
        // Encoded once, these are `..` segments (design note, section 7).
        (
            "file:///..%2F..%2Fetc%2Fpasswd",
            "path",
            Rule::DotDotSegment,
        ),
        (
            "file:///%2e%2e/%2e%2e/etc/passwd",
            "path",
            Rule::DotDotSegment,
        ),
        ("file:///docs/..%5C..%5Cx", "path", Rule::DotDotSegment),
        // Encoded twice: a triplet is left after the one decoding.
        ("file:///%252e%252e/etc", "path", Rule::DoubleEncoding),
        ("file:///docs/C:%5Cwindows", "path", Rule::AbsolutePath),
        ("file:///docs/C:x", "path", Rule::AbsolutePath),
        ("file:///a%00b", "path", Rule::ControlCharacter),
        ("file:///%EF%BC%8E%EF%BC%8E/x", "path", Rule::LookAlike),
        ("file:///docs/../../etc/passwd", "path", Rule::DotDotSegment),
        ("file:///a%5C..%5Cb", "path", Rule::DotDotSegment),
        ("notes://%252e%252e", "id", Rule::DoubleEncoding),
        ("notes://%EF%BC%8E%EF%BC%8E", "id", Rule::LookAlike),
        ("notes://a%EF%BC%8Fb", "id", Rule::LookAlike),
        ("notes://C%3Ax", "id", Rule::AbsolutePath),
        ("file:///C:x", "path", Rule::AbsolutePath),
        ("file:///C:%5Cwindows", "path", Rule::AbsolutePath),
        ("file:///%5C%5Cserver%5Cshare", "path", Rule::AbsolutePath),
        ("file:////etc/passwd", "path", Rule::AbsolutePath),
        ("notes://a%00b", "id", Rule::ControlCharacter),
        ("notes://a%0Ab", "id", Rule::ControlCharacter),
        ("notes://a%2Fb", "id", Rule::SeparatorInSegment),
        ("notes://..", "id", Rule::DotDotSegment),
        ("search://docs?q=..", "q", Rule::DotDotSegment),
    ];
    for (uri, variable, rule) in attacks {
        assert_eq!(
            refusal(&router, uri),
            Some((variable.into(), rule)),
            "{uri}"
        );
    }
    // Each item of `{/p*}` is one segment: a separator may not hide in it.
    let mut router = Router::new();
    router.insert("x://r{/p*}", "items").unwrap();
    assert_eq!(
        refusal(&router, "x://r/a/b%2Fc"),
        Some(("p".into(), Rule::SeparatorInSegment))
    );
    assert_eq!(refusal(&router, "x://r/a/b"), None);
}

#[test]
fn benign_look_alikes_pass() {
    let router = safety_router();
    for uri in [
        "notes://v1..v2",
        "notes://...",
        "notes://my%20file",
        "file:///docs/v1..v2/a.md",
        "file:///docs/.../x",
        "search://docs?q=a/b",
        "notes://%EF%BC%8Ex",
    ] {
        assert_eq!(refusal(&router, uri), None, "{uri}");
    }
}

#[test]
fn a_refusal_never_falls_through() {
    let mut router = Router::new();
    router.insert("notes://{id}", "strict").unwrap();
    router
        .insert_with(
            "notes://{+any}",
            "lenient",
            RouteOptions::default().safety(SafetyPolicy::OFF),
        )
        .unwrap();
    assert!(matches!(
        router.at("notes://%252e%252e"),
        Err(RouteError::Unsafe {
            rule: Rule::DoubleEncoding,
            ..
        })
    ));
    assert_eq!(*router.at("notes://a/b").unwrap().value, "lenient");
}

#[test]
fn safety_is_configurable_per_router_template_and_variable() {
    let mut router = Router::with_options(
        RouterOptions::new().safety(SafetyPolicy::default().allow(Rule::AbsolutePath)),
    );
    router.insert("file:///{+path}", ()).unwrap();
    assert!(router.at("file:////etc/passwd").is_ok());
    assert_eq!(
        refusal(&router, "file:///../x"),
        Some(("path".to_owned(), Rule::DotDotSegment))
    );

    let mut router = Router::new();
    let options = RouteOptions::default().var_safety("raw", SafetyPolicy::OFF);
    router
        .insert_with("x://{raw}/{checked}", (), options)
        .unwrap();
    assert!(router.at("x://..%2F/ok").is_ok());
    assert_eq!(
        refusal(&router, "x://ok/.."),
        Some(("checked".to_owned(), Rule::DotDotSegment))
    );
}

#[test]
fn malformed_uris_are_their_own_error() {
    let router = safety_router();
    for (uri, position, reason) in [
        ("notes://%ZZ", 8, Malformed::InvalidPercentEncoding),
        ("notes://a%4", 9, Malformed::InvalidPercentEncoding),
        ("notes://%FF", 8, Malformed::NotUtf8),
        ("notes://%C0%AE", 8, Malformed::NotUtf8),
    ] {
        match router.at(uri) {
            Err(RouteError::Malformed {
                position: p,
                reason: r,
            }) => assert_eq!((p, r), (position, reason), "{uri}"),
            other => panic!("{uri}: {other:?}"),
        }
    }
    let small = Router::<()>::with_options(RouterOptions::new().max_uri_len(16));
    assert_eq!(
        small.at(&"x".repeat(17)).unwrap_err(),
        RouteError::Malformed {
            position: 16,
            reason: Malformed::TooLong { limit: 16 }
        }
    );
}

/// The radix walk validates a URI only when it saw a `%` in a variable or the query tail, or
/// when it found nothing: a bad `%` is reported wherever it stands.
#[test]
fn the_walk_reports_a_bad_percent_wherever_it_stands() {
    let router = safety_router();
    for (uri, position) in [
        // Where no template has a literal: the walk finds nothing, then validates.
        ("nowhere://%ZZ", 10),
        ("notes%ZZ", 5),
        // In the query tail, which the walk scans but does not decode.
        ("search://docs?q=%ZZ", 16),
        ("search://docs?q=a&x=%4", 20),
        // In a variable.
        ("file:///docs/%G1", 13),
    ] {
        match router.at(uri) {
            Err(RouteError::Malformed { position: p, .. }) => assert_eq!(p, position, "{uri}"),
            other => panic!("{uri}: {other:?}"),
        }
    }
    // A well-formed triplet in the tail is decoded, and its value checked.
    let routed = router.at("search://docs?q=a%20b").unwrap();
    assert_eq!(routed.captures.get("q").unwrap().decoded(), "a b");
}

/// A URI whose walk passes more branch points than the walk keeps a way back to is routed by
/// the VM, with the same answer.
#[test]
fn a_deep_walk_hands_over_to_the_vm() {
    let mut router = Router::new();
    for k in 0..40 {
        router.insert("/x".repeat(k) + "/{v}", k).unwrap();
    }
    router.insert("/x".repeat(40), 40).unwrap();
    let uri = "/x".repeat(30) + "/y";
    let routed = router.at(&uri).unwrap();
    assert_eq!(*routed.value, 30);
    assert_eq!(routed.captures.get("v").unwrap().decoded(), "y");
    assert_eq!(*router.at(&"/x".repeat(40)).unwrap().value, 40);
    assert_eq!(*router.at(&"/x".repeat(39)).unwrap().value, 38);
}

/// The reference set reports an empty scalar as absent; this crate reports `""` where expansion
/// can tell it from undefined (`{/v}` on `/`). Those values are dropped before comparing.
fn without_empty_strings(v: Value) -> Value {
    match v {
        Value::Object(map) => {
            Value::Object(map.into_iter().filter(|(_, v)| v != &json!("")).collect())
        }
        other => other,
    }
}

#[test]
fn the_uri_template_router_reference_set() {
    let suite = common::load("uri-template-router/base.json");
    let mut checked = 0;
    for group in suite.as_array().expect("a list of groups") {
        // The reference set reads URIs as expansions write them (`{/path*}` does not match
        // `/!`): strict, without the raw sub-delimiters that clients send.
        let mut router = Router::with_options(
            RouterOptions::new()
                .allow_empty_path_vars(true)
                .strict_encoding(true)
                .safety(SafetyPolicy::OFF),
        );
        for t in group["templates"].as_array().unwrap() {
            router.insert(t.as_str().unwrap(), ()).unwrap();
        }
        for (uri, expected) in group["uris"].as_object().unwrap() {
            checked += 1;
            let got = router
                .at(uri)
                .map(|r| without_empty_strings(serde_json::to_value(&r.captures).unwrap()));
            match (expected, got) {
                (Value::Null, Err(RouteError::NotFound)) => {}
                (Value::Null, other) => panic!("{uri}: expected no match, got {other:?}"),
                (expected, Ok(got)) => assert_eq!(&got, expected, "{}: {uri}", group["label"]),
                (_, Err(e)) => panic!("{}: {uri}: {e}", group["label"]),
            }
        }
    }
    assert_eq!(checked, 69);
}

#[test]
fn safe_join_stays_inside_the_base() {
    let base = std::path::Path::new("/srv/files");
    assert_eq!(safe_join(base, "a/b").unwrap(), base.join("a/b"));
    assert_eq!(safe_join(base, "a\\b").unwrap(), base.join("a/b"));
    assert_eq!(safe_join(base, "a/../../x"), Err(JoinError::Escapes));
    assert_eq!(safe_join(base, "..\\x"), Err(JoinError::Escapes));
    assert_eq!(
        safe_join(base, "\\\\server\\share"),
        Err(JoinError::Absolute)
    );
    assert_eq!(safe_join(base, "a\0b"), Err(JoinError::ControlCharacter));
}

#[cfg(unix)]
#[test]
fn safe_join_resolved_catches_symlinks_out() {
    let dir = std::env::temp_dir().join(format!("rfc6570-join-{}", std::process::id()));
    let base = dir.join("base");
    let outside = dir.join("outside");
    std::fs::create_dir_all(base.join("docs")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(base.join("docs/a.md"), "a").unwrap();
    std::fs::write(outside.join("secret"), "s").unwrap();
    std::os::unix::fs::symlink(&outside, base.join("escape")).unwrap();
    std::os::unix::fs::symlink(base.join("docs"), base.join("inside")).unwrap();

    let ok = safe_join_resolved(&base, "docs/a.md").unwrap();
    assert!(ok.ends_with("docs/a.md"));
    assert!(safe_join_resolved(&base, "inside/a.md").is_ok());
    assert!(safe_join_resolved(&base, "docs/new-file.md").is_ok());
    assert_eq!(
        safe_join_resolved(&base, "escape/secret"),
        Err(JoinError::Escapes)
    );
    assert_eq!(
        safe_join_resolved(&base, "escape/missing"),
        Err(JoinError::Escapes)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ten_thousand_templates_answer_correctly() {
    let mut router = Router::new();
    for i in 0..10_000 {
        router.insert(format!("res{i}://items/{{id}}"), i).unwrap();
        router
            .insert(format!("/r/{i}/{{id}}/x"), i + 10_000)
            .unwrap();
    }
    router.insert("/r/{n}/{id}/x", 99_999).unwrap();
    for i in [0, 1, 4_999, 9_999] {
        let uri = format!("res{i}://items/abc");
        let routed = router.at(&uri).unwrap();
        assert_eq!(*routed.value, i);
        assert_eq!(routed.captures.get("id").unwrap().decoded(), "abc");
        assert_eq!(
            *router.at(&format!("/r/{i}/7/x")).unwrap().value,
            i + 10_000
        );
    }
    assert_eq!(*router.at("/r/new/7/x").unwrap().value, 99_999);
    assert_eq!(
        router.at("res10000://items/abc").unwrap_err(),
        RouteError::NotFound
    );
}

#[test]
fn removal_and_listing() {
    let mut router = Router::new();
    router.insert("b://{x}", 1).unwrap();
    router.insert("a://{x}", 2).unwrap();
    assert_eq!(*router.at("a://q").unwrap().value, 2);
    assert_eq!(router.remove("a://{x}"), Some(2));
    assert_eq!(router.remove("a://{x}"), None);
    assert_eq!(router.at("a://q").unwrap_err(), RouteError::NotFound);
    router.insert("a://{y}", 3).unwrap();
    let listed: Vec<_> = router.iter().map(|(t, v)| (t.as_str(), *v)).collect();
    assert_eq!(listed, [("b://{x}", 1), ("a://{y}", 3)]);
}

#[test]
fn an_ampersand_inside_a_path_does_not_start_a_query() {
    let t = rfc6570::UriTemplate::parse("file:///{+path}{?rev}").unwrap();
    let caps = t.match_uri("file:///a&b?rev=1").unwrap();
    assert_eq!(caps.get("path").unwrap().decoded(), "a&b");
    assert_eq!(caps.get("rev").unwrap().decoded(), "1");
    let mut router = Router::new();
    router.insert("file:///{+path}{?rev}", ()).unwrap();
    let routed = router.at("file:///a&b?rev=1").unwrap();
    assert_eq!(routed.captures.get("path").unwrap().decoded(), "a&b");
}

/// The value and template a lookup returns borrow the router, not the URI: they outlive it.
#[test]
fn a_routed_value_outlives_the_uri() {
    let mut router = Router::new();
    router.insert("notes://{id}", "note").unwrap();
    let (value, template) = {
        let uri = String::from("notes://7");
        let routed = router.at(&uri).unwrap();
        assert_eq!(routed.captures.get("id").unwrap().decoded(), "7");
        (routed.value, routed.template)
    };
    assert_eq!((*value, template.as_str()), ("note", "notes://{id}"));
}

/// Two query tails that start at the same place (`x{?t,u}` and `x{&t}`) are both kept: the walk
/// holds one tail a node, so such a router is served by the VM, which ranks both (the
/// router's oracle found the walk answering with whichever was inserted last).
#[test]
fn two_query_tails_at_one_place_are_both_routed() {
    let mut router = Router::new();
    router.insert("x{?t,u}", "question").unwrap();
    router.insert("x{&t}", "ampersand").unwrap();
    // Equally ranked on `x`: the tie goes to the lower text, `x{&t}`.
    assert_eq!(*router.at("x").unwrap().value, "ampersand");
    assert_eq!(*router.at("x&t=2").unwrap().value, "ampersand");
    assert_eq!(*router.at("x?t=1").unwrap().value, "question");
}

/// Compiling a template walks its trie, one node per literal byte: a loop along a run of
/// literal, so that a long one does not exhaust a thread's stack (a test thread has 2 MiB,
/// as tokio's workers do). It once recursed per byte and overflowed at about 5,000; and once
/// per letter of a scheme or host (which compare without case), which a review found.
#[test]
fn a_long_literal_compiles_within_a_threads_stack() {
    let path = "a".repeat(20_000);
    let host = "h".repeat(20_000);
    for (template, uri) in [
        (format!("{path}{{x}}"), format!("{path}7")),
        (
            format!("x://{host}/{{x}}"),
            format!("X://{}/7", host.to_uppercase()),
        ),
    ] {
        let t = UriTemplate::parse(&template).unwrap();
        assert_eq!(t.match_uri(&uri).unwrap().get("x").unwrap().decoded(), "7");
        // A router walks the template; with empty variables allowed, the automaton alone
        // serves it.
        for empty in [false, true] {
            let options = RouterOptions::new().allow_empty_path_vars(empty);
            let mut router = Router::with_options(options);
            router.insert(template.as_str(), ()).unwrap();
            let routed = router.at(&uri).unwrap();
            assert_eq!(routed.captures.get("x").unwrap().decoded(), "7", "{empty}");
        }
    }
}
