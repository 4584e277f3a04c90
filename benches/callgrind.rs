//! A driver for instruction counts: one workload, run a given number of times, for
//! `valgrind --tool=callgrind`. Counts do not drift with machine load as times do, so they
//! compare small changes that a criterion run would lose in its noise.
//!
//! ```sh
//! cargo bench -p rfc6570-benches --bench callgrind --no-run
//! benches/callgrind.sh target/release/deps/callgrind-<hash>        # every workload, per unit
//! valgrind --tool=callgrind target/release/deps/callgrind-<hash> github 1000
//! valgrind --tool=callgrind target/release/deps/callgrind-<hash> github 0   # set-up alone
//! ```
//!
//! Subtract the second total from the first and divide by 1000 × 130 for the instructions per
//! GitHub lookup. Workloads: `github` and `github-matchit` (every path of the GitHub set),
//! `github-miss` and `github-miss-matchit` (a path no route matches),
//! `github-bare`, `github-read` and their `-matchit` twins (the loops of `benches/common`
//! that the README compares: route and add up the values; route and read every parameter
//! decoded),
//! `static` and `static-matchit` (`/notifications` alone), `path:<uri>` and
//! `path-matchit:<uri>` (any one path, in the GitHub set), `expand` (the 64 spec examples),
//! `op-<name>` (one `match_uri` of the operator table's template `<name>`, as
//! `match/op/<name>` runs it) and `limit-<shape>` (one `match_uri` of an adversarial shape on
//! a URI of 10,000 separators, with the length limit lifted: divide by 10,000 for the
//! instructions per byte).
//! Without a workload and a count (as under `cargo bench`, which passes its own arguments), it
//! does nothing.

mod common;

use std::hint::black_box;

use common::{ADVERSARIAL, GithubRoute, OPERATORS, github_routes};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(workload), Some(Ok(n))) = (args.first(), args.get(1).map(|n| n.parse::<usize>()))
    else {
        return;
    };
    if workload.starts_with('-') {
        return; // criterion's options, passed on by `cargo bench -- ...`
    }
    let routes = github_routes();
    let every: Vec<&str> = routes.iter().map(|r| r.path.as_str()).collect();
    let one = ["/notifications"];
    match workload.as_str() {
        "github" => lookups(n, &routes, &every, false),
        "github-matchit" => lookups(n, &routes, &every, true),
        "github-miss" => lookups(n, &routes, &[common::GITHUB_MISS], false),
        "github-miss-matchit" => lookups(n, &routes, &[common::GITHUB_MISS], true),
        "github-bare" => same_loop(
            n,
            &routes,
            &every,
            common::bare_ours,
            common::bare_matchit,
            false,
        ),
        "github-bare-matchit" => same_loop(
            n,
            &routes,
            &every,
            common::bare_ours,
            common::bare_matchit,
            true,
        ),
        "github-read" => same_loop(
            n,
            &routes,
            &every,
            common::read_ours,
            common::read_matchit,
            false,
        ),
        "github-read-matchit" => same_loop(
            n,
            &routes,
            &every,
            common::read_ours,
            common::read_matchit,
            true,
        ),
        "static" => lookups(n, &routes, &one, false),
        "static-matchit" => lookups(n, &routes, &one, true),
        "expand" => expand(n),
        other if other.starts_with("path:") => lookups(n, &routes, &[&other[5..]], false),
        other if other.starts_with("path-matchit:") => lookups(n, &routes, &[&other[13..]], true),
        other if other.starts_with("op-") => operator(n, &other[3..]),
        other if other.starts_with("limit-") => adversarial(n, &other[6..]),
        other => eprintln!("unknown workload {other}: see the module doc of benches/callgrind.rs"),
    }
}

/// Looks `paths` up `n` times in a router of the GitHub set: this crate's, or `matchit`'s.
fn lookups(n: usize, routes: &[GithubRoute], paths: &[&str], matchit: bool) {
    if matchit {
        let mut router = matchit::Router::new();
        for (i, r) in routes.iter().enumerate() {
            router.insert(r.template.as_str(), i).unwrap();
        }
        repeat(n, paths, |p| {
            let _ = black_box(router.at(p));
        });
    } else {
        let mut router = rfc6570::Router::new();
        for (i, r) in routes.iter().enumerate() {
            router.insert(r.template.as_str(), i).unwrap();
        }
        // Compile it outside the measured loop.
        router.at("/").ok();
        repeat(n, paths, |p| {
            let _ = black_box(router.at(p));
        });
    }
}

/// Runs one of the loops of `benches/common` that compare with matchit (`bare_*`, `read_*`)
/// `n` times over every path: ours, or matchit's.
fn same_loop(
    n: usize,
    routes: &[GithubRoute],
    paths: &[&str],
    ours: fn(&rfc6570::Router<usize>, &[&str]) -> usize,
    theirs: fn(&matchit::Router<usize>, &[&str]) -> usize,
    matchit: bool,
) {
    let mut acc = 0;
    if matchit {
        let mut router = matchit::Router::new();
        for (i, r) in routes.iter().enumerate() {
            router.insert(r.template.as_str(), i).unwrap();
        }
        for _ in 0..n {
            acc += theirs(&router, paths);
        }
    } else {
        let mut router = rfc6570::Router::new();
        for (i, r) in routes.iter().enumerate() {
            router.insert(r.template.as_str(), i).unwrap();
        }
        router.at("/").ok();
        for _ in 0..n {
            acc += ours(&router, paths);
        }
    }
    black_box(acc);
}

/// Calls `lookup` on each path, `n` times over. The lookups black-box their whole result, as
/// the criterion benches do, so that no part of it can be optimized away.
fn repeat(n: usize, paths: &[&str], lookup: impl Fn(&str)) {
    for _ in 0..n {
        for p in paths {
            lookup(black_box(p));
        }
    }
}

fn expand(n: usize) {
    let (groups, cases) = common::spec_examples();
    let cases: Vec<(rfc6570::UriTemplate, &serde_json::Value)> = cases
        .iter()
        .map(|c| (c.template.parse().unwrap(), &groups[c.group]))
        .collect();
    let mut out = String::new();
    for _ in 0..n {
        for (template, vars) in &cases {
            out.clear();
            template.expand_to(black_box(*vars), &mut out).unwrap();
            black_box(&out);
        }
    }
}

/// Matches the operator table's URI for template `name`, `n` times.
fn operator(n: usize, name: &str) {
    let Some(&(_, template, uri, _, _)) = OPERATORS.iter().find(|o| o.0 == name) else {
        return eprintln!("no operator {name} in the table of benches/common");
    };
    let t = rfc6570::UriTemplate::parse(template).unwrap();
    t.match_uri(uri).unwrap();
    for _ in 0..n {
        let _ = black_box(t.match_uri(black_box(uri)));
    }
}

/// Matches the adversarial shape `name` on 10,000 separators, `n` times, past the length
/// limit.
fn adversarial(n: usize, name: &str) {
    let Some(&(_, template, make)) = ADVERSARIAL.iter().find(|a| a.0 == name) else {
        return eprintln!("no shape {name} in the table of benches/common");
    };
    let t = rfc6570::UriTemplate::parse(template).unwrap();
    let uri = make(10_000);
    let options = rfc6570::matching::MatchOptions::new().max_uri_len(usize::MAX);
    let _ = t.match_uri_with(&uri, &options);
    for _ in 0..n {
        let _ = black_box(t.match_uri_with(black_box(&uri), &options));
    }
}
