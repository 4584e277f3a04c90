//! The documented limits hold under abuse: templates and URIs just under and just over each
//! limit, far over it, and long runs of `%`, each give their own error kind (or succeed) without
//! a panic. Nothing here is timed; a matcher or parser that went quadratic on these sizes would
//! show as a test that does not finish.

use rfc6570::matching::{Malformed, MatchOptions};
use rfc6570::template::Limits;
use rfc6570::{ErrorKind, MatchError, UriTemplate};

/// The documented defaults of `Limits`.
const MAX_TEMPLATE: usize = 64 * 1024;
const MAX_EXPRESSIONS: usize = 1024;
/// The documented default of `MatchOptions::max_uri_len` and `RouterOptions::max_uri_len`.
const MAX_URI: usize = 1 << 20;

fn parse_err(template: &str) -> (ErrorKind, Option<usize>) {
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
    assert_eq!(MAX_URI, 1024 * 1024);
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
    assert_eq!(parse_err(&over), (too_long.clone(), None));
    // Far over, and over with garbage: the length is checked first.
    assert_eq!(parse_err(&"{".repeat(10 * MAX_TEMPLATE)).0, too_long);
    assert_eq!(parse_err(&"%".repeat(MAX_TEMPLATE + 1)).0, too_long);
}

#[test]
fn expression_count_limit() {
    let t = UriTemplate::parse(&"{a}".repeat(MAX_EXPRESSIONS)).unwrap();
    assert_eq!(t.expressions().count(), MAX_EXPRESSIONS);

    let too_many = ErrorKind::TooManyExpressions {
        limit: MAX_EXPRESSIONS,
    };
    assert_eq!(
        parse_err(&"{a}".repeat(MAX_EXPRESSIONS + 1)),
        (too_many.clone(), None)
    );
    // 10,000 expressions fit in 64 KiB but not in the expression limit.
    let ten_thousand = "{a}".repeat(10_000);
    assert!(ten_thousand.len() <= MAX_TEMPLATE);
    assert_eq!(parse_err(&ten_thousand).0, too_many);
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
    assert_eq!(parse_err(&"%".repeat(MAX_TEMPLATE)), (bad.clone(), Some(0)));
    assert_eq!(parse_err("%"), (bad.clone(), Some(0)));
    let n = MAX_TEMPLATE - 2;
    assert_eq!(
        parse_err(&format!("{}%2", "a".repeat(n))),
        (bad.clone(), Some(n))
    );
    let triplets = "%41".repeat((MAX_TEMPLATE - 2) / 3);
    assert_eq!(
        parse_err(&format!("{triplets}%2")),
        (bad.clone(), Some(triplets.len()))
    );
    assert!(UriTemplate::parse(&triplets).is_ok());
    // In a variable name.
    assert_eq!(
        parse_err(&format!("{{{}}}", "%".repeat(1000))),
        (bad.clone(), Some(1))
    );
    let name = "%41".repeat(2000);
    assert_eq!(
        parse_err(&format!("{{{name}%2}}")),
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
    assert!(matches!(
        big.match_uri(&uri),
        Err(MatchError::Unsupported { .. })
    ));
    let fine = UriTemplate::parse(&expressions(24)).unwrap();
    assert!(fine.match_uri(&"/x".repeat(24)).is_ok());
}
