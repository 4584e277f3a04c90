//! Partial expansion, rule by rule (semantics, section 17): what is written, what is kept,
//! and what stays bound, for each operator.

use rfc6570::UriTemplate;
use serde_json::json;

/// The template's partial expansion with `given`: its text and the names it keeps bound.
fn partial(template: &str, given: serde_json::Value) -> (String, Vec<String>) {
    let p = UriTemplate::parse(template)
        .unwrap()
        .partial(&given)
        .unwrap();
    (p.to_string(), p.bound_names().map(String::from).collect())
}

/// Each case: the template, the values given, the text expected and the names left bound.
fn check_all<const N: usize>(cases: [(&str, serde_json::Value, &str, Vec<&str>); N]) {
    for (template, given, expected, bound) in cases {
        let bound = bound.into_iter().map(String::from).collect();
        assert_eq!(
            partial(template, given),
            (expected.into(), bound),
            "{template}"
        );
    }
}

#[test]
fn operators_whose_first_is_their_separator_write_each_given_variable() {
    let given = json!({"b": "2", "d": "4"});
    for (template, expected) in [
        ("{/a,b,c,d}", "{/a}/2{/c}/4"),
        ("{.a,b,c,d}", "{.a}.2{.c}.4"),
        ("{;a,b,c,d}", "{;a};b=2{;c};d=4"),
        ("{&a,b,c,d}", "{&a}&b=2{&c}&d=4"),
        ("x{/b,d}y", "x/2/4y"),
        ("{/a*,b,c:3}", "{/a*}/2{/c:3}"),
    ] {
        assert_eq!(
            partial(template, given.clone()),
            (expected.into(), vec![]),
            "{template}"
        );
    }
}

#[test]
fn a_query_writes_given_variables_until_an_unknown_one_comes_first() {
    check_all([
        ("{?x,y,z}", json!({"x": 1, "z": 3}), "?x=1{&y}&z=3", vec![]),
        ("{?x,y,z}", json!({"x": 1}), "?x=1{&y,z}", vec![]),
        // `y` leads with `?` or `&` as `x` turns out: it cannot be written yet.
        ("{?x,y,z}", json!({"y": 2}), "{?x,y,z}", vec!["y"]),
        ("{?x,y,z}", json!({"y": 2, "z": 3}), "{?x,y}&z=3", vec!["y"]),
        (
            "{?list*}",
            json!({"list": ["a", "b"]}),
            "?list=a&list=b",
            vec![],
        ),
    ]);
}

#[test]
fn simple_reserved_and_fragment_expressions_are_written_whole_or_kept_whole() {
    check_all([
        ("{x,y}", json!({"x": "a b", "y": "c"}), "a%20b,c", vec![]),
        ("{x,y}", json!({"x": "1"}), "{x,y}", vec!["x"]),
        ("{+x,y}", json!({"y": "/p"}), "{+x,y}", vec!["y"]),
        ("{#x}", json!({"x": "s/t"}), "#s/t", vec![]),
        // A `'` that `+` keeps is literal text the grammar accepts (section 4).
        ("{+x}", json!({"x": "it's"}), "it's", vec![]),
        ("{x}", json!({"x": "it's"}), "it%27s", vec![]),
    ]);
}

#[test]
fn undefined_values_are_not_given() {
    let given = json!({"a": null, "b": [], "c": {}, "d": [null]});
    assert_eq!(partial("{/a,b,c,d}", given), ("{/a,b,c,d}".into(), vec![]));
}

#[test]
fn bound_values_are_owned_and_win_over_later_ones() {
    let t = UriTemplate::parse("{x,y}{?z}").unwrap();
    let p = {
        let list = vec![String::from("a"), String::from("b")];
        t.partial(&[("x", &list)]).unwrap()
    };
    assert_eq!(p.expand(&[("y", "c")]).unwrap(), "a,b,c");
    assert_eq!(p.expand(&json!({"x": "other", "z": 1})).unwrap(), "a,b?z=1");
}

#[test]
fn refusals_name_the_variable_and_the_expression() {
    let t = UriTemplate::parse("a/{b}{/c:2}").unwrap();
    let err = t.partial(&json!({"c": ["x"]})).unwrap_err();
    assert_eq!(
        err.kind(),
        &rfc6570::ErrorKind::PrefixOnComposite { var: "c".into() }
    );
    assert_eq!(err.position(), Some(5));
}

#[test]
fn the_result_is_a_template_that_matches() {
    let p = UriTemplate::parse("log://{host}/build/{job_id}{?lines}")
        .unwrap()
        .partial(&[("host", "ci")])
        .unwrap();
    let caps = p
        .template()
        .match_uri("log://ci/build/42?lines=1-5")
        .unwrap();
    assert_eq!(caps.get("job_id").unwrap().decoded(), "42");
}
