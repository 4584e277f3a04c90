//! The labels of `rfc6570::testing` against what the matcher and the default router do: every
//! hostile variant of the templates MCP servers list, generated cases of those templates, and
//! both over random templates. A label the code disagrees with is a bug in one of them.

use proptest::prelude::*;
use rfc6570::testing::{Case, Expected, hostile_variants, strategies};
use rfc6570::{Router, UriTemplate};

/// Templates of every operator, in the shapes servers list.
const TEMPLATES: [&str; 16] = [
    "file:///{+path}",
    "log://build/{job_id}{?lines}",
    "search://docs{?q,lang}",
    "x://archive{.ext}",
    "x://page{#section}",
    "x://repo{/owner,name}",
    "x://map{;x,y}",
    "docs://{name}",
    "x://{a}/{b}.txt",
    "x://s?fixed=yes{&x,y}",
    "notes://{id}/{+rest}",
    "x://{a}.{b}",
    "x://{p*}",
    "x://{/p*}",
    "x://{?m*}",
    "x://{a,b}",
];

/// A default router holding `t`; `None` when it refuses the template (as it refuses
/// templates the matcher cannot serve).
fn router_of(t: &UriTemplate) -> Option<Router<()>> {
    let mut router = Router::new();
    router.insert(t.as_str(), ()).ok()?;
    Some(router)
}

/// Checks a case against the matcher and a default router. (A template the matcher refuses
/// when it compiles is never answered wrongly: the checks pass it.)
fn check(case: &Case, router: &Option<Router<()>>) -> Result<(), TestCaseError> {
    case.check_match(&case.template().match_uri(case.uri()))?;
    if let Some(router) = router {
        case.check_route(&router.at(case.uri()))?;
    }
    Ok(())
}

#[test]
fn every_hostile_variant_of_the_mcp_templates_gets_its_label() {
    let (mut variants, mut exact) = (0, 0);
    for text in TEMPLATES {
        let t = UriTemplate::parse(text).unwrap();
        let router = router_of(&t);
        for h in hostile_variants(&t) {
            check(h.case(), &router).unwrap_or_else(|e| panic!("{e}"));
            variants += 1;
            exact += usize::from(!matches!(h.case().expected_route(), Expected::NeverUnsafe));
        }
    }
    // Most labels are exact: the refusal with its rule or position, or the value delivered.
    assert!(
        variants > 4000 && exact * 10 > variants * 9,
        "{exact} of {variants}"
    );
}

#[test]
fn the_issue_s_spellings_are_labelled_as_the_rules_say() {
    use rfc6570::matching::Malformed;
    use rfc6570::safety::Rule;
    let t = UriTemplate::parse("file:///{+path}").unwrap();
    let variants = hostile_variants(&t);
    let label = |uri: &str| {
        let v = variants.iter().find(|v| v.case().uri() == uri);
        v.unwrap_or_else(|| panic!("no variant {uri}"))
            .case()
            .expected_route()
            .clone()
    };
    let unsafe_ = |rule| Expected::Unsafe {
        variable: "path".into(),
        rule,
    };
    let malformed = |position, reason| Expected::Malformed { position, reason };
    assert_eq!(label("file:///..%2Fx"), unsafe_(Rule::DotDotSegment));
    assert_eq!(label("file:///%252E%252E"), unsafe_(Rule::DoubleEncoding));
    assert_eq!(
        label("file:///%C0%AE%C0%AE"),
        malformed(8, Malformed::NotUtf8)
    );
    assert_eq!(
        label("file:///\u{ff0e}\u{ff0e}\u{ff0f}x"),
        unsafe_(Rule::LookAlike)
    );
    assert_eq!(label("file:///a%00b"), unsafe_(Rule::ControlCharacter));
    assert_eq!(
        label("file:///a\0b"),
        malformed(9, Malformed::Disallowed { byte: 0 })
    );
    assert_eq!(
        label("file:///a%"),
        malformed(9, Malformed::InvalidPercentEncoding)
    );
    let delivered = label("file:///report(1).pdf");
    assert!(matches!(delivered, Expected::Match { ref exact, .. }
        if exact.get("path") == Some(&rfc6570::testing::Value::text("report(1).pdf"))));
    let t = UriTemplate::parse("docs://{name}").unwrap();
    let v = hostile_variants(&t);
    let sep = v.iter().find(|v| v.case().uri() == "docs://a%2Fb").unwrap();
    assert_eq!(
        sep.case().expected_route(),
        &Expected::Unsafe {
            variable: "name".into(),
            rule: Rule::SeparatorInSegment
        }
    );
}

#[test]
fn readings_the_template_leaves_open_get_weak_labels() {
    use rfc6570::testing::{Value, Values};
    let text = |s: &str| Value::text(s);
    let cases = [
        // An undefined `{/b}` writes nothing, so the `-` after it may end `a`.
        (
            "x://{a}{/b}-{c}",
            Values::new().with("a", text("p-q")).with("c", text("r")),
        ),
        // A literal `é` equals `%C3%A9`, which `a` holds.
        (
            "x://{a}\u{e9}{b}",
            Values::new()
                .with("a", text("p\u{e9}q"))
                .with("b", text("r")),
        ),
        // With `a` empty, `a = "-x"` reads the literal into it: a match, not "not found".
        (
            "x://{a}-{b}",
            Values::new().with("a", text("")).with("b", text("x-y")),
        ),
        // Outside the round-trip domain: a triplet that is not UTF-8, a `?` under `{+v}`.
        ("file:///{+path}", Values::new().with("path", text("%FF"))),
        ("file:///{+path}", Values::new().with("path", text("a?b"))),
    ];
    for (template, values) in cases {
        let t = UriTemplate::parse(template).unwrap();
        let case = Case::new(&t, values).unwrap();
        check(&case, &router_of(&t)).unwrap_or_else(|e| panic!("{template}: {e}"));
        assert!(
            !matches!(case.expected_route(), Expected::Match { exact, .. } if !exact.is_empty()),
            "{template}: {:?}",
            case.expected_route()
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn generated_cases_of_the_mcp_templates_route_as_labelled(
        (case, router) in (0..TEMPLATES.len()).prop_flat_map(|i| {
            let t = UriTemplate::parse(TEMPLATES[i]).unwrap();
            (strategies::cases(&t), Just(router_of(&t)))
        }).prop_map(|(c, r)| (c, std::sync::Arc::new(r)))
    ) {
        check(&case, &router)?;
    }

    #[test]
    fn hostile_uris_of_the_mcp_templates_route_as_labelled(
        (hostile, router) in (0..TEMPLATES.len()).prop_flat_map(|i| {
            let t = UriTemplate::parse(TEMPLATES[i]).unwrap();
            (strategies::hostile(&t), Just(router_of(&t)))
        }).prop_map(|(h, r)| (h, std::sync::Arc::new(r)))
    ) {
        check(hostile.case(), &router)?;
    }

    #[test]
    fn hostile_uris_of_random_templates_route_as_labelled(
        (hostile, t) in strategies::matchable_templates()
            .prop_filter("a variable", |g| g.specs().count() > 0)
            .prop_flat_map(|g| {
            let t = g.parse().unwrap();
            (strategies::hostile(&t), Just(t))
        })
    ) {
        check(hostile.case(), &router_of(&t))?;
    }

    #[test]
    fn generated_cases_of_random_templates_route_as_labelled(
        (case, t) in strategies::matchable_templates().prop_flat_map(|g| {
            let t = g.parse().unwrap();
            (strategies::cases(&t), Just(t))
        })
    ) {
        check(&case, &router_of(&t))?;
    }
}

/// Found by the hostile fuzz target: where an expression that writes its separator is followed
/// by a literal starting with it, the reading of the URI is not pinned (the literal `&` after
/// `keno` outranks the separator before `ttab`), so no label may promise exact values.
#[test]
fn a_literal_that_starts_with_the_separator_pins_nothing() {
    use rfc6570::testing::{Value, Values};
    let t = UriTemplate::parse("/uers{/id}{?keno,ttab}&{+s*}").unwrap();
    let values = Values::new()
        .with("id", Value::text("zq0w"))
        .with("keno", Value::text("zq1w"))
        .with("ttab", Value::text("zq2w"))
        .with("s", Value::text("*a"));
    let case = Case::new(&t, values).unwrap();
    assert_eq!(case.uri(), "/uers/zq0w?keno=zq1w&ttab=zq2w&*a");
    assert!(
        matches!(
            case.expected_match(),
            Expected::Any | Expected::Match { .. }
        ),
        "{:?}",
        case.expected_match()
    );
    case.check_match(&t.match_uri(case.uri())).unwrap();
}

/// Found by the property above: `{+p*}` writes a `,` in an item raw, so the router reads the
/// item `..,` as the items `..` and ``, and refuses the first. The label must not promise a
/// match there.
#[test]
fn an_item_that_holds_the_separator_is_judged_as_the_router_splits_it() {
    use rfc6570::testing::{Value, Values};
    let t = UriTemplate::parse("x/{+p*}").unwrap();
    let case = Case::new(&t, Values::new().with("p", Value::list(["..,"]))).unwrap();
    assert_eq!(case.uri(), "x/..,");
    assert_eq!(case.expected_route(), &Expected::NeverUnsafe);
    check(&case, &router_of(&t)).unwrap();
}
