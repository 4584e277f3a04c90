//! Unit tests of what the matching module keeps to the crate.

use super::{MatchError, MatchOptions, QueryError};
use crate::UriTemplate;
use crate::pct;
use crate::pct::tests::concatenations;
use crate::template::Parsed;

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

/// The values a match binds, by name, decoded; or its error.
fn bound(template: &str, uri: &str, strict: bool) -> Result<Vec<(String, String)>, MatchError> {
    let t = UriTemplate::parse(template).unwrap();
    let options = MatchOptions::new().strict_query(strict);
    let captures = t.match_uri_with(uri, &options)?;
    Ok(captures
        .iter()
        .map(|c| (c.name().to_owned(), c.decoded().into_owned()))
        .collect())
}

/// A query tail of short plain names binds its pairs by their packed names
/// (`Parsed::tail_words`); one that cannot be packed, and pairs whose names cannot, compare
/// names unit by unit. Both give the same answers: values in any order, an undeclared name
/// passed over or refused when strict, a name given twice refused, however it is spelled.
#[test]
fn query_pairs_bind_alike_by_packed_names_and_by_units() {
    let pairs = |p: &[(&str, &str)]| -> Vec<(String, String)> {
        p.iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    };
    let duplicate =
        |name: &str| MatchError::Query(QueryError::DuplicateParameter { name: name.into() });
    let unexpected =
        |name: &str| MatchError::Query(QueryError::UnexpectedParameter { name: name.into() });
    // Packed: at most four names of at most eight bytes, plain.
    let t = "x://s{?q,lang}";
    assert!(Parsed::parse(t).unwrap().tail_words().is_some());
    assert_eq!(
        bound(t, "x://s?lang=en&q=a%20b", false),
        Ok(pairs(&[("q", "a b"), ("lang", "en")]))
    );
    assert_eq!(bound(t, "x://s?utm=1&q=a", false), Ok(pairs(&[("q", "a")])));
    assert_eq!(bound(t, "x://s?utm=1&q=a", true), Err(unexpected("utm")));
    assert_eq!(bound(t, "x://s?q=a&q=b", false), Err(duplicate("q")));
    // A pair's name with a triplet is compared by units, against the same variables.
    assert_eq!(bound(t, "x://s?%71=a", false), Ok(pairs(&[("q", "a")])));
    assert_eq!(bound(t, "x://s?q=a&%71=b", false), Err(duplicate("%71")));
    assert_eq!(
        bound(t, "x://s?averyverylongname=1&q=2", false),
        Ok(pairs(&[("q", "2")]))
    );
    // Not packed: a long name, five variables, a prefix, a name the tail repeats.
    for t in [
        "x://s{?abcdefghi,q}",
        "x://s{?a,b,c,d,q}",
        "x://s{?a:3,q}",
        "x://s{?q,q}",
    ] {
        assert!(Parsed::parse(t).unwrap().tail_words().is_none(), "{t}");
        assert_eq!(
            bound(t, "x://s?utm=1&q=a", true),
            Err(unexpected("utm")),
            "{t}"
        );
    }
    assert_eq!(
        bound("x://s{?abcdefghi,q}", "x://s?q=1&abcdefghi=2", false),
        Ok(pairs(&[("abcdefghi", "2"), ("q", "1")]))
    );
    assert_eq!(
        bound("x://s{?a,b,c,d,q}", "x://s?q=1&q=2", false),
        Err(duplicate("q"))
    );
    // A name the head uses too is packed in the tail; given twice, it is refused alike.
    assert!(Parsed::parse("x://{q}{?q}").unwrap().tail_words().is_some());
    assert_eq!(
        bound("x://{q}{?q}", "x://a?q=a&q=a", false),
        Err(duplicate("q"))
    );
}

/// A pair whose first bytes are a declared name and its `=` is bound from one word
/// (`PackedNames::head_of`); every other pair as before. Over every query of up to three pieces
/// (names declared or not, with and without `=`, spelled with a triplet, empty pairs), alone
/// and after a pair that makes the query longer than a word, the template read by heads
/// answers as one whose eight-byte name leaves it words only, and one whose nine-byte name
/// leaves it neither, strict or not.
#[test]
fn query_pairs_bind_alike_by_heads_by_words_and_by_units() {
    let by_heads = "x://s{?q,lang}";
    let by_words = "x://s{?q,lang,abcdefgh}";
    let by_units = "x://s{?q,lang,abcdefghi}";
    let parsed = |t| Parsed::parse(t).unwrap();
    assert!(parsed(by_heads).tail_words().is_some_and(|w| w.has_heads()));
    assert!(
        parsed(by_words)
            .tail_words()
            .is_some_and(|w| !w.has_heads())
    );
    assert!(parsed(by_units).tail_words().is_none());
    let pieces = [
        "q=", "q", "lang=", "lang", "=", "x", "&", "%71=", "qq=", "langs=", "=q", "%20",
    ];
    let mut queries = concatenations(&pieces, 3);
    // Each once more after a pair that makes the query longer than a word.
    let longer: Vec<String> = queries.iter().map(|q| format!("utm=12345&{q}")).collect();
    queries.extend(longer);
    for query in &queries {
        let uri = format!("x://s?{query}");
        for strict in [false, true] {
            let heads = bound(by_heads, &uri, strict);
            assert_eq!(
                heads,
                bound(by_words, &uri, strict),
                "{uri} strict {strict}"
            );
            assert_eq!(
                heads,
                bound(by_units, &uri, strict),
                "{uri} strict {strict}"
            );
        }
    }
}
