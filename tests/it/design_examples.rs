//! Every example of the matching design (sections 2, 3, 4 and 7 of the design note, which the
//! crate's `semantics` document follows) and of the issue on matching what real clients send,
//! checked through `match_uri` and through a `Router` with default options.

use rfc6570::matching::{Malformed, MatchOptions, QueryError, Unsupported};
use rfc6570::safety::Rule;
use rfc6570::{MatchError, RouteError, Router, UriTemplate};
use serde_json::{Value, json};

fn template(text: &str) -> UriTemplate {
    UriTemplate::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// `match_uri`'s captures as JSON, or its error.
fn matched(text: &str, uri: &str) -> Result<Value, MatchError> {
    let t = template(text);
    let caps = t.match_uri(uri)?;
    Ok(serde_json::to_value(&caps).unwrap())
}

/// A router with default options and this one template: its captures as JSON, or its error.
fn routed(text: &str, uri: &str) -> Result<Value, RouteError> {
    let mut router = Router::new();
    router.insert(text, ()).unwrap();
    let routed = router.at(uri)?;
    Ok(serde_json::to_value(&routed.captures).unwrap())
}

/// Checks that both `match_uri` and a router give these captures.
fn both(text: &str, uri: &str, expected: Value) {
    assert_eq!(
        matched(text, uri),
        Ok(expected.clone()),
        "match_uri: {text} on {uri}"
    );
    assert_eq!(routed(text, uri), Ok(expected), "router: {text} on {uri}");
}

fn unsafe_rule(text: &str, uri: &str) -> Option<(String, Rule)> {
    match routed(text, uri) {
        Err(RouteError::Unsafe { variable, rule, .. }) => Some((variable, rule)),
        Ok(_) => None,
        Err(other) => panic!("{text} on {uri}: {other}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Section 2: what each operator may capture

#[test]
fn commas_separate_variables_and_the_separator_splits_explodes() {
    both("{x,y}", "1024,768", json!({"x": "1024", "y": "768"}));
    both("{/p*}", "/a/b", json!({"p": ["a", "b"]}));
}

#[test]
fn reserved_expansion_never_takes_the_query_or_the_fragment() {
    assert_eq!(
        matched("file:///{+path}", "file:///docs?x=1"),
        Err(MatchError::NoMatch)
    );
    // A fragment is set aside (section 14), not taken into the path.
    both("file:///{+path}", "file:///docs#x", json!({"path": "docs"}));
    assert_eq!(
        routed("file:///{+path}", "file:///docs?x=1"),
        Err(RouteError::NotFound)
    );
    both("x{#f}", "x#a/b?c#d", json!({"f": "a/b?c#d"}));
}

#[test]
fn raw_sub_delimiters_match_where_they_separate_nothing() {
    both(
        "docs://{name}",
        "docs://a+b.txt",
        json!({"name": "a+b.txt"}),
    );
    both(
        "docs://{name}",
        "docs://report(1).pdf",
        json!({"name": "report(1).pdf"}),
    );
    both(
        "users://{email}/profile",
        "users://ada@example.com/profile",
        json!({"email": "ada@example.com"}),
    );
    both(
        "users://{email}",
        "users://ada@example.com",
        json!({"email": "ada@example.com"}),
    );
    both(
        "files://{/path*}",
        "files:///file%20(1).txt",
        json!({"path": ["file (1).txt"]}),
    );
    both(
        "x://{a}/{b}",
        "x://it's/$5!*",
        json!({"a": "it's", "b": "$5!*"}),
    );
}

#[test]
fn separators_keep_structuring_their_expressions() {
    // `,` separates `{x,y}` and list items; `;` and a name's `=` structure `{;v}`; `&` and `=`
    // a query.
    both("{x,y}", "a,b", json!({"x": "a", "y": "b"}));
    both("{v}", "a,b", json!({"v": ["a", "b"]}));
    both("x{;a,b}", "x;a=1;b=2", json!({"a": "1", "b": "2"}));
    both("x{?a,b}", "x?b=2&a=1", json!({"a": "1", "b": "2"}));
    // A reading that an expansion writes wins over one with raw sub-delimiters in values.
    // (`{/s,m*}` on `/=`: `s` could hold `=` leniently, but the map reading is written so.)
    assert_eq!(matched("x{/s,m*}", "x/="), Ok(json!({"m": {"": ""}})));
    both("x/{a}:{b}", "x/1:2", json!({"a": "1", "b": "2"}));
    both("x/{a}:{b}", "x/1:2:3", json!({"a": "1", "b": "2:3"}));
}

#[test]
fn after_a_names_equals_sign_a_raw_one_belongs_to_the_value() {
    both("x://m{;v}", "x://m;v=a=b", json!({"v": "a=b"}));
    both("item{;id}", "item;id=a=b", json!({"id": "a=b"}));
    both("x{;a}{;b}", "x;a=x=y;b=z", json!({"a": "x=y", "b": "z"}));
    both("x{;v}", "x;v==", json!({"v": "="}));
    // Lists keep their commas, and the name is still the template's.
    both("x{;v}", "x;v=a=1,b=2", json!({"v": ["a=1", "b=2"]}));
    assert_eq!(matched("x{;v}", "x;w=a=b"), Err(MatchError::NoMatch));
    // An exploded map's entries split at their first `=`.
    both(
        "x{;m*}",
        "x;k=a=b;j=c",
        json!({"m": {"k": "a=b", "j": "c"}}),
    );
    // Strict encoding takes only what an expansion writes: `=` encoded.
    let strict = MatchOptions::new().strict_encoding(true);
    let t = template("x://m{;v}");
    assert_eq!(
        t.match_uri_with("x://m;v=a=b", &strict).unwrap_err(),
        MatchError::NoMatch
    );
    let caps = t.match_uri_with("x://m;v=a%3Db", &strict).unwrap();
    assert_eq!(caps.get("v").unwrap().decoded(), "a=b");
}

#[test]
fn in_the_query_ampersands_and_equals_signs_separate_parameters() {
    // Whatever the expression: a literal query's variables do not swallow other parameters.
    assert_eq!(
        matched("search://x?q={q}", "search://x?q=a&utm=1"),
        Err(MatchError::NoMatch)
    );
    assert_eq!(
        matched("x?a={a}&b={b}", "x?a=1&c=2&b=3"),
        Err(MatchError::NoMatch)
    );
    both(
        "x?a={a}&b={b}",
        "x?a=1+2&b=(3)",
        json!({"a": "1+2", "b": "(3)"}),
    );
    // Outside the query they are ordinary sub-delimiters.
    both("x://{a}/y", "x://k=v&w/y", json!({"a": "k=v&w"}));
}

#[test]
fn separators_compare_normalized_inside_captures() {
    // `%2E` is `.`, so it separates the entries of `{.m*}` as the matcher read it.
    both("x{.m*}", "x.a=1%2Eb=2", json!({"m": {"a": "1", "b": "2"}}));
    both("x{.l*}", "x.a%2eb", json!({"l": ["a", "b"]}));
    let twice = MatchError::DuplicateKey {
        variable: "m".into(),
        key: "a".into(),
    };
    assert_eq!(matched("x{.m*}", "x.a=1%2Ea=2"), Err(twice));
}

#[test]
fn names_equal_under_normalization_are_one_name() {
    // `%61` is `a` to matching, and another name to expansion: such a template is refused,
    // rather than read as one variable that its expansion does not write.
    let t = template("x{?a,%61}");
    assert_eq!(
        t.match_uri("x?a=1&%61=2").unwrap_err(),
        MatchError::Unsupported(Unsupported::Shape {
            kind: rfc6570::template::LintKind::RepeatedAmbiguous,
            position: 5
        })
    );
    assert_eq!(
        t.lints()[0].kind(),
        rfc6570::template::LintKind::RepeatedName
    );
}

#[test]
fn a_strict_option_takes_only_what_expansion_writes() {
    let t = template("docs://{name}");
    let strict = MatchOptions::new().strict_encoding(true);
    assert_eq!(
        t.match_uri_with("docs://a+b.txt", &strict).unwrap_err(),
        MatchError::NoMatch
    );
    let caps = t.match_uri_with("docs://a%2Bb.txt", &strict).unwrap();
    assert_eq!(caps.get("name").unwrap().decoded(), "a+b.txt");
    let mut router =
        Router::with_options(rfc6570::router::RouterOptions::new().strict_encoding(true));
    router.insert("docs://{name}", ()).unwrap();
    assert_eq!(
        router.at("docs://a+b.txt").unwrap_err(),
        RouteError::NotFound
    );
}

#[test]
fn characters_a_uri_may_not_hold_are_malformed_at_their_byte() {
    for (text, uri, position, byte) in [
        ("x://h{?a}", "x://h?a=b c", 9, b' '),
        ("x://h{?a}", "x://h?a=\"b\"", 8, b'"'),
        ("notes://{id}", "notes://a{b}", 9, b'{'),
        ("notes://{id}", "notes://a<b", 9, b'<'),
        ("notes://{id}", "notes://a>b", 9, b'>'),
        ("notes://{id}", "notes://a\\b", 9, b'\\'),
        ("notes://{id}", "notes://a^b", 9, b'^'),
        ("notes://{id}", "notes://a`b", 9, b'`'),
        ("notes://{id}", "notes://a|b", 9, b'|'),
        ("notes://{id}", "notes://a\u{7}b", 9, 7),
        ("notes://{id}", "notes://a\u{7f}b", 9, 0x7F),
        // Whether the template could match or not.
        ("other://{id}", "notes://a b", 9, b' '),
    ] {
        let reason = Malformed::Disallowed { byte };
        assert_eq!(
            matched(text, uri),
            Err(MatchError::Malformed { position, reason }),
            "{uri}"
        );
        assert_eq!(
            routed(text, uri),
            Err(RouteError::Malformed { position, reason }),
            "{uri}"
        );
    }
    let err = matched("x://h{?a}", "x://h?a=b c").unwrap_err();
    assert_eq!(
        err.to_string(),
        "malformed URI at byte 9: a space (0x20) cannot stand in a URI; percent-encode it as %20"
    );
}

#[test]
fn non_ascii_characters_match_as_their_utf8_triplets() {
    both(
        "notes://{id}",
        "notes://caf\u{e9}",
        json!({"id": "caf\u{e9}"}),
    );
    both(
        "notes://{id}",
        "notes://caf%C3%A9",
        json!({"id": "caf\u{e9}"}),
    );
    both("caf\u{e9}/{v}", "caf%C3%A9/x", json!({"v": "x"}));
}

#[test]
fn a_query_where_the_template_has_none_does_not_match() {
    assert_eq!(
        matched("notes://{id}", "notes://a?x=1"),
        Err(MatchError::NoMatch)
    );
    assert_eq!(
        matched("notes://{id}", "notes://a?x=1#f"),
        Err(MatchError::NoMatch)
    );
}

// ---------------------------------------------------------------------------------------------
// Section 3: decoding

#[test]
fn every_operator_decodes_once() {
    both(
        "file:///{+path}",
        "file:///docs/a%2Bb.txt",
        json!({"path": "docs/a+b.txt"}),
    );
    both(
        "file:///{+path}",
        "file:///docs/what%3F.md",
        json!({"path": "docs/what?.md"}),
    );
    both("file:///{+path}", "file:///a+b", json!({"path": "a+b"}));
    both("x{#f}", "x#a%2Fb", json!({"f": "a/b"}));
    // The raw text stays reachable.
    let t = template("file:///{+path}");
    let caps = t.match_uri("file:///docs/a%2Bb.txt").unwrap();
    assert_eq!(caps.get("path").unwrap().raw(), "docs/a%2Bb.txt");
}

#[test]
fn literals_compare_under_normalization() {
    both(
        "x://users/profile/{id}",
        "x://users/pro%66ile/7",
        json!({"id": "7"}),
    );
    both(
        "x://users/pro%66ile/{id}",
        "x://users/profile/7",
        json!({"id": "7"}),
    );
    both("a%2fb/{v}", "a%2Fb/x", json!({"v": "x"}));
    both("x/%7Euser/{v}", "x/~user/y", json!({"v": "y"}));
    // A static template too, and a triplet of a reserved character stays that triplet.
    assert_eq!(
        routed("x://users/profile", "x://users/pro%66ile"),
        Ok(json!({}))
    );
    assert_eq!(matched("a/b/{v}", "a%2Fb/x"), Err(MatchError::NoMatch));
}

#[test]
fn a_literal_beats_a_variable_under_normalization() {
    let mut router = Router::new();
    router.insert("x://a/{v}", "var").unwrap();
    router.insert("x://a/f", "static").unwrap();
    router.insert("x://b/{v}", "var").unwrap();
    router.insert("x://b/f/{w}", "deeper").unwrap();
    assert_eq!(*router.at("x://a/%66").unwrap().value, "static");
    assert_eq!(*router.at("x://b/%66/1").unwrap().value, "deeper");
    assert_eq!(*router.at("x://b/%67").unwrap().value, "var");
}

#[test]
fn bad_triplets_and_bytes_that_are_not_utf8_are_errors_of_their_own() {
    for (uri, position, reason) in [
        ("notes://%ZZ", 8, Malformed::InvalidPercentEncoding),
        ("notes://%4", 8, Malformed::InvalidPercentEncoding),
        ("notes://%FF", 8, Malformed::NotUtf8),
        ("notes://%C0%AE", 8, Malformed::NotUtf8),
    ] {
        assert_eq!(
            matched("notes://{id}", uri),
            Err(MatchError::Malformed { position, reason }),
            "{uri}"
        );
        assert_eq!(
            routed("notes://{id}", uri),
            Err(RouteError::Malformed { position, reason }),
            "{uri}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Section 4: query expressions

#[test]
fn declared_names_bind_in_any_order_and_a_missing_one_is_absent() {
    both(
        "search://docs{?q,lang}",
        "search://docs?lang=en&q=x",
        json!({"q": "x", "lang": "en"}),
    );
    both(
        "search://docs{?q,lang}",
        "search://docs?q=x",
        json!({"q": "x"}),
    );
}

#[test]
fn query_names_compare_under_normalization() {
    both("x{?token}", "x?%74oken=x", json!({"token": "x"}));
    let pollution = MatchError::Query(QueryError::DuplicateParameter {
        name: "%74oken".into(),
    });
    assert_eq!(matched("x{?token}", "x?token=a&%74oken=b"), Err(pollution));
}

#[test]
fn an_exploded_variable_collects_its_own_name_else_the_undeclared() {
    both("x{?v*}", "x?v=1&v=2", json!({"v": ["1", "2"]}));
    both(
        "x{?v*}",
        "x?semi=%3B&dot=.",
        json!({"v": {"semi": ";", "dot": "."}}),
    );
    let t = template("x{?v*}");
    let caps = serde_json::to_value(t.match_uri("x?semi=%3B&dot=.").unwrap()).unwrap();
    assert_eq!(t.expand(&caps).unwrap(), "x?semi=%3B&dot=.");
}

#[test]
fn undeclared_parameters_are_ignored_unless_strict() {
    both("x{?a}", "x?a=1&utm=2", json!({"a": "1"}));
    let strict = MatchOptions::new().strict_query(true);
    assert_eq!(
        template("x{?a}")
            .match_uri_with("x?a=1&utm=2", &strict)
            .unwrap_err(),
        MatchError::Query(QueryError::UnexpectedParameter { name: "utm".into() })
    );
}

#[test]
fn a_name_or_a_key_given_twice_is_refused() {
    let pollution = MatchError::Query(QueryError::DuplicateParameter { name: "a".into() });
    assert_eq!(matched("x{?a}", "x?a=1&a=2"), Err(pollution));
    let twice = |variable: &str, key: &str| MatchError::DuplicateKey {
        variable: variable.into(),
        key: key.into(),
    };
    assert_eq!(matched("x{?m*}", "x?a=1&a=2"), Err(twice("m", "a")));
    assert_eq!(matched("{m*}", "a=1,a=2"), Err(twice("m", "a")));
    assert_eq!(matched("x{/m*}", "x/a=1/a=2"), Err(twice("m", "a")));
    assert_eq!(matched("x{;m*}", "x;a=1;a=2"), Err(twice("m", "a")));
    assert_eq!(matched("{m*}", "a=1,%61=2"), Err(twice("m", "a")));
    assert!(matches!(
        routed("x://{m*}", "x://a=1,a=2"),
        Err(RouteError::Refused {
            source: MatchError::DuplicateKey { .. },
            ..
        })
    ));
    // Many keys are compared as fast: sorted, not pairwise.
    let uri: String = (0..40).map(|i| format!("k{i}=1,")).collect::<String>() + "k7=2";
    assert_eq!(matched("{m*}", &uri), Err(twice("m", "k7")));
    // Distinct keys are fine, and a list may repeat its items.
    both("x{?m*}", "x?a=1&b=1", json!({"m": {"a": "1", "b": "1"}}));
    both("x{?m*}", "x?m=1&m=1", json!({"m": ["1", "1"]}));
}

#[test]
fn a_query_after_a_fragment_is_refused_when_it_compiles() {
    for (text, uri, position) in [("{#f}{?q}", "#a?q=1", 4), ("#x{?q}", "#x?q=1", 2)] {
        let kind = rfc6570::template::LintKind::QueryAfterFragment;
        assert_eq!(
            matched(text, uri),
            Err(MatchError::Unsupported(Unsupported::Shape {
                kind,
                position
            }))
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Section 6: prefixes count the value's characters

#[test]
fn prefixes_count_the_characters_of_the_value() {
    let vars = json!({"x": "%41b"});
    for (text, expected) in [
        ("{+x:2}", "%254"),
        ("{#x:2}", "#%254"),
        ("{x:2}", "%254"),
        ("{+x:3}", "%41"),
        ("{+x:4}", "%41b"),
    ] {
        assert_eq!(template(text).expand(&vars).unwrap(), expected, "{text}");
    }
    // A match counts the characters of the decoded value.
    both("{+x:2}", "%254", json!({"x": "%4"}));
    both("{+x:2}", "%41b", json!({"x": "Ab"}));
    assert_eq!(matched("{+x:2}", "abc"), Err(MatchError::NoMatch));
}

// ---------------------------------------------------------------------------------------------
// Section 7: path safety

#[test]
fn each_refusal_names_the_rule_the_decoded_value_broke() {
    let files = "file:///{+path}";
    for (text, uri, variable, rule) in [
        (files, "file:///a%00b", "path", Rule::ControlCharacter),
        (
            "notes://{id}",
            "notes://a%1Fb",
            "id",
            Rule::ControlCharacter,
        ),
        (
            "notes://{id}",
            "notes://a%7Fb",
            "id",
            Rule::ControlCharacter,
        ),
        ("notes://{id}", "notes://..", "id", Rule::DotDotSegment),
        (files, "file:///../x", "path", Rule::DotDotSegment),
        (files, "file:///a/../b", "path", Rule::DotDotSegment),
        (files, "file:///..%5Cx", "path", Rule::DotDotSegment),
        (
            files,
            "file:///..%2F..%2Fetc%2Fpasswd",
            "path",
            Rule::DotDotSegment,
        ),
        (
            files,
            "file:///%2e%2e/%2e%2e/etc/passwd",
            "path",
            Rule::DotDotSegment,
        ),
        (files, "file:////etc", "path", Rule::AbsolutePath),
        (files, "file:///%5Cx", "path", Rule::AbsolutePath),
        (files, "file:///C:%5Cx", "path", Rule::AbsolutePath),
        (files, "file:///C:x", "path", Rule::AbsolutePath),
        (
            files,
            "file:///%5C%5Cserver%5Cshare",
            "path",
            Rule::AbsolutePath,
        ),
        (
            files,
            "file:///docs/C:%5Cwindows",
            "path",
            Rule::AbsolutePath,
        ),
        (files, "file:///docs/C:x", "path", Rule::AbsolutePath),
        (
            "notes://{v}",
            "notes://a%2Fb",
            "v",
            Rule::SeparatorInSegment,
        ),
        ("x://r{/v*}", "x://r/a/b%2Fc", "v", Rule::SeparatorInSegment),
        (files, "file:///%252e%252e/x", "path", Rule::DoubleEncoding),
        (
            "notes://{id}",
            "notes://%252e%252e",
            "id",
            Rule::DoubleEncoding,
        ),
        (
            "notes://{id}",
            "notes://%EF%BC%8E%EF%BC%8E",
            "id",
            Rule::LookAlike,
        ),
        (
            files,
            "file:///a%EF%BC%8F..%EF%BC%8Fb",
            "path",
            Rule::LookAlike,
        ),
        (files, "file:///x%EF%BC%BC..", "path", Rule::LookAlike),
    ] {
        assert_eq!(
            unsafe_rule(text, uri),
            Some((variable.into(), rule)),
            "{text} on {uri}"
        );
    }
}

#[test]
fn benign_names_pass() {
    for (uri, path) in [
        ("file:///docs/a+b.txt", "docs/a+b.txt"),
        ("file:///docs/a%2Bb.txt", "docs/a+b.txt"),
        ("file:///docs/what%3F.md", "docs/what?.md"),
        ("file:///docs/a%26b.md", "docs/a&b.md"),
        ("file:///docs/a%2Cb.txt", "docs/a,b.txt"),
        ("file:///%7Euser/notes.md", "~user/notes.md"),
        ("file:///notes%3A2024.md", "notes:2024.md"),
        (
            "file:///name%5Bwith%5Dbrackets.txt",
            "name[with]brackets.txt",
        ),
        ("file:///v1..v2", "v1..v2"),
        ("file:///docs/.../x", "docs/.../x"),
        ("file:///.gitignore", ".gitignore"),
        ("file:///caf%C3%A9.md", "caf\u{e9}.md"),
        ("file:///100%25.txt", "100%.txt"),
        ("file:///docs/notes:2024.md", "docs/notes:2024.md"),
    ] {
        both("file:///{+path}", uri, json!({ "path": path }));
    }
}

#[test]
fn query_parameters_are_not_segments() {
    // Neither a value nor a key of the query is a path segment.
    both("x{?q}", "x?q=a%2Fb", json!({"q": "a/b"}));
    both("x{?m*}", "x?a%2Fb=1", json!({"m": {"a/b": "1"}}));
}

#[test]
fn a_refusal_stops_routing() {
    let mut router = Router::new();
    router.insert("x://{+path}", "anything").unwrap();
    router.insert("x://{name}", "one").unwrap();
    assert!(matches!(
        router.at("x://%252e"),
        Err(RouteError::Unsafe {
            rule: Rule::DoubleEncoding,
            ..
        })
    ));
}

#[test]
fn safe_join_refuses_what_leaves_the_base() {
    use rfc6570::safety::JoinError;
    let base = std::path::Path::new("/srv");
    assert_eq!(
        rfc6570::safe_join(base, "a/../../b"),
        Err(JoinError::Escapes)
    );
    assert_eq!(
        rfc6570::safe_join(base, "docs/a+b.txt").unwrap(),
        base.join("docs/a+b.txt")
    );
}

// ---------------------------------------------------------------------------------------------
// Section 14: fragments

#[test]
fn a_template_without_a_fragment_part_sets_the_fragment_aside() {
    // The Python SDK's, the and the Kotlin SDK's examples.
    both(
        "logs://{service}{?level}",
        "logs://api?level=error#section1",
        json!({"service": "api", "level": "error"}),
    );
    both(
        "file:///{+path}",
        "file:///docs/a.md#intro",
        json!({"path": "docs/a.md"}),
    );
    both(
        "api://host/{id}",
        "api://host/foo#section",
        json!({"id": "foo"}),
    );
    both("x://static", "x://static#", json!({}));
    let t = template("logs://{service}{?level}");
    let caps = t.match_uri("logs://api?level=error#section1").unwrap();
    assert_eq!(caps.fragment(), Some("section1"));
    assert_eq!(caps.uri(), "logs://api?level=error#section1");
    assert_eq!(t.match_uri("logs://api").unwrap().fragment(), None);
    assert_eq!(
        template("x://h/{id}")
            .match_uri("x://h/1#")
            .unwrap()
            .fragment(),
        Some("")
    );
    // An encoded `#` is text, not a fragment.
    both("x://h/{id}", "x://h/a%23b", json!({"id": "a#b"}));
}

#[test]
fn a_set_aside_fragment_is_still_checked() {
    let t = template("x://h/{id}");
    assert_eq!(
        t.match_uri("x://h/1#a%ZZ").unwrap_err(),
        MatchError::Malformed {
            position: 9,
            reason: Malformed::InvalidPercentEncoding
        }
    );
    assert_eq!(
        t.match_uri("x://h/1#a b").unwrap_err(),
        MatchError::Malformed {
            position: 9,
            reason: Malformed::Disallowed { byte: b' ' }
        }
    );
    // Path safety reads the values, whatever follows them.
    assert_eq!(
        unsafe_rule("file:///{+path}", "file:///../etc/passwd#x"),
        Some(("path".to_owned(), Rule::DotDotSegment))
    );
}

#[test]
fn a_template_with_a_fragment_part_matches_the_fragment() {
    both(
        "x://page{#section}",
        "x://page#intro",
        json!({"section": "intro"}),
    );
    both("x://a#top", "x://a#top", json!({}));
    assert_eq!(
        matched("x://a#top", "x://a#other"),
        Err(MatchError::NoMatch)
    );
    assert_eq!(
        template("x://page{#s}")
            .match_uri("x://page#i")
            .unwrap()
            .fragment(),
        None
    );
}

#[test]
fn where_both_kinds_match_the_fragment_part_wins() {
    let mut router = Router::new();
    router.insert("x://a/{id}", "plain").unwrap();
    router.insert("x://a/{id}{#f}", "fragment").unwrap();
    router.insert("x://b/{id}{#f:2}", "short fragment").unwrap();
    router.insert("x://b/{id}", "b").unwrap();
    let at = |uri| {
        let routed = router.at(uri).unwrap();
        (*routed.value, routed.fragment())
    };
    assert_eq!(at("x://a/7#top"), ("fragment", None));
    // `{#f:2}` cannot take `top`: the template without a fragment part matches the rest.
    assert_eq!(at("x://b/7#top"), ("b", Some("top")));
    assert_eq!(at("x://b/7#to"), ("short fragment", None));
}

// ---------------------------------------------------------------------------------------------
// Section 13: scheme and host

#[test]
fn scheme_and_authority_literals_compare_without_case() {
    both(
        "resource://MyCoolResource",
        "resource://mycoolresource",
        json!({}),
    );
    both(
        "test://EXAMPLE.COM/{var}",
        "test://example.com/v",
        json!({"var": "v"}),
    );
    both("Notes://Host/{id}", "notes://host/7", json!({"id": "7"}));
    both("notes://host/{id}", "NOTES://HOST/7", json!({"id": "7"}));
    both("urn:isbn:{id}", "URN:isbn:0451", json!({"id": "0451"}));
    both(
        "x://user@Host:80/{p}",
        "X://USER@host:80/a",
        json!({"p": "a"}),
    );
    // A variable in the host keeps the case it was sent in.
    both(
        "x://{tenant}.Example.com/{id}",
        "x://Acme.EXAMPLE.com/1",
        json!({"tenant": "Acme", "id": "1"}),
    );
    // The path, query and fragment keep their case.
    for (text, uri) in [
        ("notes://host/Drafts/{id}", "notes://host/drafts/7"),
        ("x://h/{p}?Mode=a", "x://h/p?mode=a"),
        ("x://h/{p}#Top", "x://H/p#top"),
        ("users/{id}", "Users/7"),
    ] {
        assert_eq!(
            matched(text, uri),
            Err(MatchError::NoMatch),
            "{text} on {uri}"
        );
        assert_eq!(
            routed(text, uri),
            Err(RouteError::NotFound),
            "{text} on {uri}"
        );
    }
    // Where the authority may end in a value, what follows keeps its case.
    assert_eq!(
        matched("x://{+a}Host/x", "x://hOST/x"),
        Err(MatchError::NoMatch)
    );
}

#[test]
fn templates_that_differ_in_scheme_or_host_case_alone_conflict() {
    let mut router = Router::new();
    router.insert("Notes://Host/{id}", 1).unwrap();
    let err = router.insert("notes://HOST/{n}", 2).unwrap_err();
    assert!(
        matches!(err, rfc6570::router::InsertError::Conflict { ref existing, .. } if existing == "Notes://Host/{id}"),
        "{err}"
    );
    // A path that differs in case is another route.
    router.insert("notes://host/Drafts/{id}", 3).unwrap();
    router.insert("notes://host/drafts/{id}", 4).unwrap();
    assert_eq!(*router.at("NOTES://host/Drafts/1").unwrap().value, 3);
    assert_eq!(*router.at("notes://Host/drafts/1").unwrap().value, 4);
    assert_eq!(*router.at("notes://HOST/9").unwrap().value, 1);

    // A relative path that spells a scheme's letters keeps its case.
    let mut router = Router::new();
    router.insert("ab:{x}", 1).unwrap();
    router.insert("ab/{x}", 2).unwrap();
    assert_eq!(*router.at("AB:7").unwrap().value, 1);
    assert_eq!(*router.at("ab/7").unwrap().value, 2);
    assert_eq!(router.at("AB/7").unwrap_err(), RouteError::NotFound);

    // A scheme's letter and a path's uppercase letter at the same place: `E/1` is the path's
    // (the walk, which would find both at one byte, leaves them to the automaton).
    for order in [["e:{x}", "E/{x}"], ["E/{x}", "e:{x}"]] {
        let mut router = Router::new();
        for template in order {
            router.insert(template, template).unwrap();
        }
        assert_eq!(*router.at("E/1").unwrap().value, "E/{x}", "{order:?}");
        assert_eq!(*router.at("E:1").unwrap().value, "e:{x}", "{order:?}");
        assert_eq!(*router.at("e:1").unwrap().value, "e:{x}", "{order:?}");
        assert_eq!(
            router.at("e/1").unwrap_err(),
            RouteError::NotFound,
            "{order:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Section 15: repeated variables

#[test]
fn the_rfc_examples_with_repeated_names_match_back() {
    // RFC 6570 section 3.2: `{/var:1,var}`, `{.who,who}`, `{/who,who}`.
    both("x{/var:1,var}", "x/v/value", json!({"var": "value"}));
    both("x{.who,who}", "x.fred.fred", json!({"who": "fred"}));
    both("x{/who,who}", "x/fred/fred", json!({"who": "fred"}));
    // The dictionary of yosida95/uritemplate and rize/UriTemplate.
    both(
        "https://example.com/dictionary/{term:1}/{term}",
        "https://example.com/dictionary/c/cat",
        json!({"term": "cat"}),
    );
}

#[test]
fn whole_occurrences_give_one_decoded_value() {
    both("m://{k}/{k}", "m://%6Bey/key", json!({"k": "key"}));
    both("m://{k}/{k}", "m://a%20b/a%20b", json!({"k": "a b"}));
    // Found by length where the values can hold the separator.
    both("x{.who,who}", "x.fr.ed.fr.ed", json!({"who": "fr.ed"}));
    both("x{.who,who}", "x.fr.ed.fr%2Eed", json!({"who": "fr.ed"}));
    // `%2E` is a `.` (RFC 3986 normalization), between the occurrences too.
    both("x{.who,who}", "x.fred%2Efred", json!({"who": "fred"}));
    both("x/{who,who}", "x/a,b,a,b", json!({"who": ["a", "b"]}));
    let apart = MatchError::Disagreement {
        variable: "k".into(),
    };
    assert_eq!(matched("m://{k}/{k}", "m://a/b"), Err(apart));
    assert_eq!(
        matched("x{.who,who}", "x.a.b.c"),
        Err(MatchError::Disagreement {
            variable: "who".into()
        })
    );
    assert_eq!(
        routed("m://{k}/{k}", "m://a/b"),
        Err(RouteError::Refused {
            template: "m://{k}/{k}".into(),
            source: MatchError::Disagreement {
                variable: "k".into()
            }
        })
    );
}

#[test]
fn a_prefix_occurrence_is_the_first_characters_of_the_value() {
    let t = "dict://{term:1}/{term}";
    assert_eq!(
        matched(t, "dict://d/cat"),
        Err(MatchError::Disagreement {
            variable: "term".into()
        })
    );
    // Characters, not bytes: `é` is one.
    both("x/{a:1}/{a}", "x/%C3%A9/%C3%A9t%C3%A9", json!({"a": "été"}));
    both("x/{a:3}/{a}", "x/ab/ab", json!({"a": "ab"}));
    // A name with prefixes only takes its longest occurrence.
    both("x/{v:2}/{v:5}", "x/ab/abcde", json!({"v": "abcde"}));
    assert_eq!(
        matched("x/{v:2}/{v:5}", "x/ab/a"),
        Err(MatchError::Disagreement {
            variable: "v".into()
        })
    );
}

#[test]
fn lists_and_maps_agree_item_by_item() {
    both("x/{l}/x{/l*}", "x/a,b/x/a/b", json!({"l": ["a", "b"]}));
    both(
        "x/{m*}/{m}",
        "x/a=1,b=2/a,1,b,2",
        json!({"m": {"a": "1", "b": "2"}}),
    );
    assert_eq!(
        matched("x/{m*}/{m}", "x/a=1,b=2/a,1,b,3"),
        Err(MatchError::Disagreement {
            variable: "m".into()
        })
    );
}

#[test]
fn a_reserved_occurrence_s_commas_may_part_a_list_s_items() {
    // `{+q}` writes `a,b` for the list `[a, b]` and for the string "a,b"; the other
    // occurrence tells which it was, and the value reported expands to the URI again.
    for (text, uri, value) in [
        ("x://{+q}{?q}", "x://a,b?q=a,b", json!({"q": ["a", "b"]})),
        ("x://{+q}{?q}", "x://a,b?q=a%2Cb", json!({"q": "a,b"})),
        ("x://{q}/{+q}", "x://a,b/a,b", json!({"q": ["a", "b"]})),
        ("x://{q*}/{#q}", "x://k=v/#k,v", json!({"q": {"k": "v"}})),
        // A prefix says the value is a string.
        ("x://{q:1}/{+q}", "x://a/a,b", json!({"q": "a,b"})),
        // Items that hold a comma, which `{+q}` writes raw too.
        (
            "x://{+q}{?q}",
            "x://a,b,c?q=a%2Cb,c",
            json!({"q": ["a,b", "c"]}),
        ),
        (
            "x://{q}/{+q}",
            "x://a%2Cb,c/a,b,c",
            json!({"q": ["a,b", "c"]}),
        ),
        (
            "x://{m}/{#m}",
            "x://a%2Cb,/#a,b,",
            json!({"m": ["a,b", ""]}),
        ),
        // An explode of one item says no more than `{#q}` does: the string, as before.
        ("x://{q*}/{#q}", "x://a%2Cb/#a,b", json!({"q": "a,b"})),
        // One of two items does.
        ("x://{q*}/{+q}", "x://a,b/a,b", json!({"q": ["a", "b"]})),
        // The fuzz target's case: a map of one empty key, read back as its list.
        (
            "x://{+q}{?q}",
            "x://,............?q=,............",
            json!({"q": ["", "............"]}),
        ),
    ] {
        both(text, uri, value.clone());
        assert_eq!(
            UriTemplate::parse(text).unwrap().expand(&value).unwrap(),
            uri
        );
    }
    assert_eq!(
        matched("x://{+q}{?q}", "x://a,b?q=a,c"),
        Err(MatchError::Disagreement {
            variable: "q".into()
        })
    );
}

#[test]
fn a_head_that_disagrees_is_said_before_the_query_s_fault() {
    // The query's fault (`q` twice) is the answer only where the head agrees: otherwise the
    // template does not match, and a router tries the others.
    assert_eq!(
        matched("x/{a}/{a}{?q}", "x/1/2?q=1&q=2"),
        Err(MatchError::Disagreement {
            variable: "a".into()
        })
    );
    let mut router = Router::new();
    router.insert("x/{a}/{a}{?q}", "same").unwrap();
    router.insert("x/{b}/{c}{?r}", "two").unwrap();
    assert_eq!(*router.at("x/1/2?q=1&q=2").unwrap().value, "two");
}

#[test]
fn query_occurrences_bind_by_name_and_may_be_left_out() {
    both("x/{q}{?q}", "x/1?q=1", json!({"q": "1"}));
    both("x/{q}{?q}", "x/1", json!({"q": "1"}));
    both("x{?q,q}", "x?q=1&q=1", json!({"q": "1"}));
    assert_eq!(
        matched("x/{q}{?q}", "x/1?q=2"),
        Err(MatchError::Disagreement {
            variable: "q".into()
        })
    );
    // Three parameters for two occurrences.
    assert_eq!(
        matched("x{?q,q}", "x?q=1&q=1&q=1"),
        Err(MatchError::Query(QueryError::DuplicateParameter {
            name: "q".into()
        }))
    );
}

#[test]
fn an_empty_value_agrees_with_an_undefined_one() {
    assert_eq!(matched("x{;a}/{a}", "x;a/"), Ok(json!({"a": ""})));
    assert_eq!(matched("x{;a}/{a}", "x/"), Ok(json!({})));
    assert_eq!(
        matched("x{;a}/{a}", "x;a/1"),
        Err(MatchError::Disagreement {
            variable: "a".into()
        })
    );
}

#[test]
fn templates_whose_occurrences_could_be_placed_otherwise_are_refused() {
    use rfc6570::template::LintKind::RepeatedAmbiguous;
    for (text, uri, position) in [
        ("{+x}/{+x}", "a/b/a/b", 0),
        ("x/{a}.{x}.{x}", "x/a.b.b", 2),
        ("{/a}{/x}/{x}", "/a/b/b", 0),
        ("{a,b,a}", "1,2,1", 0),
        ("{.v:1,v}", ".v.value", 0),
        ("x/{p:2}/{p*}/", "x/ab/ab/", 9),
        ("x/{l}/{.l*}/", "x/a/.a/", 8),
        ("x/{l}{?l*}", "x/a?l=a", 7),
        ("x{;m*}/{m}", "x;m=1/m,1", 3),
        ("x/{a}/{%61}", "x/q/q", 7),
    ] {
        let refusal = Unsupported::Shape {
            kind: RepeatedAmbiguous,
            position,
        };
        assert_eq!(
            matched(text, uri),
            Err(MatchError::Unsupported(refusal)),
            "{text}"
        );
    }
}

#[test]
fn a_router_prefers_the_repeat_and_falls_back_where_it_disagrees() {
    let mut router = Router::new();
    router.insert("x://{a}/{a}", "same").unwrap();
    router.insert("x://{a}/{b}", "two").unwrap();
    // Not a conflict: `x://{b}/{b}` is, with the first.
    assert!(matches!(
        router.insert("x://{b}/{b}", "again"),
        Err(rfc6570::InsertError::Conflict { ref existing, .. }) if existing == "x://{a}/{a}"
    ));
    let same = router.at("x://1/1").unwrap();
    assert_eq!(
        (*same.value, serde_json::to_value(&same.captures).unwrap()),
        ("same", json!({"a": "1"}))
    );
    let two = router.at("x://1/2").unwrap();
    assert_eq!(
        (*two.value, serde_json::to_value(&two.captures).unwrap()),
        ("two", json!({"a": "1", "b": "2"}))
    );
    // Whatever the order of insertion, and with a query tail and a fragment set aside.
    let mut router = Router::new();
    router.insert("x://{c}/{d}{?q}", "two").unwrap();
    router.insert("x://{b}/{b}{?q}", "same").unwrap();
    assert_eq!(*router.at("x://1/1?q=2#f").unwrap().value, "same");
    assert_eq!(*router.at("x://1/2?q=2#f").unwrap().value, "two");
    // Several repeats that disagree, then one that agrees.
    let mut router = Router::new();
    router.insert("y://{a}/{a}/{b}", 1).unwrap();
    router.insert("y://{a}/{b}/{b}", 2).unwrap();
    router.insert("y://{a}/{b}/{a}", 3).unwrap();
    router.insert("y://{a}/{b}/{c}", 4).unwrap();
    assert_eq!(*router.at("y://1/1/2").unwrap().value, 1);
    assert_eq!(*router.at("y://1/2/2").unwrap().value, 2);
    assert_eq!(*router.at("y://1/2/1").unwrap().value, 3);
    assert_eq!(*router.at("y://1/2/3").unwrap().value, 4);
}

#[test]
fn a_strict_option_refuses_repeated_names() {
    let strict = MatchOptions::new().refuse_repeated_names(true);
    let refusal = Unsupported::Shape {
        kind: rfc6570::template::LintKind::RepeatedName,
        position: 17,
    };
    assert_eq!(
        template("dict://{term:1}/{t%65rm}")
            .match_uri_with("dict://c/cat", &strict)
            .unwrap_err(),
        MatchError::Unsupported(refusal)
    );
    assert!(
        template("dict://{term}")
            .match_uri_with("dict://cat", &strict)
            .is_ok()
    );
    let mut router =
        Router::with_options(rfc6570::router::RouterOptions::new().refuse_repeated_names(true));
    assert!(matches!(
        router.insert("x://{a}/{a}", ()),
        Err(rfc6570::InsertError::Unsupported { reason, .. }) if reason == refusal_at(9)
    ));
    router.insert("x://{a}/{b}", ()).unwrap();
}

fn refusal_at(position: usize) -> Unsupported {
    Unsupported::Shape {
        kind: rfc6570::template::LintKind::RepeatedName,
        position,
    }
}
