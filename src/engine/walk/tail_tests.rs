//! The tails a walk binds against the binding after the walk: for templates whose query tails
//! the walk binds, and URIs whose queries it can and cannot bind, a template's match and a
//! router's lookup answer exactly what they answer where no walk binds a tail.

use proptest::prelude::*;

use super::tail::UNBOUND;
use crate::matching::{CaptureKind, MatchOptions};
use crate::router::RouterOptions;
use crate::{Captures, Router, UriTemplate};

/// `f`, with every walk it builds leaving its tails to be read after it: until it returns or
/// unwinds, so that a failing case leaves the thread's later cases as they were.
fn unbound<R>(f: impl FnOnce() -> R) -> R {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            UNBOUND.set(false);
        }
    }
    UNBOUND.set(true);
    let _reset = Reset;
    f()
}

/// All that a match's captures tell, in one text: each capture's name, raw text, kind,
/// decoded value, items and entries, and the fragment set aside.
fn told(captures: &Captures<'_>) -> String {
    let mut text = String::new();
    for c in captures.iter() {
        let items: Vec<_> = c.items().collect();
        let entries: Vec<_> = c.entries().collect();
        let kind = c.kind();
        text += &format!(
            "{}={:?} {kind:?} {:?} {items:?}",
            c.name(),
            c.raw(),
            c.decoded()
        );
        if kind == CaptureKind::Map {
            text += &format!(" {entries:?}");
        }
        text += "; ";
    }
    text + &format!("#{:?}", captures.fragment())
}

fn matched(template: &str, uri: &str, options: &MatchOptions) -> String {
    let t = UriTemplate::parse(template).expect("a template");
    match t.match_uri_with(uri, options) {
        Ok(captures) => told(&captures),
        Err(e) => format!("refused: {e} ({e:?})"),
    }
}

fn routed(templates: &[String], uri: &str, options: RouterOptions) -> String {
    let mut router = Router::with_options(options);
    for (i, t) in templates.iter().enumerate() {
        if router.insert(t.as_str(), i).is_err() {
            return "not inserted".into();
        }
    }
    match router.at(uri) {
        Ok(r) => format!("{} {}", r.template.as_str(), told(&r.captures)),
        Err(e) => format!("refused: {e} ({e:?})"),
    }
}

fn heads() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "s://d",
        "x/{a}",
        "x/{a}/y",
        "{+p}",
        "x/{a}.{b}",
        "q/{q}",
    ])
}

/// Tails the walk binds, and tails it leaves (a prefix, an explode, a repeated name, a name of
/// eight bytes, more than four names).
fn tails() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "{?q}",
        "{?q,lang}",
        "{?q,r}{&s}",
        "{&q}",
        "{?q,lang,r,s}",
        "{?a.b,c}",
        "{?q,longname}",
        "{?q:3}",
        "{?q*}",
        "{?q,q}",
        "{?q,r,s,t,u}",
    ])
}

fn template() -> impl Strategy<Value = String> {
    (heads(), tails()).prop_map(|(h, t)| format!("{h}{t}"))
}

/// A URI that some template's head takes, then a query of pieces: names of the tails, their
/// `=` and `&`, and values with triplets of each kind, faults and fragments.
fn uri() -> impl Strategy<Value = String> {
    let head = prop::sample::select(vec!["s://d", "x/1", "x/1/y", "x/1.2", "q/v", "/a/b", "x/"]);
    let piece = prop::sample::select(vec![
        "?",
        "&",
        "=",
        "q=",
        "lang=",
        "r=",
        "s=",
        "t=",
        "u=",
        "a.b=",
        "c=",
        "longname=",
        "x=",
        "q",
        "Q=",
        "%71=",
        "a",
        "en",
        "%20",
        "%C3%A9",
        "%41",
        "%2F",
        "%zz",
        "%",
        "%C3",
        "#f",
        "..",
        "/",
        "+",
        "\u{e9}",
        "?q=",
        "&q=",
        "?lang=",
        "&lang=",
        "?r=",
        "!",
        "!c",
    ]);
    (head, prop::collection::vec(piece, 0..8)).prop_map(|(h, p)| format!("{h}{}", p.concat()))
}

fn match_options() -> impl Strategy<Value = MatchOptions> {
    (any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(query, encoding, empty)| {
        MatchOptions::new()
            .strict_query(query)
            .strict_encoding(encoding)
            .allow_empty_path_vars(empty)
    })
}

fn router_options() -> impl Strategy<Value = RouterOptions> {
    (any::<bool>(), any::<bool>()).prop_map(|(query, encoding)| {
        RouterOptions::new()
            .strict_query(query)
            .strict_encoding(encoding)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn a_template_matches_as_if_no_walk_bound_its_tail(
        template in template(),
        uri in uri(),
        options in match_options(),
    ) {
        let bound = matched(&template, &uri, &options);
        let after = unbound(|| matched(&template, &uri, &options));
        prop_assert_eq!(bound, after);
    }

    /// With templates whose variables take the numbers of others' tails, some behind a
    /// literal `?`, so that a walk that went their way first leaves marks where a tail's go.
    #[test]
    fn a_router_routes_as_if_no_walk_bound_a_tail(
        tails in prop::collection::vec(template(), 1..3),
        paths in prop::collection::vec(
            prop::sample::select(vec![
                "x/{a}/{b}", "x/{c}", "s://d/{e}", "x/{a}/y/{z}", "{+p}", "s://d?lang={l}!a",
                "s://d?lang={l}!b", "s://d?q={q}&r={r}/",
            ]),
            0..3,
        ),
        uri in uri(),
        options in router_options(),
    ) {
        let mut templates = tails;
        templates.extend(paths.into_iter().map(String::from));
        let bound = routed(&templates, &uri, options);
        let after = unbound(|| routed(&templates, &uri, options));
        prop_assert_eq!(bound, after);
    }
}

/// The shapes of MCP servers' tails, each way a query can come: bound as the binding after
/// the walk binds them, and as the semantics say.
#[test]
fn mcp_tails_bind_as_the_binding_does() {
    let cases = [
        (
            "search://docs{?q,lang}",
            "search://docs?q=uri%20templates&lang=en",
        ),
        (
            "search://docs{?q,lang}",
            "search://docs?lang=en&q=caf%C3%A9",
        ),
        ("search://docs{?q,lang}", "search://docs?q=a"),
        ("search://docs{?q,lang}", "search://docs?"),
        ("search://docs{?q,lang}", "search://docs"),
        ("search://docs{?q,lang}", "search://docs?q=a&q=b"),
        ("search://docs{?q,lang}", "search://docs?q=a&page=2"),
        ("search://docs{?q,lang}", "search://docs?q"),
        ("search://docs{?q,lang}", "search://docs?q=a=b&"),
        ("search://docs{?q,lang}", "search://docs?q=%41"),
        ("search://docs{?q,lang}", "search://docs?q=%zz"),
        ("search://docs{?q,lang}", "search://docs?q=a#top"),
        ("search://docs{?q,lang}", "search://docs?%71=a"),
        ("log://build/{job_id}{?lines}", "log://build/42?lines=10-20"),
        ("log://build/{job_id}{?lines}", "log://build/42"),
    ];
    for options in [MatchOptions::new(), MatchOptions::new().strict_query(true)] {
        for (template, uri) in cases {
            let bound = matched(template, uri, &options);
            assert_eq!(bound, unbound(|| matched(template, uri, &options)), "{uri}");
        }
    }
    let answer = |uri| matched("search://docs{?q,lang}", uri, &MatchOptions::new());
    assert_eq!(
        answer("search://docs?lang=en&q=caf%C3%A9"),
        "q=\"caf%C3%A9\" String \"café\" [\"café\"]; \
         lang=\"en\" String \"en\" [\"en\"]; #None"
    );
    assert!(answer("search://docs?q=a&q=b").starts_with("refused: "));
    // The walk takes the first templates' literal `?lang=` and variable, which write the
    // last one's first pair of marks, before it tries the tail: `q` is undefined all the same.
    let templates = ["s://d?lang={l}!a", "s://d?lang={l}!b", "s://d{?q,lang}"].map(String::from);
    let options = RouterOptions::new();
    let uri = "s://d?lang=en!c";
    assert_eq!(
        routed(&templates, uri, options),
        "s://d{?q,lang} lang=\"en!c\" String \"en!c\" [\"en!c\"]; #None"
    );
    assert_eq!(
        routed(&templates, uri, options),
        unbound(|| routed(&templates, uri, options))
    );
}
