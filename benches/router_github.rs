//! Router, GitHub API set: the 130 routes of `routes/github-api.tsv` in this crate's router,
//! `matchit`, `wayfind`, `path-tree`, and a first-match scan over a `Vec<regex::Regex>` (what MCP
//! SDKs do today), with a `memchr` pass over the same bytes as the floor.
//!
//! Groups: `github/full_pass` routes all 130 paths; `github/first`, `github/last`,
//! `github/4_params`, `github/miss` and `github/static` (`/notifications`, as the callgrind
//! workload `static`) are single lookups. `github/bare` and
//! `github/read_params` compare this crate's router with matchit's in one loop written the
//! same way for both (`common::bare_*` and `common::read_*`): route and add up the values, and
//! route and read every parameter decoded, as a handler does.
//!
//! Every router is checked against the expected route for every path before anything is timed.

mod common;

use std::hint::black_box;

use common::{
    GITHUB_MISS as MISS, bare_matchit, bare_ours, floor_scan, github_routes, read_matchit,
    read_ours, regex_scan, simple_regex, translate,
};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

struct Routers {
    ours: rfc6570::Router<usize>,
    matchit: matchit::Router<usize>,
    wayfind: wayfind::Router<usize>,
    path_tree: path_tree::PathTree<usize>,
    regex: Vec<regex::Regex>,
}

fn build(routes: &[common::GithubRoute]) -> Routers {
    let mut ours = rfc6570::Router::new();
    let mut matchit = matchit::Router::new();
    let mut wayfind = wayfind::RouterBuilder::new();
    let mut path_tree = path_tree::PathTree::new();
    let mut regex = Vec::new();
    for (i, r) in routes.iter().enumerate() {
        let t = r.template.as_str();
        ours.insert(t, i).unwrap();
        matchit.insert(t, i).unwrap();
        wayfind
            .insert(&translate(t, str::to_owned, |v| format!("<{v}>")), i)
            .unwrap();
        let _ = path_tree.insert(&translate(t, str::to_owned, |v| format!(":{v}")), i);
        regex.push(simple_regex(t));
    }
    Routers {
        ours,
        matchit,
        wayfind: wayfind.build(),
        path_tree,
        regex,
    }
}

/// Every router must find the route each path was written for (or nothing, for the miss).
fn check(r: &Routers, routes: &[common::GithubRoute]) {
    for (i, route) in routes.iter().enumerate() {
        let p = route.path.as_str();
        assert_eq!(r.ours.at(p).map(|m| *m.value).ok(), Some(i), "rfc6570 {p}");
        assert_eq!(
            r.matchit.at(p).map(|m| *m.value).ok(),
            Some(i),
            "matchit {p}"
        );
        assert_eq!(
            r.wayfind.search(p).map(|m| *m.data()),
            Some(i),
            "wayfind {p}"
        );
        assert_eq!(
            r.path_tree.find(p).map(|(v, _)| *v),
            Some(i),
            "path-tree {p}"
        );
        assert_eq!(
            regex_scan(&r.regex, p).map(|(j, _)| j),
            Some(i),
            "regex {p}"
        );
    }
    assert!(r.ours.at(MISS).is_err());
    assert!(r.matchit.at(MISS).is_err());
    assert!(r.wayfind.search(MISS).is_none());
    assert!(r.path_tree.find(MISS).is_none());
    assert!(regex_scan(&r.regex, MISS).is_none());
}

/// One lookup with each router, in group `name`; the closures black-box their result.
fn lookups(c: &mut Criterion, name: &str, r: &Routers, paths: &[&str]) {
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(paths.len() as u64));
    g.bench_function("rfc6570", |b| {
        b.iter(|| {
            for p in paths {
                let _ = black_box(r.ours.at(black_box(p)));
            }
        })
    });
    g.bench_function("matchit", |b| {
        b.iter(|| {
            for p in paths {
                let _ = black_box(r.matchit.at(black_box(p)));
            }
        })
    });
    g.bench_function("wayfind", |b| {
        b.iter(|| {
            for p in paths {
                let _ = black_box(r.wayfind.search(black_box(p)));
            }
        })
    });
    g.bench_function("path-tree", |b| {
        b.iter(|| {
            for p in paths {
                let _ = black_box(r.path_tree.find(black_box(p)));
            }
        })
    });
    g.bench_function("regex_scan", |b| {
        b.iter(|| {
            for p in paths {
                let _ = black_box(regex_scan(&r.regex, black_box(p)));
            }
        })
    });
    g.bench_function("floor_memchr", |b| {
        b.iter(|| {
            for p in paths {
                black_box(floor_scan(black_box(p)));
            }
        })
    });
    g.finish();
}

fn bench(c: &mut Criterion) {
    let routes = github_routes();
    let r = build(&routes);
    check(&r, &routes);
    let all: Vec<&str> = routes.iter().map(|r| r.path.as_str()).collect();
    let four = routes
        .iter()
        .find(|r| r.template.matches('{').count() == 4)
        .expect("a 4-parameter route");
    lookups(c, "github/full_pass", &r, &all);
    lookups(c, "github/first", &r, &[all[0]]);
    lookups(c, "github/last", &r, &[all[all.len() - 1]]);
    lookups(c, "github/4_params", &r, &[four.path.as_str()]);
    lookups(c, "github/miss", &r, &[MISS]);
    lookups(c, "github/static", &r, &["/notifications"]);
    same_loop(c, &r, &all);
}

/// The two loops that compare with matchit, each written once for both routers; the checks
/// first: both routers find the same values and read parameters of the same decoded length.
fn same_loop(c: &mut Criterion, r: &Routers, paths: &[&str]) {
    assert_eq!(bare_ours(&r.ours, paths), bare_matchit(&r.matchit, paths));
    assert_eq!(read_ours(&r.ours, paths), read_matchit(&r.matchit, paths));
    let mut g = c.benchmark_group("github/bare");
    g.throughput(Throughput::Elements(paths.len() as u64));
    g.bench_function("rfc6570", |b| {
        b.iter(|| black_box(bare_ours(&r.ours, paths)))
    });
    g.bench_function("matchit", |b| {
        b.iter(|| black_box(bare_matchit(&r.matchit, paths)))
    });
    g.finish();
    let mut g = c.benchmark_group("github/read_params");
    g.throughput(Throughput::Elements(paths.len() as u64));
    g.bench_function("rfc6570", |b| {
        b.iter(|| black_box(read_ours(&r.ours, paths)))
    });
    g.bench_function("matchit", |b| {
        b.iter(|| black_box(read_matchit(&r.matchit, paths)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
