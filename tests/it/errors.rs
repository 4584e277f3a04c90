//! Every error is reachable, of the right kind and at the right byte. First [`ErrorKind`]: one
//! test per parse kind and per expansion kind, checking the kind, `position()` and
//! `is_parse`/`is_expansion`, plus the one-line and caret (`{:#}`) forms of `Display`. Then the
//! documented limits under abuse: templates and URIs just under and just over each limit, far
//! over it, and long runs of `%`, each give their own error kind (or succeed) without a panic.
//! Nothing here is timed; a matcher or parser that went quadratic on these sizes would show as
//! a test that does not finish.

use std::fmt;

use rfc6570::matching::{Malformed, MatchOptions, Unsupported};
use rfc6570::template::{Limits, LintKind};
use rfc6570::{Error, ErrorKind, MatchError, UriTemplate};
use serde_json::json;

/// Parses `template`, which must fail, and checks the error's kind, position and class.
fn parse_err(template: &str, kind: ErrorKind, position: Option<usize>) -> Error {
    let err = UriTemplate::parse(template).expect_err(template);
    assert_eq!(err.kind(), &kind, "kind for {template:?}");
    assert_eq!(err.position(), position, "position for {template:?}");
    assert!(err.is_parse(), "{template:?} is a parse error");
    assert!(
        !err.is_expansion(),
        "{template:?} is not an expansion error"
    );
    assert_eq!(err.template(), template);
    err
}

/// Expands `template` (which must parse) with `vars`, which must fail, and checks the error.
fn expand_err(
    template: &str,
    vars: &serde_json::Value,
    kind: ErrorKind,
    position: Option<usize>,
) -> Error {
    let t = UriTemplate::parse(template).expect(template);
    let err = t.expand(vars).expect_err(template);
    assert_eq!(err.kind(), &kind, "kind for {template:?}");
    assert_eq!(err.position(), position, "position for {template:?}");
    assert!(err.is_expansion(), "{template:?} is an expansion error");
    assert!(!err.is_parse(), "{template:?} is not a parse error");
    err
}

#[test]
fn invalid_literal() {
    parse_err("a b", ErrorKind::InvalidLiteral, Some(1));
    parse_err("a}", ErrorKind::InvalidLiteral, Some(1));
    parse_err("x/{y}<", ErrorKind::InvalidLiteral, Some(5));
    parse_err("\u{7f}", ErrorKind::InvalidLiteral, Some(0));
    // Non-ASCII outside ucschar/iprivate; the offset is in bytes.
    parse_err("caf\u{e9}\u{FFFE}", ErrorKind::InvalidLiteral, Some(5));
}

#[test]
fn invalid_percent_encoding() {
    parse_err("%4", ErrorKind::InvalidPercentEncoding, Some(0));
    parse_err("ab%zz", ErrorKind::InvalidPercentEncoding, Some(2));
    parse_err("a%", ErrorKind::InvalidPercentEncoding, Some(1));
    // In a variable name, too.
    parse_err("x{%2x}", ErrorKind::InvalidPercentEncoding, Some(2));
}

#[test]
fn unclosed_expression() {
    parse_err("x{y", ErrorKind::UnclosedExpression, Some(1));
    parse_err("{a}/{b,c", ErrorKind::UnclosedExpression, Some(4));
    parse_err("{+a:3", ErrorKind::UnclosedExpression, Some(0));
}

#[test]
fn reserved_operator() {
    for op in ['=', ',', '!', '@', '|'] {
        parse_err(
            &format!("ab{{{op}x}}"),
            ErrorKind::ReservedOperator(op),
            Some(3),
        );
    }
}

#[test]
fn invalid_var_name() {
    parse_err("{}", ErrorKind::InvalidVarName, Some(1));
    parse_err("{x..y}", ErrorKind::InvalidVarName, Some(2));
    parse_err("{x.}", ErrorKind::InvalidVarName, Some(2));
    parse_err("{a,}", ErrorKind::InvalidVarName, Some(3));
    parse_err("{/-x}", ErrorKind::InvalidVarName, Some(2));
}

#[test]
fn invalid_prefix() {
    parse_err("{var:0}", ErrorKind::InvalidPrefix, Some(5));
    parse_err("{x:01}", ErrorKind::InvalidPrefix, Some(3));
    parse_err("{x:10000}", ErrorKind::InvalidPrefix, Some(3));
    parse_err("{x:}", ErrorKind::InvalidPrefix, Some(3));
}

#[test]
fn unexpected_character() {
    parse_err(
        "log://{job id}",
        ErrorKind::UnexpectedCharacter(' '),
        Some(10),
    );
    parse_err("{x**}", ErrorKind::UnexpectedCharacter('*'), Some(3));
    parse_err(
        "{x\u{e9}}",
        ErrorKind::UnexpectedCharacter('\u{e9}'),
        Some(2),
    );
}

/// One modifier per variable: the second one is named for what it is.
#[test]
fn prefix_and_explode() {
    parse_err("{x:2*}", ErrorKind::PrefixAndExplode, Some(4));
    parse_err("{x*:3}", ErrorKind::PrefixAndExplode, Some(3));
    let err = UriTemplate::parse("{x*:3}").unwrap_err();
    assert_eq!(err.kind().code(), "prefix_and_explode");
    assert_eq!(
        format!("{err:#}"),
        "a variable cannot have both a prefix (`:N`) and an explode (`*`) modifier at byte 3\n  {x*:3}\n     ^"
    );
}

#[test]
fn prefix_on_composite() {
    let var = || "list".to_owned();
    expand_err(
        "x/{list:2}",
        &json!({"list": ["a", "b"]}),
        ErrorKind::PrefixOnComposite { var: var() },
        Some(2),
    );
    expand_err(
        "{a}{?b,list:3}",
        &json!({"list": {"k": "v"}}),
        ErrorKind::PrefixOnComposite { var: var() },
        Some(3),
    );
    // Through a slice of pairs, too.
    let t = UriTemplate::parse("{list:2}").unwrap();
    let err = t.expand(&[("list", vec!["a", "b"])]).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::PrefixOnComposite { var: var() });
    assert_eq!(err.position(), Some(0));
}

#[test]
fn nested_composite() {
    let var = || "v".to_owned();
    expand_err(
        "a{/v*}",
        &json!({"v": ["x", ["y"]]}),
        ErrorKind::NestedComposite { var: var() },
        Some(1),
    );
    expand_err(
        "{?w,v}",
        &json!({"v": {"k": {"x": "y"}}}),
        ErrorKind::NestedComposite { var: var() },
        Some(0),
    );
    expand_err(
        "ab{+v}",
        &json!({"v": [{"k": "v"}]}),
        ErrorKind::NestedComposite { var: var() },
        Some(2),
    );
}

/// A writer that fails once it has taken `room` bytes.
struct FailingWriter {
    room: usize,
}

impl fmt::Write for FailingWriter {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.room = self.room.checked_sub(s.len()).ok_or(fmt::Error)?;
        Ok(())
    }
}

#[test]
fn write() {
    let t = UriTemplate::parse("log://build/{job_id}").unwrap();
    let vars = json!({"job_id": 42});
    // Failing in the literal and failing in the expression: both are writer failures, which
    // have no position in the template (`Error::position` documents `None` for them).
    for room in [0, 12] {
        let err = t.expand_to(&vars, &mut FailingWriter { room }).unwrap_err();
        assert_eq!(err.kind(), &ErrorKind::Write, "room {room}");
        assert_eq!(err.position(), None, "room {room}");
        assert!(err.is_expansion() && !err.is_parse());
    }
    assert!(t.expand_to(&vars, &mut FailingWriter { room: 14 }).is_ok());
}

#[test]
fn display_one_line_and_caret() {
    let err = parse_err(
        "log://{job id}",
        ErrorKind::UnexpectedCharacter(' '),
        Some(10),
    );
    assert_eq!(
        err.to_string(),
        "unexpected character ' ' in expression at byte 10 of \"log://{job id}\""
    );
    assert_eq!(
        format!("{err:#}"),
        "unexpected character ' ' in expression at byte 10\n  log://{job id}\n            ^"
    );

    // The caret counts characters, not bytes: `é` is two bytes but one column.
    let err = parse_err("caf\u{e9}{x:0}", ErrorKind::InvalidPrefix, Some(8));
    assert_eq!(
        err.to_string(),
        "prefix must be a number from 1 to 9999 at byte 8 of \"caf\u{e9}{x:0}\""
    );
    assert_eq!(
        format!("{err:#}"),
        "prefix must be a number from 1 to 9999 at byte 8\n  caf\u{e9}{x:0}\n         ^"
    );

    let err = expand_err(
        "x/{list:2}",
        &json!({"list": ["a"]}),
        ErrorKind::PrefixOnComposite { var: "list".into() },
        Some(2),
    );
    assert_eq!(
        err.to_string(),
        "prefix modifier on `list`, which is a list or map at byte 2 of \"x/{list:2}\""
    );
    assert_eq!(
        format!("{err:#}"),
        "prefix modifier on `list`, which is a list or map at byte 2\n  x/{list:2}\n    ^"
    );

    // Without a position, both forms name the template on one line.
    let limits = Limits::default().max_expressions(1);
    let err = UriTemplate::parse_with_limits("{a}{b}", &limits).unwrap_err();
    let expected = "template has more than 1 expressions in \"{a}{b}\"";
    assert_eq!(err.to_string(), expected);
    assert_eq!(format!("{err:#}"), expected);
}

#[test]
fn errors_are_std_errors() {
    fn assert_error<E: std::error::Error + Send + Sync + 'static>() {}
    assert_error::<Error>();
    let boxed: Box<dyn std::error::Error> = UriTemplate::parse("{a").unwrap_err().into();
    assert!(boxed.to_string().contains("not closed"));
}

#[test]
fn an_empty_list_nested_in_a_list_is_refused_too() {
    let t = UriTemplate::parse("x{lst}").unwrap();
    for vars in [
        json!({"lst": [[]]}),
        json!({"lst": {"a": []}}),
        json!({"lst": ["a", {}]}),
    ] {
        let err = t.expand(&vars).unwrap_err();
        assert_eq!(
            err.kind(),
            &ErrorKind::NestedComposite { var: "lst".into() },
            "{vars}"
        );
        assert_eq!(err.position(), Some(1));
    }
    assert_eq!(t.expand(&json!({"lst": [null]})).unwrap(), "x");
}

// --- The documented limits ---

/// The documented defaults of `Limits`.
const MAX_TEMPLATE: usize = 64 * 1024;
const MAX_EXPRESSIONS: usize = 1024;
/// The documented default of `MatchOptions::max_uri_len` and `RouterOptions::max_uri_len`.
const MAX_URI: usize = 1 << 15;

fn parse_kind(template: &str) -> (ErrorKind, Option<usize>) {
    let err = UriTemplate::parse(template).unwrap_err();
    (err.kind().clone(), err.position())
}

fn match_err(template: &str, uri: &str) -> MatchError {
    UriTemplate::parse(template)
        .unwrap()
        .match_uri(uri)
        .unwrap_err()
}

#[test]
fn the_documented_defaults() {
    assert_eq!(MAX_TEMPLATE, 64 * 1024);
    assert_eq!(MAX_EXPRESSIONS, 1024);
    assert_eq!(MAX_URI, 32 * 1024);
}

#[test]
fn template_length_limit() {
    let at_limit = format!("x://{}{{+rest}}", "a".repeat(MAX_TEMPLATE - 11));
    assert_eq!(at_limit.len(), MAX_TEMPLATE);
    let t = UriTemplate::parse(&at_limit).unwrap();
    assert_eq!(
        t.expand(&[("rest", "b")]).unwrap().len(),
        MAX_TEMPLATE - 7 + 1
    );

    let over = format!("{at_limit}a");
    let too_long = ErrorKind::TemplateTooLong {
        limit: MAX_TEMPLATE,
    };
    assert_eq!(parse_kind(&over), (too_long.clone(), None));
    let err = UriTemplate::parse(&over).unwrap_err();
    assert!(err.is_parse() && !err.is_expansion());
    // A limit of one's own.
    let limits = Limits::default().max_template_len(8);
    let err = UriTemplate::parse_with_limits("file:///{+path}", &limits).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::TemplateTooLong { limit: 8 });
    // Far over, and over with garbage: the length is checked first.
    assert_eq!(parse_kind(&"{".repeat(10 * MAX_TEMPLATE)).0, too_long);
    assert_eq!(parse_kind(&"%".repeat(MAX_TEMPLATE + 1)).0, too_long);
}

/// A long template is quoted around the fault, not whole: a 120 KB one over the limit gives a
/// message of a line.
#[test]
fn messages_quote_a_long_template_in_part() {
    let over = format!("x://{}", "a".repeat(120_000));
    let err = UriTemplate::parse(&over).unwrap_err();
    let a40 = "a".repeat(40);
    assert_eq!(
        err.to_string(),
        format!(
            "template longer than {MAX_TEMPLATE} bytes in \"x://{}\u{2026}\"",
            "a".repeat(36)
        )
    );
    // Around the position, with the caret under it.
    let t = format!("x://{}{{a b}}{}", "a".repeat(200), "b".repeat(200));
    let err = UriTemplate::parse(&t).unwrap_err();
    assert_eq!(err.position(), Some(206));
    assert_eq!(
        format!("{err:#}"),
        format!(
            "unexpected character ' ' in expression at byte 206\n  \u{2026}{}{{a b}}{}\u{2026}\n  {}^",
            &a40[..38],
            "b".repeat(37),
            " ".repeat(41)
        )
    );
}

#[test]
fn expression_count_limit() {
    let t = UriTemplate::parse(&"{a}".repeat(MAX_EXPRESSIONS)).unwrap();
    assert_eq!(t.expressions().count(), MAX_EXPRESSIONS);

    let too_many = ErrorKind::TooManyExpressions {
        limit: MAX_EXPRESSIONS,
    };
    assert_eq!(
        parse_kind(&"{a}".repeat(MAX_EXPRESSIONS + 1)),
        (too_many.clone(), None)
    );
    // A limit of one's own.
    let limits = Limits::default().max_expressions(2);
    let err = UriTemplate::parse_with_limits("{a}{b}{c}", &limits).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::TooManyExpressions { limit: 2 });
    assert!(err.is_parse() && !err.is_expansion());
    assert!(UriTemplate::parse_with_limits("{a}{b}", &limits).is_ok());
    // 10,000 expressions fit in 64 KiB but not in the expression limit.
    let ten_thousand = "{a}".repeat(10_000);
    assert!(ten_thousand.len() <= MAX_TEMPLATE);
    assert_eq!(parse_kind(&ten_thousand).0, too_many);
}

/// Parsing and expanding stay cheap with the limit raised to 10,000 expressions. (Matching such
/// a template is not: its cost grows with the number of variables too, finding F7.)
#[test]
fn ten_thousand_expressions_when_allowed() {
    let limits = Limits::default().max_expressions(10_000);
    let template = "{/a}".repeat(10_000);
    let t = UriTemplate::parse_with_limits(&template, &limits).unwrap();
    assert_eq!(t.expand(&[("a", "x")]).unwrap(), "/x".repeat(10_000));
    let err = UriTemplate::parse_with_limits(&format!("{template}{{a}}"), &limits).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::TooManyExpressions { limit: 10_000 });
}

#[test]
fn uri_length_limit() {
    let t = UriTemplate::parse("x://{+rest}").unwrap();
    let at_limit = format!("x://{}", "a/".repeat((MAX_URI - 4) / 2));
    assert_eq!(at_limit.len(), MAX_URI);
    let caps = t.match_uri(&at_limit).unwrap();
    assert_eq!(caps.get("rest").unwrap().raw().len(), MAX_URI - 4);

    let over = format!("{at_limit}a");
    let too_long = MatchError::Malformed {
        position: MAX_URI,
        reason: Malformed::TooLong { limit: MAX_URI },
    };
    assert_eq!(t.match_uri(&over).unwrap_err(), too_long);
    // The length is checked before anything else is read.
    assert_eq!(match_err("x://{+rest}", &"%".repeat(MAX_URI + 1)), too_long);
    let raised = MatchOptions::default().max_uri_len(MAX_URI + 1);
    assert!(t.match_uri_with(&over, &raised).is_ok());
}

#[test]
fn percent_runs_in_templates() {
    let bad = ErrorKind::InvalidPercentEncoding;
    assert_eq!(
        parse_kind(&"%".repeat(MAX_TEMPLATE)),
        (bad.clone(), Some(0))
    );
    assert_eq!(parse_kind("%"), (bad.clone(), Some(0)));
    let n = MAX_TEMPLATE - 2;
    assert_eq!(
        parse_kind(&format!("{}%2", "a".repeat(n))),
        (bad.clone(), Some(n))
    );
    let triplets = "%41".repeat((MAX_TEMPLATE - 2) / 3);
    assert_eq!(
        parse_kind(&format!("{triplets}%2")),
        (bad.clone(), Some(triplets.len()))
    );
    assert!(UriTemplate::parse(&triplets).is_ok());
    // In a variable name.
    assert_eq!(
        parse_kind(&format!("{{{}}}", "%".repeat(1000))),
        (bad.clone(), Some(1))
    );
    let name = "%41".repeat(2000);
    assert_eq!(
        parse_kind(&format!("{{{name}%2}}")),
        (bad, Some(1 + name.len()))
    );
    assert!(UriTemplate::parse(&format!("{{{name}}}")).is_ok());
}

#[test]
fn percent_runs_in_uris() {
    let bad_at = |position| MatchError::Malformed {
        position,
        reason: Malformed::InvalidPercentEncoding,
    };
    for template in ["{x}", "x{+rest}", "{/p*}", "{?q}", "{#f}"] {
        assert_eq!(
            match_err(template, &"%".repeat(MAX_URI)),
            bad_at(0),
            "{template}"
        );
        let triplets = "%41".repeat((MAX_URI - 2) / 3);
        let uri = format!("{triplets}%2");
        assert_eq!(
            match_err(template, &uri),
            bad_at(triplets.len()),
            "{template}"
        );
    }
    // Valid triplets for bytes that are not UTF-8, a whole URI of them.
    let t = UriTemplate::parse("x{+rest}").unwrap();
    let uri = format!("x{}", "%FF".repeat((MAX_URI - 1) / 3));
    assert_eq!(
        t.match_uri(&uri).unwrap_err(),
        MatchError::Malformed {
            position: 1,
            reason: Malformed::NotUtf8
        }
    );
    let uri = format!("x{}", "%C3%A9".repeat((MAX_URI - 1) / 6));
    assert_eq!(
        t.match_uri(&uri)
            .unwrap()
            .get("rest")
            .unwrap()
            .decoded()
            .len(),
        (MAX_URI - 1) / 6 * 2
    );
}

/// Matching cost per URI byte grows with the template's size, so templates with too many
/// variables are refused for matching (fuzz finding F7): 1,024 `{/v}` expressions within the
/// default limits used to take seconds on a 2 KiB URI.
#[test]
fn templates_with_too_many_variables_are_refused_for_matching() {
    let expressions = |n: usize| (0..n).map(|i| format!("{{/v{i}}}")).collect::<String>();
    let big = UriTemplate::parse(&expressions(1024)).unwrap();
    let uri = "/x".repeat(1024);
    assert_eq!(
        big.match_uri(&uri).unwrap_err(),
        MatchError::Unsupported(Unsupported::TooManyVariables)
    );
    let fine = UriTemplate::parse(&expressions(24)).unwrap();
    assert!(fine.match_uri(&"/x".repeat(24)).is_ok());
}

/// The limit counts the variables the automaton reads: those before the query tail, which cost
/// every URI byte. The tail's are bound by name after it, so a tail of any length matches.
#[test]
fn the_variable_limit_counts_those_before_the_query_tail() {
    let names = |from: usize, to: usize| {
        (from..to)
            .map(|i| format!("v{i}"))
            .collect::<Vec<_>>()
            .join(",")
    };
    let t = UriTemplate::parse(&format!(
        "x://s/{{{}}}{{?{}}}",
        names(0, 40),
        names(40, 140)
    ))
    .unwrap();
    let uri = format!("x://s/{}?v139=last&v40=first", vec!["7"; 40].join(","));
    let m = t.match_uri(&uri).unwrap();
    assert_eq!(m.get("v39").unwrap().decoded(), "7");
    assert_eq!(m.get("v139").unwrap().decoded(), "last");
    assert_eq!(m.get("v40").unwrap().decoded(), "first");

    let head = UriTemplate::parse(&format!("x://s/{{{}}}", names(0, 65))).unwrap();
    assert_eq!(
        head.match_uri("x://s/7").unwrap_err(),
        MatchError::Unsupported(Unsupported::TooManyVariables)
    );
}

/// A URI's own faults are reported first, whatever the template, as a router reports them: a
/// template that cannot be matched does not hide a malformed URI.
#[test]
fn a_malformed_uri_is_reported_before_an_unsupported_template() {
    let t = UriTemplate::parse("x{&a}{?b}").unwrap();
    assert_eq!(
        t.match_uri("x%ZZ").unwrap_err(),
        MatchError::Malformed {
            position: 1,
            reason: Malformed::InvalidPercentEncoding
        }
    );
    assert_eq!(
        t.match_uri("x").unwrap_err(),
        MatchError::Unsupported(Unsupported::Shape {
            kind: LintKind::QueryAfterQuery,
            position: 5
        })
    );
}
