//! The matching rules of the crate's `semantics` document, one by one: malformed
//! percent-encoding is an error of its own (with the byte it is at), never a non-match; values
//! are decoded exactly once; literals compare by the bytes they encode; the query tail binds by
//! name; empty and undefined are told apart where expansion can; the ambiguity rule; what
//! `{+v}` may take; and the serde shapes of `Captures`.

use std::borrow::Cow;

use rfc6570::matching::{CaptureKind, Malformed, MatchOptions, QueryError, Unsupported};
use rfc6570::{Captures, MatchError, UriTemplate};
use serde::Deserialize;
use serde_json::{Value, json};

fn template(text: &str) -> UriTemplate {
    UriTemplate::parse(text).unwrap_or_else(|e| panic!("{e:#}"))
}

/// Matches and returns the captures as JSON.
fn caps(t: &str, uri: &str) -> Value {
    let t = template(t);
    let caps = t
        .match_uri(uri)
        .unwrap_or_else(|e| panic!("{} on {uri:?}: {e}", t.as_str()));
    serde_json::to_value(&caps).unwrap()
}

fn match_err(t: &str, uri: &str) -> MatchError {
    template(t)
        .match_uri(uri)
        .map(|c| format!("{c:?}"))
        .expect_err(uri)
}

fn strict_err(t: &str, uri: &str) -> MatchError {
    let strict = MatchOptions::default().strict_query(true);
    template(t)
        .match_uri_with(uri, &strict)
        .map(|c| format!("{c:?}"))
        .expect_err(uri)
}

fn malformed(position: usize, reason: Malformed) -> MatchError {
    MatchError::Malformed { position, reason }
}

// --- Section 3: decoding ---------------------------------------------------------------------

#[test]
fn a_bad_triplet_is_malformed_wherever_it_is() {
    use Malformed::InvalidPercentEncoding as Bad;
    for (t, uri, at) in [
        ("notes://{id}", "notes://%ZZ", 8),
        ("notes://{id}", "notes://ab%4", 10),
        ("notes://{id}", "notes://ab%", 10),
        ("file:///{+path}", "file:///a/%G0", 10),
        ("x{?q}", "x?q=%zz", 4),
        // Even where the template would not match anyway: the URI itself is malformed.
        ("notes://{id}", "files://%ZZ", 8),
        ("notes://x", "notes://x%4", 9),
    ] {
        assert_eq!(match_err(t, uri), malformed(at, Bad), "{t} on {uri}");
    }
}

#[test]
fn triplets_that_are_not_utf8_are_malformed_not_replaced() {
    for (t, uri, at) in [
        ("notes://{id}", "notes://%FF", 8),
        ("notes://{id}", "notes://a%C0%AE", 9), // overlong `.`
        ("notes://{id}", "notes://%A9", 8),     // lone continuation byte
        ("notes://{id}", "notes://%C3", 8),     // truncated sequence
        ("notes://{id}", "notes://%ED%A0%80", 8), // surrogate
        ("file:///{+path}", "file:///a/%C0%AE%C0%AE", 10),
        ("{/list*}", "/ok/%FF", 4),
        ("x{?q}", "x?q=ab%FF", 6),
        ("x{?q,rest*}", "x?q=1&other=%A9", 12),
        // Whole pairs first, then a lead alone, or a continuation alone.
        ("notes://{id}", "notes://caf%C3%A9%C3", 17),
        ("notes://{id}", "notes://%C3%20", 8),
        ("notes://{id}", "notes://%C2%85%A9", 14),
    ] {
        // A router says the same, by its own search.
        assert_not_utf8_alone_and_routed(t, uri, at, &[]);
    }
    // Valid multi-byte sequences decode.
    assert_eq!(
        caps("notes://{id}", "notes://caf%C3%A9"),
        json!({"id": "café"})
    );
}

/// `t` on `uri` is `Malformed` `NotUtf8` at `at`, matched alone and in a router that also holds
/// `others`.
fn assert_not_utf8_alone_and_routed(t: &str, uri: &str, at: usize, others: &[&str]) {
    assert_eq!(
        match_err(t, uri),
        malformed(at, Malformed::NotUtf8),
        "{t} on {uri}"
    );
    let mut router = rfc6570::Router::new();
    for template in std::iter::once(t).chain(others.iter().copied()) {
        router.insert(template, ()).unwrap();
    }
    assert!(
        matches!(
            router.at(uri),
            Err(rfc6570::RouteError::Malformed { position, reason: Malformed::NotUtf8 })
                if position == at
        ),
        "{t} on {uri} in a router"
    );
}

/// A literal that holds half a character (`%C3`, the first byte of `é`) takes that byte of a
/// raw `é` too: the value after it would start inside the character. It is the value's rest,
/// which is not UTF-8, as in the same URI with `é` encoded; before, slicing it panicked.
#[test]
fn a_literal_that_holds_half_a_character_leaves_a_value_that_is_not_utf8() {
    for (t, uri, at) in [
        ("x/%C3{p}", "x/\u{e9}", 3),
        ("x/%C3{p}", "x/%C3%A9", 5),
        ("x/%C3{p}", "x/\u{e9}a", 3),
        ("x/%C3{+p}", "x/\u{e9}/b", 3),
        ("%C3{+p}", "\u{e9}", 1),
        ("x/%C3{p}/y", "x/\u{e9}/y", 3),
        ("x/%C3{p}{?q}", "x/\u{e9}?q=1", 3),
    ] {
        assert_not_utf8_alone_and_routed(t, uri, at, &["x/{q}"]);
    }
    // The whole character in the literal leaves whole characters to the value.
    assert_eq!(caps("x/%C3%A9{p}", "x/\u{e9}a"), json!({"p": "a"}));
}

#[test]
fn plus_stays_plus() {
    assert_eq!(caps("{v}", "a%2Bb"), json!({"v": "a+b"}));
    assert_eq!(caps("{+v}", "a+b"), json!({"v": "a+b"}));
    assert_eq!(caps("x{?q}", "x?q=a+b"), json!({"q": "a+b"}));
    assert_eq!(caps("x{?q}", "x?q=a%20b"), json!({"q": "a b"}));
}

#[test]
fn values_are_decoded_exactly_once() {
    assert_eq!(caps("{v}", "%2541"), json!({"v": "%41"}));
    assert_eq!(caps("x{?q}", "x?q=%2541"), json!({"q": "%41"}));
    assert_eq!(caps("{/p*}", "/%2541/%252F"), json!({"p": ["%41", "%2F"]}));
    // `{+v}` and `{#v}` too (design note, section 3): `file:///{+path}` serves the files that
    // Python's `Path.as_uri()` names, and path safety judges the decoded value.
    assert_eq!(caps("{+v}", "%2541"), json!({"v": "%41"}));
    assert_eq!(caps("{+v}", "%25"), json!({"v": "%"}));
    assert_eq!(caps("{+v}", "a%2Fb%20c"), json!({"v": "a/b c"}));
    assert_eq!(caps("{#v}", "#a%2Bb%3F"), json!({"v": "a+b?"}));
    assert_eq!(
        caps("file:///{+path}", "file:///docs/a%2Bb.txt"),
        json!({"path": "docs/a+b.txt"})
    );
    assert_eq!(
        caps("file:///{+path}", "file:///docs/what%3F.md"),
        json!({"path": "docs/what?.md"})
    );
    // `+` stays `+`: it is not a space outside form encoding.
    assert_eq!(
        caps("file:///{+path}", "file:///a+b"),
        json!({"path": "a+b"})
    );
    // The raw text stays reachable.
    let t = template("{v}");
    let m = t.match_uri("%2541").unwrap();
    assert_eq!(m.get("v").unwrap().raw(), "%2541");
}

#[test]
fn literals_compare_with_hex_case_folded() {
    assert_eq!(caps("a%2fb/{v}", "a%2Fb/x"), json!({"v": "x"}));
    assert_eq!(caps("a%2Fb/{v}", "a%2fb/x"), json!({"v": "x"}));
    // A triplet still does not equal the character it encodes when that is reserved.
    assert_eq!(match_err("a%2Fb/{v}", "a/b/x"), MatchError::NoMatch);
}

#[test]
fn non_ascii_literals_equal_their_utf8_triplets() {
    assert_eq!(caps("café/{v}", "caf%C3%A9/x"), json!({"v": "x"}));
    assert_eq!(caps("café/{v}", "caf%c3%a9/x"), json!({"v": "x"}));
    assert_eq!(caps("caf%C3%A9/{v}", "café/x"), json!({"v": "x"}));
    assert_eq!(caps("café/{v}", "café/x"), json!({"v": "x"}));
    assert_eq!(match_err("café/{v}", "cafe/x"), MatchError::NoMatch);
}

// --- Section 4: query expressions ------------------------------------------------------------

#[test]
fn declared_parameters_bind_in_any_order() {
    let t = "search://docs{?q,lang,page}";
    let both = json!({"q": "rust", "lang": "en"});
    assert_eq!(caps(t, "search://docs?q=rust&lang=en"), both);
    assert_eq!(caps(t, "search://docs?lang=en&q=rust"), both);
    assert_eq!(caps("x{?a}{&b}", "x?b=2&a=1"), json!({"a": "1", "b": "2"}));
}

#[test]
fn each_parameter_is_optional_and_a_missing_one_is_absent() {
    let t = template("search://docs{?q,lang}");
    let m = t.match_uri("search://docs?lang=en").unwrap();
    assert!(m.get("q").is_none(), "absent, not \"\"");
    assert_eq!(serde_json::to_value(&m).unwrap(), json!({"lang": "en"}));
    assert!(t.match_uri("search://docs").unwrap().is_empty());
    // Given empty, it is "".
    assert_eq!(
        caps("search://docs{?q,lang}", "search://docs?q="),
        json!({"q": ""})
    );
}

#[test]
fn names_compare_under_normalization() {
    // Design note, section 4: `%74oken` is `token` (RFC 3986 section 6.2.2.2), so giving both
    // is parameter pollution, not two names.
    assert_eq!(caps("x{?token}", "x?%74oken=x"), json!({"token": "x"}));
    assert_eq!(caps("x{?token}", "x?token=x"), json!({"token": "x"}));
    assert_eq!(
        template("x{?token}")
            .match_uri("x?token=a&%74oken=b")
            .unwrap_err(),
        MatchError::Query(QueryError::DuplicateParameter {
            name: "%74oken".into()
        })
    );
    // Other triplets are not the character they encode: `a%2Eb` is `a.b`, `a%2Fb` is not.
    assert_eq!(caps("x{?a.b}", "x?a%2Eb=1"), json!({"a.b": "1"}));
    assert_eq!(
        strict_err("x{?a%2Fb}", "x?a/b=1"),
        MatchError::Query(QueryError::UnexpectedParameter { name: "a/b".into() })
    );
}

#[test]
fn an_exploded_parameter_collects_its_own_name_as_a_list() {
    let t = "x{?q,tag*}";
    assert_eq!(
        caps(t, "x?tag=a&q=1&tag=b%20c"),
        json!({"q": "1", "tag": ["a", "b c"]})
    );
    let m = template(t);
    let c = m.match_uri("x?tag=a").unwrap();
    assert_eq!(c.get("tag").unwrap().kind(), CaptureKind::List);
}

#[test]
fn without_its_own_name_an_exploded_parameter_collects_the_undeclared_as_a_map() {
    let t = template("x{?q,rest*}");
    let uri = "x?q=1&semi=%3B&dot=.";
    let m = t.match_uri(uri).unwrap();
    assert_eq!(m.get("rest").unwrap().kind(), CaptureKind::Map);
    let json = serde_json::to_value(&m).unwrap();
    assert_eq!(json, json!({"q": "1", "rest": {"semi": ";", "dot": "."}}));
    // ... so that the query round-trips.
    assert_eq!(t.expand(&json).unwrap(), uri);
    // With no undeclared parameter, it is absent.
    assert_eq!(caps("x{?q,rest*}", "x?q=1"), json!({"q": "1"}));
}

#[test]
fn undeclared_parameters_are_ignored_unless_strict() {
    let t = "search://docs{?q}";
    let uri = "search://docs?q=x&utm_source=feed";
    assert_eq!(caps(t, uri), json!({"q": "x"}));
    assert_eq!(
        strict_err(t, uri),
        MatchError::Query(QueryError::UnexpectedParameter {
            name: "utm_source".into()
        })
    );
    // Strict mode still lets an exploded parameter collect them.
    let strict = MatchOptions::default().strict_query(true);
    let t = template("x{?q,rest*}");
    assert!(t.match_uri_with("x?q=1&a=2", &strict).is_ok());
}

#[test]
fn a_declared_name_given_twice_is_refused() {
    let dup = MatchError::Query(QueryError::DuplicateParameter { name: "q".into() });
    assert_eq!(match_err("x{?q}", "x?q=1&q=2"), dup);
    assert_eq!(match_err("x{?q,lang}", "x?q=1&lang=en&q=1"), dup);
    assert_eq!(strict_err("x{?q}", "x?q=1&q=2"), dup);
    // An exploded one collects them instead.
    assert_eq!(caps("x{?q*}", "x?q=1&q=2"), json!({"q": ["1", "2"]}));
}

// --- Section 1: empty and undefined; ambiguity -----------------------------------------------

#[test]
fn empty_and_undefined_are_told_apart_where_expansion_can() {
    // `{v}` writes nothing for "" and for undefined: absent.
    assert_eq!(caps("{v}", ""), json!({}));
    assert_eq!(caps("x/{v}/y", "x//y"), json!({}));
    assert_eq!(caps("{+v}", ""), json!({}));
    // `{/v}` writes "/" for "" and nothing for undefined.
    assert_eq!(caps("{/v}", "/"), json!({"v": ""}));
    assert_eq!(caps("{/v}", ""), json!({}));
    assert_eq!(caps("{.v}", "."), json!({"v": ""}));
    assert_eq!(caps("{;v}", ";v"), json!({"v": ""}));
    assert_eq!(caps("x{?v}", "x?v="), json!({"v": ""}));
    assert_eq!(caps("x{?v}", "x"), json!({}));
    assert_eq!(caps("{#v}", "#"), json!({"v": ""}));
    // Next to another defined variable, an empty one shows.
    assert_eq!(caps("{a,b}", ",x"), json!({"a": "", "b": "x"}));
}

#[test]
fn ambiguity_prefers_earlier_variables_shortest() {
    assert_eq!(caps("{x,y}", "1024,768"), json!({"x": "1024", "y": "768"}));
    // `{a}{b}` on "abc": `a` gets the shortest value, "", which `{a}` cannot tell from
    // undefined, so it is absent and `b` takes everything.
    assert_eq!(caps("{a}{b}", "abc"), json!({"b": "abc"}));
    assert_eq!(caps("{a}-{b}", "x-y-z"), json!({"a": "x", "b": "y-z"}));
    assert_eq!(
        caps("{/list*,path:4}", "/red/green/blue"),
        json!({"list": ["red", "green"], "path": "blue"})
    );
    // Whatever the choice, it expands back.
    for (t, uri) in [
        ("{a}{b}", "abc"),
        ("{+a,b}", "x,y,z"),
        ("{/l*,p:4}", "/a/b/cdef"),
    ] {
        let tt = template(t);
        assert_eq!(tt.expand(&caps(t, uri)).unwrap(), uri, "{t}");
    }
}

// --- Section 2: what each operator may capture -----------------------------------------------

#[test]
fn reserved_expansion_never_takes_the_query_or_fragment() {
    let t = "file:///{+path}";
    assert_eq!(
        caps(t, "file:///docs/a,b;c=d"),
        json!({"path": "docs/a,b;c=d"})
    );
    assert_eq!(match_err(t, "file:///docs?x=1"), MatchError::NoMatch);
    // A fragment is set aside, not taken (section 14).
    assert_eq!(caps(t, "file:///docs#top"), json!({"path": "docs"}));
    assert_eq!(
        caps("file:///{+path}{?rev}", "file:///docs/a.md?rev=3"),
        json!({"path": "docs/a.md", "rev": "3"})
    );
    assert_eq!(
        caps("file:///{+path}{#frag}", "file:///a/b#x?y#z"),
        json!({"path": "a/b", "frag": "x?y#z"})
    );
}

#[test]
fn a_query_the_template_has_no_place_for_does_not_match() {
    for (t, uri) in [
        ("notes://{id}", "notes://1?x=1"),
        ("notes://{id}", "notes://1?"),
        ("notes://{id}", "notes://1?x#f"),
        ("notes://static", "notes://static?x"),
        ("{/path*}", "/a/b?c"),
    ] {
        assert_eq!(match_err(t, uri), MatchError::NoMatch, "{t} on {uri}");
    }
}

// --- Captures and serde ------------------------------------------------------------------------

#[test]
fn captures_serialize_as_strings_lists_and_maps() {
    let t = template("x{/path*}{;filters*}{?q,lang,tags}");
    let m = t
        .match_uri("x/a/b%20c;lang=en;sort=new?q=caf%C3%A9&tags=x,y")
        .unwrap();
    let json = serde_json::to_value(&m).unwrap();
    assert_eq!(
        json,
        json!({
            "path": ["a", "b c"],
            "filters": {"lang": "en", "sort": "new"},
            "q": "café",
            "tags": ["x", "y"],
        })
    );
    // `lang` is absent, so it is left out rather than null.
    assert!(json.get("lang").is_none());
    let kinds: Vec<(&str, CaptureKind)> = m.iter().map(|c| (c.name(), c.kind())).collect();
    assert_eq!(
        kinds,
        [
            ("path", CaptureKind::List),
            ("filters", CaptureKind::Map),
            ("q", CaptureKind::String),
            ("tags", CaptureKind::List)
        ]
    );
}

#[derive(Debug, Deserialize, PartialEq)]
struct Build<'a> {
    host: &'a str,
    job: u64,
    ratio: f64,
    verbose: bool,
    lines: Option<String>,
    level: Option<u8>,
    tags: Vec<String>,
}

#[test]
fn captures_deserialize_into_typed_structs() {
    let t = template("log://{host}/build/{job}/{ratio}{?verbose,lines,level,tags}");
    let m = t
        .match_uri("log://ci/build/42/0.5?verbose=true&tags=a,b%20c&lines=10-20")
        .unwrap();
    let build: Build<'_> = m.deserialize().unwrap();
    assert_eq!(
        build,
        Build {
            host: "ci",
            job: 42,
            ratio: 0.5,
            verbose: true,
            lines: Some("10-20".into()),
            level: None,
            tags: vec!["a".into(), "b c".into()],
        }
    );
}

#[test]
fn strings_without_escapes_are_borrowed_from_the_uri() {
    #[derive(Deserialize)]
    struct Path<'a> {
        #[serde(borrow)]
        name: Cow<'a, str>,
        #[serde(borrow)]
        other: Cow<'a, str>,
    }
    let t = template("x/{name}/{other}");
    let uri = "x/plain/with%20space";
    let m = t.match_uri(uri).unwrap();
    let p: Path<'_> = m.deserialize().unwrap();
    assert!(matches!(p.name, Cow::Borrowed("plain")));
    assert!(matches!(p.other, Cow::Owned(ref s) if s == "with space"));
}

#[test]
fn extraction_errors_name_the_variable() {
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Job {
        id: u32,
        verbose: Option<bool>,
    }
    let t = template("jobs/{id}{?verbose}");
    let extract = |uri: &str| {
        let m: Captures<'_> = t.match_uri(uri).unwrap();
        m.deserialize::<Job>().unwrap_err()
    };
    let err = extract("jobs/abc");
    assert_eq!(err.variable(), Some("id"));
    assert_eq!(
        err.to_string(),
        "variable `id`: expected u32, found \"abc\""
    );
    let err = extract("jobs/1?verbose=yes");
    assert_eq!(err.variable(), Some("verbose"));
    assert!(err.to_string().contains("expected bool"), "{err}");
    // A missing required field is about no single variable's value.
    let err = template("jobs/{other}")
        .match_uri("jobs/x")
        .unwrap()
        .deserialize::<Job>()
        .unwrap_err();
    assert!(err.to_string().contains("id"), "{err}");
}

#[test]
fn templates_that_would_be_answered_wrongly_are_refused_with_their_reason() {
    use rfc6570::template::LintKind::*;
    // Each open finding of the fuzzers that is not fixed is a shape refused when it compiles,
    // before any URI is read: never a wrong assignment at read time. The refusal names the
    // rule and where it is broken, as the template's lint does.
    for (template, uri, kind, position) in [
        // F3, F4: occurrences of one name must agree, where the match could place them
        // where they disagree while another placing agrees.
        ("{a,b}{b}", "x", RepeatedAmbiguous, 0),
        ("{#y,x,y}", "#a", RepeatedAmbiguous, 0),
        ("{/a,a}{+b}", "/x/xy", RepeatedAmbiguous, 0),
        ("{+x}/{+x}", "a/a", RepeatedAmbiguous, 0),
        ("x/{a}.{x}.{x}", "x/a.b.b", RepeatedAmbiguous, 2),
        // F17 and F6 through `{#v}`: after `#` everything is fragment.
        ("{#f}{?q}", "#a?q=1", QueryAfterFragment, 4),
        ("x#y{?q}", "x#y?q=1", QueryAfterFragment, 3),
        ("{#x,y}{&k*}", "#a&k=1", QueryAfterFragment, 6),
        // F13: a query expression in the head ends its reading early.
        ("{;k}{?a}{b}{&c}", ";k?a=1x&c=2", QueryBeforeTail, 4),
        // F6 through `{+v}`: the `&` that starts `{&..}` could belong to the value.
        ("x{+v}{&q}", "xa&q=1", AmbiguousQueryStart, 1),
        ("x?s=1{+v}{?a}{&q}", "x?s=1a&q=1", AmbiguousQueryStart, 5),
        // F14: both would collect the undeclared parameters.
        ("x{?a*,b*}", "x?k=1", SeveralExplodedInQuery, 6),
        ("x{?a*}{&b,c*}", "x?k=1", SeveralExplodedInQuery, 10),
        // F12: the name is written into the URI, where it cannot be decoded.
        ("{?na%FFme*}", "?na%FFme=1", NameNotUtf8, 2),
        // F18: a named explode's map could take what the next variable writes.
        ("{;m*,l*}", ";l;l", ExplodedBeforeVariable, 5),
        ("x{?m*}{?n*}y", "x?n=1?n=2y", ExplodedBeforeVariable, 8),
        ("{;m*}{.y*}", ";a.b", ExplodedBeforeVariable, 7),
    ] {
        let t = UriTemplate::parse(template).unwrap();
        assert_eq!(
            t.match_uri(uri).unwrap_err(),
            MatchError::Unsupported(Unsupported::Shape { kind, position }),
            "{template}"
        );
        let refusing: Vec<_> = t
            .lints()
            .into_iter()
            .filter(|l| l.kind().refuses())
            .collect();
        assert_eq!(
            (refusing[0].kind(), refusing[0].position()),
            (kind, position),
            "{template}"
        );
    }
    // Nearby shapes that are served.
    for (template, uri) in [
        ("x{+v}?s=1{&q}", "xa/b?s=1&q=2"),
        ("x{+v}{?a}", "xa&b?a=1"),
        ("x{?a*}{&b}", "x?k=1&b=2"),
        ("x{?a}/y", "x?a=1/y"),
        ("{#f}", "#a?q=1"),
        ("{;m*}/{x}", ";a=1/y"),
        ("{;x,m*}", ";x=1;a=2"),
    ] {
        let t = UriTemplate::parse(template).unwrap();
        assert!(t.match_uri(uri).is_ok(), "{template} on {uri}");
    }
}

#[test]
fn a_query_tail_with_two_question_marks_is_refused_for_matching() {
    let t = UriTemplate::parse("x{?a}{?b}").unwrap();
    assert_eq!(
        t.expand(&serde_json::json!({"a": 1, "b": 2})).unwrap(),
        "x?a=1?b=2"
    );
    assert!(matches!(
        t.match_uri("x?a=1?b=2"),
        Err(MatchError::Unsupported { .. })
    ));
}

/// Every map is checked for a key given twice, whatever the maps before it hold: a first map
/// of more than sixteen keys (which are sorted to be compared) does not end the check.
#[test]
fn a_key_given_twice_is_refused_in_any_map() {
    let many: Vec<String> = (0..17).map(|i| format!("k{i}={i}")).collect();
    let uri = format!("x/{}/a=1,a=2", many.join(","));
    assert_eq!(
        match_err("x/{m*}/{n*}", &uri),
        MatchError::DuplicateKey {
            variable: "n".into(),
            key: "a".into()
        }
    );
    let uri = format!("x/{}/a=1,b=2", many.join(","));
    assert_eq!(caps("x/{m*}/{n*}", &uri)["n"], json!({"a": "1", "b": "2"}));
}
