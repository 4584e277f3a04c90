//! Every [`ErrorKind`] is reachable and reported at the right byte: one test per parse kind and
//! per expansion kind, checking the kind, `position()` and `is_parse`/`is_expansion`, plus the
//! one-line and caret (`{:#}`) forms of `Display`.

use std::fmt;

use rfc6570::template::Limits;
use rfc6570::{Error, ErrorKind, UriTemplate};
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
    parse_err("{x:2*}", ErrorKind::UnexpectedCharacter('*'), Some(4));
    parse_err(
        "log://{job id}",
        ErrorKind::UnexpectedCharacter(' '),
        Some(10),
    );
    parse_err("{x*:3}", ErrorKind::UnexpectedCharacter(':'), Some(3));
    parse_err(
        "{x\u{e9}}",
        ErrorKind::UnexpectedCharacter('\u{e9}'),
        Some(2),
    );
}

#[test]
fn template_too_long() {
    let limits = Limits::default().max_template_len(8);
    let err = UriTemplate::parse_with_limits("file:///{+path}", &limits).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::TemplateTooLong { limit: 8 });
    assert_eq!(err.position(), None);
    assert!(err.is_parse() && !err.is_expansion());
    // The default limit is 64 KiB.
    assert!(UriTemplate::parse(&"a".repeat(64 * 1024)).is_ok());
    let err = UriTemplate::parse(&"a".repeat(64 * 1024 + 1)).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::TemplateTooLong { limit: 64 * 1024 });
}

#[test]
fn too_many_expressions() {
    let limits = Limits::default().max_expressions(2);
    let err = UriTemplate::parse_with_limits("{a}{b}{c}", &limits).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::TooManyExpressions { limit: 2 });
    assert_eq!(err.position(), None);
    assert!(err.is_parse() && !err.is_expansion());
    assert!(UriTemplate::parse_with_limits("{a}{b}", &limits).is_ok());
    // The default limit is 1,024.
    assert!(UriTemplate::parse(&"{a}".repeat(1024)).is_ok());
    let err = UriTemplate::parse(&"{a}".repeat(1025)).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::TooManyExpressions { limit: 1024 });
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
