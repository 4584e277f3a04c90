//! Shapes that stress the radix walk (literals longer than the eight bytes it compares at once,
//! `{q}-` handed over to the VM) and URIs for them. They encode the walk's internals, not what
//! users generate: those generators are public, in `rfc6570::testing`. The router's oracle
//! and the walk's own unit tests (which include this file by path) draw from these.

use proptest::prelude::*;

/// Templates the radix walk serves: delimited `{v}`, a final `{+v}`, a query tail. Some
/// literals are longer than the eight bytes the walk compares at once; `{q}-` is not
/// delimited (`-` cannot end `{q}`), so a few templates take the VM, as a router hands over.
/// Some start with a scheme and an authority, whose letters compare without case, and one
/// with a relative path that spells a scheme's letters (`ab/` beside `ab:`), which the walk
/// cannot hold beside it. The router's oracle and the walk's own tests (which include this
/// file) both draw from it.
pub fn walkable_template() -> impl Strategy<Value = String> {
    let start = prop::sample::select(vec![
        "",
        "",
        "",
        "x://host",
        "X://Hos",
        "x://hostname.example",
        "ab:",
        "ab/",
    ]);
    let part = prop_oneof![
        3 => prop::sample::select(vec!["/", "a", "b", "/a", "x/", "-"]).prop_map(String::from),
        1 => prop::sample::select(vec!["/issues/comments", "/issues/", "issue"])
            .prop_map(String::from),
        2 => prop::sample::select(vec!["{p}/", "{q}-", "{r}/x", "{q}/x", "{r}?"])
            .prop_map(String::from),
    ];
    let end = prop::sample::select(vec![
        "", "{s}", "{+s}", "{?t,u}", "{s}{?t}", "/{+s}", "{&t}",
    ]);
    (start, prop::collection::vec(part, 0..5), end)
        .prop_map(|(start, parts, end)| distinct_names(&(start.to_owned() + &parts.concat() + end)))
}

/// Numbers each variable name of a template (`{p}/{p}` becomes `{p0}/{p1}`): a name used twice
/// is refused for matching.
pub fn distinct_names(template: &str) -> String {
    let (mut out, mut in_expression, mut names) = (String::new(), false, 0);
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        match c {
            '{' => in_expression = true,
            '}' => in_expression = false,
            c if in_expression
                && c.is_ascii_alphabetic()
                && !chars.peek().is_some_and(char::is_ascii_alphanumeric) =>
            {
                out.push_str(&names.to_string());
                names += 1;
            }
            _ => {}
        }
    }
    out
}

/// URIs for [`walkable_template`]s: their literals, separators, triplets, a query, and bytes
/// that stop a walk (a space, a control character, `#`).
pub fn walkable_uri() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "/",
        "a",
        "b",
        "x",
        "-",
        ".",
        "%2F",
        "%41",
        "?t=1",
        "&u=2",
        "?",
        "&",
        "=",
        "/a",
        "\u{e9}",
        "#",
        " ",
        "\u{1}",
        "/issues/comments",
        "/issues/",
        "issue",
        "/issues/commentz",
        // What clients send: raw sub-delimiters, triplets of unreserved characters.
        "+",
        "@",
        "(1)",
        ":",
        "%66",
        "%7e",
        "\"",
        // Schemes and authorities in either case.
        "x://host",
        "X://HOST",
        "x://HoSt",
        "x://HOSTNAME.example",
        "AB:",
        "ab/",
    ]);
    prop::collection::vec(piece, 0..10).prop_map(|p| p.concat())
}
