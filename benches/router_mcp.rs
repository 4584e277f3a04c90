//! Router, MCP shapes: the resource templates of a realistic MCP server, routed with this crate's
//! router and with a first-match scan over a `Vec<regex::Regex>` (what MCP SDKs do today), with a
//! `memchr` pass over the same bytes as the floor.
//!
//! Each lookup routes the URI and reads every captured value percent-decoded, which is what a
//! `resources/read` handler does. Groups:
//!
//! * `mcp/plain`: URIs with nothing to decode;
//! * `mcp/decode`: URIs whose values need percent-decoding (UTF-8, spaces, query values);
//! * `mcp/refused`: URIs this crate's router refuses by path safety (`..`, double encoding, a
//!   separator in a segment, fullwidth dots, a NUL, a drive letter). The regex scan does no such
//!   check and routes them, so it is timed doing less work than the router.

mod common;

use std::borrow::Cow;
use std::hint::black_box;

use common::{floor_scan, regex_scan, translate};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rfc6570::{RouteError, Router};

const TEMPLATES: [&str; 10] = [
    "file:///{+path}",
    "db://users/{id}/profile",
    "db://users/{id}/posts/{post}",
    "search://docs{?q,lang}",
    "log://build/{job_id}{?lines}",
    "notes://{id}",
    "config://app",
    "config://features",
    "docs://readme",
    "status://health",
];

const PLAIN: [(&str, usize); 7] = [
    ("config://app", 6),
    ("db://users/ada/profile", 1),
    ("db://users/ada/posts/17", 2),
    ("notes://todo-42", 5),
    ("log://build/1234?lines=10-20", 4),
    ("search://docs?q=rust&lang=en", 3),
    ("file:///docs/guide/intro.md", 0),
];

const DECODE: [(&str, usize); 5] = [
    ("file:///docs/caf%C3%A9%20menu.md", 0),
    ("db://users/J%C3%BCrgen%20K/profile", 1),
    ("notes://my%20note%21", 5),
    ("search://docs?q=uri%20templates%20%C3%A9t%C3%A9&lang=fr", 3),
    ("log://build/build%2042?lines=1%2C2", 4),
];

const REFUSED: [(&str, usize); 6] = [
    ("file:///docs/../../etc/passwd", 0),
    ("file:///..%2F..%2Fetc%2Fpasswd", 0),
    ("notes://a%2Fb", 5),
    ("file:///docs/%EF%BC%8E%EF%BC%8E/secret", 0),
    ("db://users/%00/profile", 1),
    ("file:///C:%5Cwindows%5Csystem32", 0),
];

/// An MCP template as the SDKs' regex: `{x}` as `([^/]+)`, `{+x}` as `(.+)`, `{?a,b}` as
/// optional `?a=..` then `&b=..` in order.
fn sdk_regex(template: &str) -> regex::Regex {
    let pattern = translate(template, regex::escape, |expr| {
        if expr.starts_with('+') {
            "(.+)".to_owned()
        } else if let Some(names) = expr.strip_prefix('?') {
            names
                .split(',')
                .enumerate()
                .map(|(i, n)| {
                    let lead = if i == 0 { r"\?" } else { "&" };
                    format!("(?:{lead}{}=([^&]*))?", regex::escape(n))
                })
                .collect()
        } else {
            "([^/]+)".to_owned()
        }
    });
    regex::Regex::new(&format!("^{pattern}$")).expect("valid regex")
}

/// Routes with this crate and reads every value decoded; returns the route or the error.
#[inline]
fn route_ours(router: &Router<usize>, uri: &str) -> Result<usize, RouteError> {
    let routed = router.at(uri)?;
    for capture in routed.captures.iter() {
        black_box(capture.decoded());
    }
    Ok(*routed.value)
}

/// Routes with the regex scan and decodes every captured group.
#[inline]
fn route_regex(routes: &[regex::Regex], uri: &str) -> Option<usize> {
    let (i, caps) = regex_scan(routes, uri)?;
    for m in caps.iter().skip(1).flatten() {
        let decoded: Cow<'_, str> = percent_encoding::percent_decode_str(m.as_str())
            .decode_utf8()
            .unwrap_or(Cow::Borrowed(""));
        black_box(decoded);
    }
    Some(i)
}

fn check(router: &Router<usize>, regexes: &[regex::Regex]) {
    for (uri, want) in PLAIN.iter().chain(&DECODE) {
        assert_eq!(route_ours(router, uri), Ok(*want), "rfc6570 {uri}");
        assert_eq!(route_regex(regexes, uri), Some(*want), "regex {uri}");
    }
    let decoded = router.at("search://docs?q=uri%20templates%20%C3%A9t%C3%A9&lang=fr");
    assert_eq!(
        decoded.unwrap().captures.get("q").unwrap().decoded(),
        "uri templates \u{e9}t\u{e9}"
    );
    for (uri, want) in &REFUSED {
        let err = route_ours(router, uri).unwrap_err();
        assert!(
            matches!(err, RouteError::Unsafe { .. }),
            "rfc6570 {uri}: {err}"
        );
        assert_eq!(route_regex(regexes, uri), Some(*want), "regex {uri}");
    }
}

fn group(
    c: &mut Criterion,
    name: &str,
    router: &Router<usize>,
    regexes: &[regex::Regex],
    uris: &[(&str, usize)],
) {
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(uris.len() as u64));
    g.bench_function("rfc6570", |b| {
        b.iter(|| {
            for (uri, _) in uris {
                let _ = black_box(route_ours(router, black_box(uri)));
            }
        })
    });
    g.bench_function("regex_scan", |b| {
        b.iter(|| {
            for (uri, _) in uris {
                black_box(route_regex(regexes, black_box(uri)));
            }
        })
    });
    g.bench_function("floor_memchr", |b| {
        b.iter(|| {
            for (uri, _) in uris {
                black_box(floor_scan(black_box(uri)));
            }
        })
    });
    g.finish();
}

fn bench(c: &mut Criterion) {
    let mut router = Router::new();
    for (i, t) in TEMPLATES.iter().enumerate() {
        router.insert(*t, i).unwrap();
    }
    let regexes: Vec<regex::Regex> = TEMPLATES.iter().map(|t| sdk_regex(t)).collect();
    check(&router, &regexes);
    group(c, "mcp/plain", &router, &regexes, &PLAIN);
    group(c, "mcp/decode", &router, &regexes, &DECODE);
    group(c, "mcp/refused", &router, &regexes, &REFUSED);
}

criterion_group!(benches, bench);
criterion_main!(benches);
