//! Matching one template (`UriTemplate::match_uri`), with a `memchr` pass over the same bytes as
//! the floor.
//!
//! * `match/op/<operator>`: one template per operator (simple, `+`, `#`, `.`, `/`, `;`, `?`,
//!   `&`), on a URI it matches.
//! * `match/adversarial/<shape>`: the adversarial shapes of the semantics (section 8, Cost and limits) at
//!   10,000 and 100,000 separators; time per byte should stay the same (linear growth).

mod common;

use std::hint::black_box;

use common::{floor_scan, ADVERSARIAL, OPERATORS};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rfc6570::UriTemplate;

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
    for (name, template, make) in ADVERSARIAL {
        let t = UriTemplate::parse(template).unwrap();
        let mut g = c.benchmark_group(format!("match/adversarial/{name}"));
        g.sample_size(20);
        for n in [10_000, 100_000] {
            let uri = make(n);
            // Whatever the outcome, it must come back (the shapes mostly do not match).
            let _ = t.match_uri(&uri);
            g.throughput(Throughput::Bytes(uri.len() as u64));
            g.bench_with_input(BenchmarkId::new("rfc6570", n), &uri, |b, uri| {
                b.iter(|| {
                    let _ = black_box(t.match_uri(black_box(uri)));
                })
            });
            g.bench_with_input(BenchmarkId::new("floor_memchr", n), &uri, |b, uri| {
                b.iter(|| black_box(floor_scan(black_box(uri))))
            });
        }
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
