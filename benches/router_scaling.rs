//! Router scaling: one lookup among 10, 100, 1,000 and 10,000 templates of the same shape. A trie
//! should keep the lookup time flat; the regex scan (what MCP SDKs do today) grows with the count.
//!
//! Shapes, `{i}` being the template's number and the lookup always for the last one inserted:
//!
//! * `scheme`: `res{i}://items/{id}`, templates that differ from their third byte;
//! * `path`: `/r{i}/{id}/x`, the same in path form (also run with `matchit` and the regex scan);
//! * `long_prefix`: all templates share a 48-byte prefix before they differ,
//!   `/mcp/server/api/v1/resources/collections/shared/c{i}/{id}` (also run with `matchit`).
//!
//! Each group has the `memchr` floor over the same URI.
//!
//! `build/path` times what comes before the first answer, for 1,000 templates of the `path`
//! shape: `insert` (each template parsed and checked: the router compiles it alone on insert)
//! and `first_lookup` (the first lookup after a change compiles the set; here a miss, which
//! also needs the reading with raw sub-delimiters), each against `matchit`'s insert.

mod common;

use std::hint::black_box;

use common::{floor_scan, regex_scan, simple_regex};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

const SIZES: [usize; 4] = [10, 100, 1_000, 10_000];

struct Shape {
    name: &'static str,
    template: fn(usize) -> String,
    uri: fn(usize) -> String,
    peers: bool,
}

const SHAPES: [Shape; 3] = [
    Shape {
        name: "scheme",
        template: |i| format!("res{i}://items/{{id}}"),
        uri: |i| format!("res{i}://items/42"),
        peers: false,
    },
    Shape {
        name: "path",
        template: |i| format!("/r{i}/{{id}}/x"),
        uri: |i| format!("/r{i}/42/x"),
        peers: true,
    },
    Shape {
        name: "long_prefix",
        template: |i| format!("/mcp/server/api/v1/resources/collections/shared/c{i}/{{id}}"),
        uri: |i| format!("/mcp/server/api/v1/resources/collections/shared/c{i}/42"),
        peers: true,
    },
];

fn bench(c: &mut Criterion) {
    for shape in &SHAPES {
        let mut g = c.benchmark_group(format!("scaling/{}", shape.name));
        for n in SIZES {
            let templates: Vec<String> = (0..n).map(shape.template).collect();
            let uri = (shape.uri)(n - 1);
            let mut ours = rfc6570::Router::new();
            for (i, t) in templates.iter().enumerate() {
                ours.insert(t.as_str(), i).unwrap();
            }
            assert_eq!(ours.at(&uri).map(|m| *m.value).ok(), Some(n - 1), "{uri}");
            g.bench_with_input(BenchmarkId::new("rfc6570", n), &uri, |b, uri| {
                b.iter(|| {
                    let _ = black_box(ours.at(black_box(uri)));
                })
            });
            if shape.peers {
                let mut matchit = matchit::Router::new();
                for (i, t) in templates.iter().enumerate() {
                    matchit.insert(t.as_str(), i).unwrap();
                }
                assert_eq!(matchit.at(&uri).map(|m| *m.value).ok(), Some(n - 1));
                g.bench_with_input(BenchmarkId::new("matchit", n), &uri, |b, uri| {
                    b.iter(|| {
                        let _ = black_box(matchit.at(black_box(uri)));
                    })
                });
            }
            if shape.name == "path" {
                let regexes: Vec<regex::Regex> =
                    templates.iter().map(|t| simple_regex(t)).collect();
                assert_eq!(regex_scan(&regexes, &uri).map(|(i, _)| i), Some(n - 1));
                g.bench_with_input(BenchmarkId::new("regex_scan", n), &uri, |b, uri| {
                    b.iter(|| black_box(regex_scan(&regexes, black_box(uri))))
                });
            }
            g.bench_with_input(BenchmarkId::new("floor_memchr", n), &uri, |b, uri| {
                b.iter(|| black_box(floor_scan(black_box(uri))))
            });
        }
        g.finish();
    }
}

fn build(c: &mut Criterion) {
    const N: usize = 1_000;
    let templates: Vec<String> = (0..N).map(SHAPES[1].template).collect();
    let insert_all = || {
        let mut router = rfc6570::Router::new();
        for (i, t) in templates.iter().enumerate() {
            router.insert(t.as_str(), i).unwrap();
        }
        router
    };
    let mut g = c.benchmark_group("build/path");
    g.sample_size(20);
    g.bench_function(BenchmarkId::new("insert/rfc6570", N), |b| {
        b.iter(|| black_box(insert_all()))
    });
    g.bench_function(BenchmarkId::new("insert/matchit", N), |b| {
        b.iter(|| {
            let mut router = matchit::Router::new();
            for (i, t) in templates.iter().enumerate() {
                router.insert(t.as_str(), i).unwrap();
            }
            black_box(router)
        })
    });
    let miss = "/r1/a+b/y";
    assert!(insert_all().at(miss).is_err());
    g.bench_function(BenchmarkId::new("first_lookup/rfc6570", N), |b| {
        b.iter_batched(
            insert_all,
            |router| black_box(router.at(black_box(miss)).is_err()),
            criterion::BatchSize::LargeInput,
        )
    });
    g.finish();
}

criterion_group!(benches, bench, build);
criterion_main!(benches);
