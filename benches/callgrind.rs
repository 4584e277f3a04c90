//! A driver for instruction counts: one workload, run a given number of times, for
//! `valgrind --tool=callgrind`. Counts do not drift with machine load as times do, so they
//! compare small changes that a criterion run would lose in its noise.
//!
//! ```sh
//! cargo bench --bench callgrind --no-run
//! valgrind --tool=callgrind target/release/deps/callgrind-<hash> github 1000
//! valgrind --tool=callgrind target/release/deps/callgrind-<hash> github 0   # set-up alone
//! ```
//!
//! Subtract the second total from the first and divide by 1000 × 130 for the instructions per
//! GitHub lookup. Workloads: `github` and `github-matchit` (every path of the GitHub set),
//! `static` and `static-matchit` (`/notifications` alone), `expand` (the 64 spec examples).
//! Without a workload (as under `cargo bench`), it does nothing.

mod common;

use std::hint::black_box;

use common::github_routes;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(workload), Some(n)) = (args.first(), args.get(1)) else {
        return;
    };
    let n: usize = n.parse().expect("a repeat count");
    match workload.as_str() {
        "github" => github(n, false),
        "github-matchit" => github(n, true),
        "static" => one_path(n, false),
        "static-matchit" => one_path(n, true),
        "expand" => expand(n),
        other => panic!("unknown workload {other}"),
    }
}

fn github(n: usize, matchit: bool) {
    let routes = github_routes();
    let paths: Vec<&str> = routes.iter().map(|r| r.path.as_str()).collect();
    if matchit {
        let mut router = matchit::Router::new();
        for (i, r) in routes.iter().enumerate() {
            router.insert(r.template.as_str(), i).unwrap();
        }
        for _ in 0..n {
            for p in &paths {
                black_box(router.at(black_box(p)).map(|m| *m.value).ok());
            }
        }
    } else {
        let mut router = rfc6570::Router::new();
        for (i, r) in routes.iter().enumerate() {
            router.insert(r.template.as_str(), i).unwrap();
        }
        router.at("/").ok();
        for _ in 0..n {
            for p in &paths {
                black_box(router.at(black_box(p)).map(|m| *m.value).ok());
            }
        }
    }
}

fn one_path(n: usize, matchit: bool) {
    let routes = github_routes();
    let path = "/notifications";
    if matchit {
        let mut router = matchit::Router::new();
        for (i, r) in routes.iter().enumerate() {
            router.insert(r.template.as_str(), i).unwrap();
        }
        for _ in 0..n {
            black_box(router.at(black_box(path)).map(|m| *m.value).ok());
        }
    } else {
        let mut router = rfc6570::Router::new();
        for (i, r) in routes.iter().enumerate() {
            router.insert(r.template.as_str(), i).unwrap();
        }
        router.at("/").ok();
        for _ in 0..n {
            black_box(router.at(black_box(path)).map(|m| *m.value).ok());
        }
    }
}

fn expand(n: usize) {
    let suite = common::read("uritemplate-test/spec-examples.json");
    let suite: serde_json::Value = serde_json::from_str(&suite).unwrap();
    let mut cases = Vec::new();
    for level in suite.as_object().unwrap().values() {
        let vars = level["variables"].clone();
        for case in level["testcases"].as_array().unwrap() {
            let template: rfc6570::UriTemplate = case[0].as_str().unwrap().parse().unwrap();
            cases.push((template, vars.clone()));
        }
    }
    let mut out = String::new();
    for _ in 0..n {
        for (template, vars) in &cases {
            out.clear();
            template.expand_to(black_box(vars), &mut out).unwrap();
            black_box(&out);
        }
    }
}
