//! Matching one template (`UriTemplate::match_uri`), with a `memchr` pass over the same bytes as
//! the floor.
//!
//! * `match/op/<operator>`: one template per operator (simple, `+`, `#`, `.`, `/`, `;`, `?`,
//!   `&`), on a URI it matches.
//! * `match/adversarial/<shape>`: the adversarial shapes of the semantics (section 8, Cost and
//!   limits) at 10,000 and 100,000 separators, past the default limit (lifted); time per byte
//!   should stay the same (linear growth).
//! * `match/at_limit/<shape>`: each shape on a URI of exactly the default limit (32 KiB),
//!   through plain `match_uri`: the worst lookup a server accepts by default.

mod common;

use std::hint::black_box;

use common::{ADVERSARIAL, OPERATORS, floor_scan};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rfc6570::matching::MatchOptions;
use rfc6570::{MatchError, UriTemplate};

fn bench(c: &mut Criterion) {
    for (name, template, uri, var, want) in OPERATORS {
        let t = UriTemplate::parse(template).unwrap();
        let caps = t
            .match_uri(uri)
            .unwrap_or_else(|e| panic!("{template} on {uri}: {e}"));
        assert_eq!(
            caps.get(var).unwrap().decoded(),
            want,
            "{template} on {uri}"
        );
        let mut g = c.benchmark_group(format!("match/op/{name}"));
        g.throughput(Throughput::Bytes(uri.len() as u64));
        g.bench_function("rfc6570", |b| {
            b.iter(|| {
                let _ = black_box(t.match_uri(black_box(uri)));
            })
        });
        g.bench_function("floor_memchr", |b| {
            b.iter(|| black_box(floor_scan(black_box(uri))))
        });
        g.finish();
    }
    let lifted = MatchOptions::new().max_uri_len(usize::MAX);
    for (name, template, make) in ADVERSARIAL {
        let t = UriTemplate::parse(template).unwrap();
        let mut g = c.benchmark_group(format!("match/adversarial/{name}"));
        g.sample_size(20);
        for n in [10_000, 100_000] {
            let uri = make(n);
            // Whatever the outcome, it must come back, and not for being too long.
            assert!(!matches!(
                t.match_uri_with(&uri, &lifted),
                Err(MatchError::Malformed { .. })
            ));
            g.throughput(Throughput::Bytes(uri.len() as u64));
            g.bench_with_input(BenchmarkId::new("rfc6570", n), &uri, |b, uri| {
                b.iter(|| {
                    let _ = black_box(t.match_uri_with(black_box(uri), &lifted));
                })
            });
            g.bench_with_input(BenchmarkId::new("floor_memchr", n), &uri, |b, uri| {
                b.iter(|| black_box(floor_scan(black_box(uri))))
            });
        }
        g.finish();
    }
}

/// Each adversarial shape on a URI of exactly the default limit, through plain `match_uri`.
fn at_limit(c: &mut Criterion) {
    let limit = 32 * 1024;
    for (name, template, make) in ADVERSARIAL {
        let t = UriTemplate::parse(template).unwrap();
        // The shape's URI for some n, cut or padded with its last byte to the limit.
        let mut uri = make(limit);
        let pad = uri.chars().last().unwrap_or('x');
        uri.truncate(limit);
        while uri.len() < limit {
            uri.push(pad);
        }
        assert!(
            !matches!(t.match_uri(&uri), Err(MatchError::Malformed { .. })),
            "{name}"
        );
        let mut g = c.benchmark_group(format!("match/at_limit/{name}"));
        g.sample_size(20);
        g.throughput(Throughput::Bytes(uri.len() as u64));
        g.bench_function("rfc6570", |b| {
            b.iter(|| {
                let _ = black_box(t.match_uri(black_box(&uri)));
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench, at_limit);
criterion_main!(benches);
