//! Shared by the benches: the test data they read, and the floor every group is compared with.
//!
//! Test data lives in the crate's test tree, `../tests/data/` from this package (see its
//! README); a missing file stops the bench with the path it looked for, so a bench never runs
//! on nothing.

#![allow(dead_code)]

use std::path::PathBuf;

/// The path of a test data file, relative to the repository's `tests/data/`.
pub fn testdata(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data")
        .join(rel)
}

/// Reads a test data file, or panics naming the path.
pub fn read(rel: &str) -> String {
    let path = testdata(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read bench data {} (expected in the repository's tests/data): {e}",
            path.display()
        )
    })
}

/// One GitHub API route: the template (`{p1}` style) and a concrete path for it.
pub struct GithubRoute {
    pub template: String,
    pub path: String,
}

/// The 130 GitHub REST API routes of `routes/github-api.tsv`.
pub fn github_routes() -> Vec<GithubRoute> {
    let routes: Vec<GithubRoute> = read("routes/github-api.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (template, path) = l.split_once('\t').expect("template<TAB>path");
            GithubRoute {
                template: template.to_owned(),
                path: path.to_owned(),
            }
        })
        .collect();
    assert_eq!(
        routes.len(),
        130,
        "routes/github-api.tsv should hold 130 routes"
    );
    routes
}

/// The floor: one pass over the URI's bytes with `memchr`, counting `/` (what a router must at
/// least do to find segment boundaries). Any lookup is compared with this.
#[inline]
pub fn floor_scan(uri: &str) -> usize {
    memchr::memchr_iter(b'/', uri.as_bytes()).count()
}

/// A template's variable parts, for translating it to other routers' syntax: each `{...}` is
/// passed to `var` with its text (without braces), literals are passed to `lit`.
pub fn translate(
    template: &str,
    mut lit: impl FnMut(&str) -> String,
    mut var: impl FnMut(&str) -> String,
) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out += &lit(&rest[..open]);
        let close = open + rest[open..].find('}').expect("closed expression");
        out += &var(&rest[open + 1..close]);
        rest = &rest[close + 1..];
    }
    out += &lit(rest);
    out
}

/// A simple-expression template as an anchored regex: each `{x}` becomes `([^/]+)`, literals are
/// escaped. This is what MCP SDKs do today for `resources/read`.
pub fn simple_regex(template: &str) -> regex::Regex {
    let pattern = translate(template, regex::escape, |_| "([^/]+)".to_owned());
    regex::Regex::new(&format!("^{pattern}$")).expect("valid regex")
}

/// A first-match scan over regexes, as MCP SDKs route `resources/read` today: the index of the
/// first regex that matches, with its captures.
#[inline]
pub fn regex_scan<'u>(
    routes: &[regex::Regex],
    uri: &'u str,
) -> Option<(usize, regex::Captures<'u>)> {
    routes
        .iter()
        .enumerate()
        .find_map(|(i, re)| re.captures(uri).map(|c| (i, c)))
}

/// One case of the RFC's spec examples: its template, its group of variables and the
/// expansions the suite accepts.
pub struct SpecCase {
    /// Leaked so that `uri-template` can borrow it as `'static`.
    pub template: &'static str,
    pub group: usize,
    pub expected: Vec<String>,
}

/// The 64 cases of `uritemplate-test/spec-examples.json`, with the variables of each group.
pub fn spec_examples() -> (Vec<serde_json::Value>, Vec<SpecCase>) {
    use serde_json::Value as Json;
    let suite: Json = serde_json::from_str(&read("uritemplate-test/spec-examples.json"))
        .expect("spec-examples.json is JSON");
    let mut groups = Vec::new();
    let mut cases = Vec::new();
    for body in suite.as_object().expect("an object of groups").values() {
        let group = groups.len();
        groups.push(body["variables"].clone());
        for case in body["testcases"].as_array().expect("testcases") {
            let expected = match &case[1] {
                Json::String(s) => vec![s.clone()],
                Json::Array(list) => list
                    .iter()
                    .map(|v| v.as_str().unwrap().to_owned())
                    .collect(),
                other => panic!("spec examples have no negative cases: {other}"),
            };
            cases.push(SpecCase {
                template: String::leak(case[0].as_str().unwrap().to_owned()),
                group,
                expected,
            });
        }
    }
    assert_eq!(cases.len(), 64, "spec-examples.json holds 64 cases");
    (groups, cases)
}

/// (name, template, URI, a variable and the value it must capture).
pub const OPERATORS: [(&str, &str, &str, &str, &str); 9] = [
    (
        "simple",
        "db://users/{id}/profile",
        "db://users/ada%20l/profile",
        "id",
        "ada l",
    ),
    (
        "reserved",
        "file:///{+path}",
        "file:///docs/guide/caf%C3%A9.md",
        "path",
        "docs/guide/caf\u{e9}.md",
    ),
    (
        "fragment",
        "x://page{#section}",
        "x://page#intro/part-2",
        "section",
        "intro/part-2",
    ),
    (
        "label",
        "x://archive{.ext}",
        "x://archive.tar",
        "ext",
        "tar",
    ),
    (
        "path",
        "x://repo{/owner,name}",
        "x://repo/rust-lang/rust",
        "name",
        "rust",
    ),
    (
        "path_param",
        "x://map{;x,y}",
        "x://map;x=1024;y=768",
        "y",
        "768",
    ),
    (
        "query",
        "search://docs{?q,lang}",
        "search://docs?q=uri%20templates&lang=en",
        "q",
        "uri templates",
    ),
    (
        "query_continuation",
        "x://s?fixed=yes{&x,y}",
        "x://s?fixed=yes&x=1024&y=768",
        "x",
        "1024",
    ),
    // Not an operator: a name used twice, whose occurrences a match checks agree.
    (
        "repeated",
        "dict://{term:1}/{term}",
        "dict://c/cat",
        "term",
        "cat",
    ),
];

/// (name, template, URI for `n` separators).
pub type Adversarial = (&'static str, &'static str, fn(usize) -> String);
/// A path of the GitHub set that no route matches, which shares a long prefix with several.
pub const GITHUB_MISS: &str = "/repos/p1/p2/issues/p3/nope";

pub const ADVERSARIAL: [Adversarial; 11] = [
    ("reserved3_slashes", "x://{+a}/{+b}/{+c}/end", |n| {
        format!("x://{}", "/".repeat(n))
    }),
    ("reserved3_match", "x://{+a}/{+b}/{+c}/end", |n| {
        format!("x://{}end", "a/".repeat(n / 2))
    }),
    ("simple3_match", "x://{a}-{b}-{c}.z", |n| {
        format!("x://{}.z", "a-".repeat(n / 2))
    }),
    ("prefix_xs", "{a}{b:9999}", |n| "x".repeat(n)),
    ("prefix3_xs", "{a:3}{b:9999}{c}", |n| "x".repeat(n) + "!"),
    ("simple3_dashes", "x://{a}-{b}-{c}.z", |n| {
        format!("x://{}", "-".repeat(n))
    }),
    ("explode_commas", "x://r{/id*}", |n| {
        format!("x://r/{}", ",".repeat(n))
    }),
    ("explode_slashes", "x://r{/id*}", |n| {
        format!("x://r{}", "/".repeat(n))
    }),
    ("repeated_segments", "x://{a}/{a}", |n| {
        format!("x://{}/{}", "a".repeat(n / 2), "a".repeat(n / 2))
    }),
    ("repeated_dots", "x{.who,who}", |n| {
        format!("x{}", ".a".repeat(n / 2))
    }),
    // Distinct keys, so that the check for a repeated one (which sorts them, past a few)
    // reads them all.
    ("map_keys", "x://r{?m*}", |n| {
        let keys: Vec<String> = (0..n).map(|i| format!("{i:x}=v")).collect();
        format!("x://r?{}", keys.join("&"))
    }),
];

/// The bare lookup, written the same way for this crate's router and matchit's: route each
/// path and add up the values found, so that the lookup cannot be optimized away and nothing
/// else is timed. The criterion bench `github/bare` and the callgrind workload `github-bare`
/// both run it.
pub fn bare_ours(router: &rfc6570::Router<usize>, paths: &[&str]) -> usize {
    let mut acc = 0;
    for p in paths {
        if let Ok(m) = router.at(std::hint::black_box(p)) {
            acc += *m.value;
        }
    }
    acc
}

/// [`bare_ours`] for matchit.
pub fn bare_matchit(router: &matchit::Router<usize>, paths: &[&str]) -> usize {
    let mut acc = 0;
    for p in paths {
        if let Ok(m) = router.at(std::hint::black_box(p)) {
            acc += *m.value;
        }
    }
    acc
}

/// Route and read every parameter decoded, as a handler does, the same way for both routers:
/// this crate decodes with `Capture::decoded`, matchit's parameters with `percent-encoding`
/// (matchit returns them raw). The criterion bench `github/read_params` and the callgrind
/// workload `github-read` run it.
pub fn read_ours(router: &rfc6570::Router<usize>, paths: &[&str]) -> usize {
    let mut acc = 0;
    for p in paths {
        if let Ok(m) = router.at(std::hint::black_box(p)) {
            acc += *m.value;
            for c in m.captures.iter() {
                acc += c.decoded().len();
            }
        }
    }
    acc
}

/// [`read_ours`] for matchit.
pub fn read_matchit(router: &matchit::Router<usize>, paths: &[&str]) -> usize {
    let mut acc = 0;
    for p in paths {
        if let Ok(m) = router.at(std::hint::black_box(p)) {
            acc += *m.value;
            for (_, v) in m.params.iter() {
                acc += percent_encoding::percent_decode_str(v)
                    .decode_utf8()
                    .map_or(0, |s| s.len());
            }
        }
    }
    acc
}
