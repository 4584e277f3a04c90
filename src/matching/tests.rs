//! Unit tests of what the matching module keeps to the crate.

use crate::UriTemplate;
use crate::pct;

/// What a safety check reads of a match, by way of each [`super::Capture`]: the reference
/// reading of [`super::Captures::judge_unplain_parts`].
fn parts_by_capture(t: &UriTemplate, uri: &str) -> Vec<(String, String, bool)> {
    let captures = t.match_uri(uri).unwrap();
    let mut parts = Vec::new();
    for c in captures
        .iter()
        .filter(|c| !pct::is_inert(c.raw().as_bytes()))
    {
        let single = c.items_are_segments();
        c.try_for_each_raw_part(|part| {
            parts.push((c.name().to_owned(), part.to_owned(), single));
            Ok::<(), ()>(())
        })
        .unwrap();
    }
    parts
}

/// The parts read off the spans are those of the captures, in the same order, for strings,
/// lists, prefixes, query values and every operator, and for the templates (repeated names,
/// explodes) that are read by way of the captures.
#[test]
fn unplain_parts_are_those_of_the_captures() {
    let cases = [
        ("notes://{id}", "notes://caf%C3%A9"),
        ("notes://{id}", "notes://a,..,b"),
        ("notes://{id:3}", "notes://%2E%2E"),
        ("file:///{+path}", "file:///docs/../a,b.md"),
        ("x://{a}/{b}{#frag}", "x://a.b/c,d#e/f,g"),
        ("x://{.ext}{/seg}{;p}", "x://.a,b/c,..;p=d,e"),
        ("search://docs{?q,lang}", "search://docs?lang=e.n&q=a,b"),
        ("search://docs{?q:2}", "search://docs?q=%2E."),
        ("x://{a}/{a}", "x://a.b/a.b"),
        ("x://h{/p*}", "x://h/a.b/c%2Cd/.."),
        ("x://h{?q*}", "x://h?q=1.2&q=..&r=%2E"),
        ("x://{m*}", "x://a=..,b=c.d"),
        ("x://{a}{?a}", "x://a.b?a=a.b"),
    ];
    for (template, uri) in cases {
        let t = UriTemplate::parse(template).unwrap();
        let captures = t
            .match_uri(uri)
            .unwrap_or_else(|e| panic!("{template} on {uri}: {e}"));
        let mut read = Vec::new();
        captures
            .judge_unplain_parts(&mut |name, part, single| {
                read.push((name.to_owned(), part.to_owned(), single));
                Ok(())
            })
            .unwrap();
        let expected = parts_by_capture(&t, uri);
        assert!(!expected.is_empty(), "{template} on {uri} reads nothing");
        assert_eq!(read, expected, "{template} on {uri}");
    }
}
