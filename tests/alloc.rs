//! The allocation budget of the hot paths, measured with a counting global allocator (which is
//! why this file is a test binary of its own):
//!
//! * `UriTemplate::parse` allocates at most twice (the text and the node array), whatever the
//!   template's size;
//! * `expand_to` into a `String` with enough room allocates nothing, for strings, numbers,
//!   lists and maps, from `serde_json` values, `Serialized` values and slices of pairs;
//! * `Serialized::new` allocates once per string and once per struct, map or list, and not
//!   for field names, numbers, booleans, chars or unit variants;
//! * `match_uri` on a template of up to 10 variables allocates nothing once warm (program
//!   compiled, thread cache grown) when the URI needs no decoding, nor does reading the
//!   captures' decoded values then;
//! * `Router::at` allocates nothing once warm for URIs that need no decoding, on the radix walk
//!   and on the VM alike.
//!
//! Allocations are counted per thread, so tests running in parallel do not disturb each other.
//! Run with `--nocapture` to see the counts.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::BTreeMap;

use rfc6570::UriTemplate;
use rfc6570::vars::{Serialized, VarValue, Vars};
use serde_json::json;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count_one() {
    // `try_with`: the allocator may run while the thread's locals are being torn down.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every call is forwarded unchanged to the system allocator; counting touches only a
// thread-local `Cell`, which does not allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe {
            count_one();
            System.alloc(layout)
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        unsafe {
            count_one();
            System.alloc_zeroed(layout)
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        unsafe {
            count_one();
            System.realloc(ptr, layout, new_size)
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Runs `f` and returns its result and the number of allocations (and reallocations) it made
/// on this thread. The result is returned, not dropped, so that it is not counted either way.
fn allocations<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let before = ALLOCATIONS.with(Cell::get);
    let result = std::hint::black_box(f());
    (result, ALLOCATIONS.with(Cell::get) - before)
}

#[test]
fn the_counter_counts() {
    let (v, n) = allocations(|| vec![1u8; 16]);
    assert_eq!((v.len(), n), (16, 1));
    let (_, n) = allocations(|| ());
    assert_eq!(n, 0);
}

#[test]
fn parsing_allocates_at_most_twice() {
    let many = "/x{a}".repeat(300);
    let long_literal = "a".repeat(10_000);
    let templates = [
        "",
        "config://app",
        "notes://{id}",
        "log://build/{job_id}{?lines}",
        "caf\u{e9}/{+path}/%2F{#frag}",
        "{/list*,path:4}{;x,y,empty}{?q,lang,tags*}{&page}",
        &many,
        &long_literal,
    ];
    for text in templates {
        let (t, n) = allocations(|| UriTemplate::parse(text).unwrap());
        println!("parse {:>6} bytes: {n} allocations", text.len());
        assert!(n <= 2, "{n} allocations parsing {:.40}", t.as_str());
    }
}

/// Expands into a buffer that already has room, and checks that nothing was allocated.
fn assert_expands_without_allocating<V: Vars + ?Sized>(t: &UriTemplate, vars: &V, expected: &str) {
    let mut buf = String::with_capacity(1024);
    let capacity = buf.capacity();
    for round in 0..2 {
        buf.clear();
        let (result, n) = allocations(|| t.expand_to(vars, &mut buf));
        result.unwrap();
        println!("expand_to {} (round {round}): {n} allocations", t.as_str());
        assert_eq!(n, 0, "{} allocated", t.as_str());
    }
    assert_eq!(buf, expected);
    assert_eq!(buf.capacity(), capacity);
}

#[test]
fn expanding_into_a_buffer_with_room_allocates_nothing_with_json() {
    let vars = json!({
        "id": "ada lovelace/é",
        "n": 42,
        "x": -37.76,
        "yes": true,
        "none": null,
        "list": ["red", "green", 3, false],
        "keys": {"semi": ";", "dot": ".", "n": 1},
        "path": "docs/a b.md",
    });
    for (text, expected) in [
        ("notes://{id}", "notes://ada%20lovelace%2F%C3%A9"),
        ("{n}/{x}/{yes}{?none}", "42/-37.76/true"),
        (
            "{/list*}{?list}",
            "/red/green/3/false?list=red,green,3,false",
        ),
        (
            "{;keys*}{?keys}",
            ";semi=%3B;dot=.;n=1?keys=semi,%3B,dot,.,n,1",
        ),
        (
            "file:///{+path}{#id}",
            "file:///docs/a%20b.md#ada%20lovelace/%C3%A9",
        ),
        ("{id:3}{.list}", "ada.red,green,3,false"),
        ("caf\u{e9}/{&keys*}", "caf%C3%A9/&semi=%3B&dot=.&n=1"),
    ] {
        let t = UriTemplate::parse(text).unwrap();
        assert_expands_without_allocating(&t, &vars, expected);
    }
}

#[test]
fn expanding_into_a_buffer_with_room_allocates_nothing_with_pairs() {
    let t = UriTemplate::parse("log://build/{job_id}{?lines}").unwrap();
    assert_expands_without_allocating(
        &t,
        &[("job_id", "42"), ("lines", "10-20")][..],
        "log://build/42?lines=10-20",
    );

    let t = UriTemplate::parse("{/segments*}{?page,ratio}").unwrap();
    let segments = vec!["a b", "c"];
    let vars = [
        ("segments", VarValue::List(&segments)),
        ("page", VarValue::Display(&7u32)),
        ("ratio", VarValue::Display(&0.5f64)),
    ];
    assert_expands_without_allocating(&t, &vars[..], "/a%20b/c?page=7&ratio=0.5");

    let t = UriTemplate::parse("/plot{?at*}").unwrap();
    let at = BTreeMap::from([("x", 3), ("y", -1)]);
    assert_expands_without_allocating(&t, &[("at", &at)][..], "/plot?x=3&y=-1");
}

#[derive(serde::Serialize)]
enum Level {
    Warn,
}

#[derive(serde::Serialize)]
struct Point {
    x: i32,
    y: f64,
}

#[derive(serde::Serialize)]
struct Record {
    id: String,
    n: u64,
    ratio: f64,
    yes: bool,
    letter: char,
    none: Option<String>,
    level: Level,
    tags: Vec<&'static str>,
    at: Point,
}

#[test]
fn serializing_allocates_once_per_string_and_composite() {
    let record = Record {
        id: "ada lovelace/é".into(),
        n: 42,
        ratio: 0.1 + 0.2,
        yes: true,
        letter: 'é',
        none: None,
        level: Level::Warn,
        tags: vec!["red", "green"],
        at: Point { x: 3, y: -1.5 },
    };
    let (vars, n) = allocations(|| Serialized::new(&record).unwrap());
    println!("Serialized::new: {n} allocations");
    // The fields, `id`, `tags` and its two strings, and `at`.
    assert_eq!(n, 6);

    for (text, expected) in [
        ("notes://{id}", "notes://ada%20lovelace%2F%C3%A9"),
        (
            "{n}/{ratio}/{yes}/{letter}{?none,level}",
            "42/0.30000000000000004/true/%C3%A9?level=Warn",
        ),
        ("{/tags*}{?tags}", "/red/green?tags=red,green"),
        ("{;at*}{?at}", ";x=3;y=-1.5?at=x,3,y,-1.5"),
    ] {
        let t = UriTemplate::parse(text).unwrap();
        assert_expands_without_allocating(&t, &vars, expected);
    }
}

/// Matches `uri` twice (compiling the program and growing the thread's cache), then checks
/// that a third match, and reading its decoded values, allocates nothing.
fn assert_matches_without_allocating(text: &str, uri: &str) {
    let t = UriTemplate::parse(text).unwrap();
    assert!(t.variables().count() <= 10, "{text}");
    for _ in 0..2 {
        t.match_uri(uri).unwrap();
    }
    let (caps, n) = allocations(|| t.match_uri(uri).unwrap());
    println!("match_uri {text} on {uri}: {n} allocations");
    assert_eq!(n, 0, "{text} on {uri}");
    let (defined, n) = allocations(|| {
        caps.iter()
            .filter(|c| matches!(c.decoded(), std::borrow::Cow::Borrowed(_)))
            .count()
    });
    assert_eq!((defined, n), (caps.len(), 0), "reading {text} on {uri}");
}

#[test]
fn matching_a_warm_template_allocates_nothing() {
    for (text, uri) in [
        ("notes://{id}", "notes://42"),
        (
            "log://build/{job_id}{?lines,level}",
            "log://build/42?level=warn&lines=10-20",
        ),
        ("file:///{+path}", "file:///docs/2024/report.md"),
        ("{/list*,path:4}", "/red/green/blue"),
        ("x{;a,b}{.c}{#d}", "x;a=1;b.c#frag/ment"),
        // Served by the VM's table: its notes grow once, like the VM's thread lists.
        ("x://repo{/owner,name}", "x://repo/rust-lang/rust"),
        ("x://{+a}/{+b}/{+c}/end", "x://a/b/c/end"),
        ("search://docs{?q,tag*}", "search://docs?tag=a&q=rust&tag=b"),
        (
            "{a}/{b}/{c}/{d}/{e}/{f}/{g}/{h}/{i}/{j}",
            "1/2/3/4/5/6/7/8/9/10",
        ),
        (
            "db://{a}/{b}{/c,d}{;e}{?f,g,h}{&j,k}",
            "db://x/y/z/w;e=v?f=2&k=3&h=4",
        ),
        // A repeated name: its occurrences are checked on the spans, without allocating.
        ("dict://{term:1}/{term}", "dict://c/cat"),
        ("x{.who,who}", "x.fr.ed.fr.ed"),
        ("x/{q}{?q}", "x/1?q=1"),
        // A fragment set aside.
        (
            "logs://{service}{?level}",
            "logs://api?level=error#section1",
        ),
    ] {
        assert_matches_without_allocating(text, uri);
    }
}

/// A warm router lookup allocates nothing when the URI needs no decoding, both on the radix
/// walk (delimited templates) and on the VM (anything else), path-safety checks included.
#[test]
fn routing_a_uri_without_escapes_allocates_nothing() {
    let walked = [
        "/repos/{owner}/{repo}/issues/{number}",
        "/repos/{owner}/{repo}/pulls",
        "/users/{user}",
        "file:///{+path}",
        "log://build/{job_id}{?lines}",
        "config://app",
    ];
    let mixed = [
        "/a/{name}.txt",
        "/a/{any}",
        "x{/path*}",
        "search://docs{?q,tags*}",
        "dict://{term:1}/{term}",
        "x://{a}/{a}",
        "x://{a}/{b}",
    ];
    for (templates, uris) in [
        (
            &walked[..],
            &[
                "/repos/rust-lang/rust/issues/42",
                "/users/ada",
                "file:///docs/a.md",
                "log://build/7?lines=1-2",
                "config://app",
            ][..],
        ),
        (
            &mixed[..],
            &[
                "/a/pg.txt",
                "/a/pg",
                "x/a/b/c",
                "search://docs?tags=x&q=rust&tags=y",
                "dict://c/cat",
                "x://1/1",
                "Dict://c/cat#top",
            ][..],
        ),
    ] {
        let mut router = rfc6570::Router::new();
        for t in templates {
            router.insert(*t, ()).unwrap();
        }
        for uri in uris {
            router.at(uri).unwrap();
            let (routed, n) = allocations(|| router.at(uri).map(|r| r.captures.len()));
            println!("router.at {uri}: {n} allocations");
            assert!(routed.is_ok(), "{uri}");
            assert_eq!(n, 0, "{uri}");
        }
    }
}

/// A lookup whose best match repeats a name that disagrees searches again without it: it
/// allocates the disagreement's error (which names the variable), the list of templates left
/// out and their keys, and nothing else. Lookups that agree allocate nothing (above).
#[test]
fn a_lookup_past_a_disagreeing_template_allocates_three_times() {
    let mut router = rfc6570::Router::new();
    router.insert("x://{a}/{a}", "same").unwrap();
    router.insert("x://{a}/{b}", "two").unwrap();
    router.at("x://1/2").unwrap();
    let (routed, n) = allocations(|| router.at("x://1/2").map(|r| *r.value));
    assert_eq!((routed, n), (Ok("two"), 3));
}

/// A warm lookup of a URI whose values need decoding checks their safety without decoding
/// them: reading every value decoded, as a handler does, then costs one allocation per
/// escaped value, the handler's own. (Issue 17: the check used to decode each value too.)
#[test]
fn routing_decodes_each_escaped_value_once() {
    let mut router = rfc6570::Router::new();
    router.insert("db://users/{id}/profile", ()).unwrap();
    router.insert("file:///{+path}", ()).unwrap();
    router.insert("x://pair/{a}/{b}", ()).unwrap();
    for (uri, escaped) in [
        ("db://users/J%C3%BCrgen%20K/profile", 1),
        ("file:///docs/caf%C3%A9/a%2Bb.md", 1),
        ("x://pair/a%20b/c%3Dd", 2),
        ("file:///docs/plain.md", 0),
    ] {
        let read = || {
            let routed = router.at(uri).unwrap();
            routed
                .captures
                .iter()
                .map(|c| c.decoded().len())
                .sum::<usize>()
        };
        read();
        let (_, n) = allocations(read);
        println!("router.at {uri} and every value decoded: {n} allocations");
        assert_eq!(n, escaped, "{uri}");
    }
}
