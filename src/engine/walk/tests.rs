//! The walk's tests: hand-picked shapes, and the walk against the VM on random templates.

use super::build::{Percent, qualifies, run_table};
use super::run::{MAX_RESUME, QUERY_BLOCK, query_block};
use super::*;
use crate::engine::trie::{self, Token};
use crate::template::Parsed;

fn tokens(t: &str) -> Vec<Token> {
    trie::tokens(&Parsed::parse(t).unwrap())
}

impl Walker {
    /// [`walk`](Walker::walk) over flat marks, two a variable, as the VM writes them.
    fn walk_flat(&self, uri: &[u8], marks: &mut [Mark]) -> Walk {
        let mut pairs: Vec<[Mark; 2]> = marks.chunks(2).map(|m| [m[0], m[1]]).collect();
        let walked = self.walk(uri, &mut pairs);
        marks.copy_from_slice(pairs.as_flattened());
        walked
    }
}

/// The marks of these offsets.
fn marks<const N: usize>(offsets: [usize; N]) -> [Mark; N] {
    offsets.map(Mark::at)
}

/// Letters of a scheme or authority compare without case: in a prefix short or long, and as
/// the first byte of a literal child (found at both of its bytes). The path keeps its case.
#[test]
fn scheme_and_authority_letters_walk_without_case() {
    let templates = [
        tokens("Notes://Host/{id}"),
        tokens("notes://hostname.example.org/Drafts/{id}"),
        tokens("mail://h/{id}"),
    ];
    let walker = Walker::build(&templates, false, false).unwrap();
    let mut slots = [Mark::NONE; 2];
    for (uri, key) in [
        ("notes://host/7", 0),
        ("NOTES://HOST/7", 0),
        ("nOtEs://HOSTNAME.Example.ORG/Drafts/7", 1),
        ("MAIL://H/7", 2),
    ] {
        assert_eq!(
            walker.walk_flat(uri.as_bytes(), &mut slots),
            Walk::Found(key, Seen(ALLOWED)),
            "{uri}"
        );
    }
    assert!(matches!(
        walker.walk_flat(b"notes://hostname.example.org/drafts/7", &mut slots),
        Walk::NotFound(..)
    ));
    // One letter with case and without it at one place is two children for one byte: the
    // walk cannot hold both, and leaves them to the automaton. So is an uppercase letter with
    // case beside the same letter without it, which stands at both its bytes.
    assert!(Walker::build(&[tokens("ab/{x}"), tokens("ab:{x}")], false, false).is_none());
    for pair in [["e:{x}", "E/{x}"], ["E/{x}", "e:{x}"]] {
        let pair = pair.map(tokens);
        assert!(Walker::build(&pair, false, false).is_none(), "{pair:?}");
    }
}

/// The prefix of node `n`, as the walk compares it.
fn prefix(n: &WalkNode) -> Vec<u8> {
    n.head.to_le_bytes()[..usize::from(n.len)].to_vec()
}

/// A prefix longer than a word is a chain of nodes of a word at most, each cut before the
/// last byte within reach that compares with case: the piece after the cut then stands at one
/// place of its parent's row, not at both cases of a letter (a copy), which only a piece whose
/// eight bytes after its first all compare without case needs.
#[test]
fn long_prefixes_are_chains_of_words() {
    let templates = [
        tokens("notes://hostname.example.org/Drafts/{id}"),
        tokens("x://a/very/long/path-of-literals/{id}"),
    ];
    let walker = Walker::build(&templates, false, false).unwrap();
    let prefixes: Vec<Vec<u8>> = walker
        .nodes
        .iter()
        .filter(|n| **n != HOLE)
        .map(prefix)
        .collect();
    let pieces: Vec<Vec<u8>> = [
        // The root's, then the first template's (`/hostname` holds no byte with case after
        // its first: the piece after its cut is at both `e` and `E`), then the second's.
        "", "notes:/", "x://a/ve", "notes:/", "x://a/ve", "/hostnam", "ry/long/", "e", "e",
        "path-of-", ".example", "literals", ".org/Dra", "/", "fts/", "", "",
    ]
    .iter()
    .map(|p| p.as_bytes().to_vec())
    .collect();
    assert_eq!(prefixes, pieces);
    let mut slots = [Mark::NONE; 2];
    for (uri, key, id) in [
        ("NOTES://HOSTNAME.EXAMPLE.ORG/Drafts/7", 0, [36, 37]),
        ("x://a/very/long/path-of-literals/42", 1, [33, 35]),
    ] {
        let walked = walker.walk_flat(uri.as_bytes(), &mut slots);
        assert_eq!(walked, Walk::Found(key, Seen(ALLOWED)), "{uri}");
        assert_eq!(slots, marks(id), "{uri}");
    }
    for uri in [
        "notes://hostname.example.org/drafts/7",
        "x://a/very/long/path-of-literal/42",
    ] {
        let walked = walker.walk_flat(uri.as_bytes(), &mut slots);
        assert!(matches!(walked, Walk::NotFound(..)), "{uri}");
    }
}

/// Where every template starts with the same text, the root holds it, and a URI that does
/// not start with it is a miss before the loop: one that vouches for none of its bytes.
#[test]
fn the_text_every_template_starts_with_is_the_roots() {
    let walker = Walker::build(&[tokens("/users/{id}"), tokens("/user")], false, false).unwrap();
    assert_eq!(prefix(&walker.nodes[0]), b"/user");
    let mut slots = [Mark::NONE; 2];
    assert_eq!(
        walker.walk_flat(b"/user", &mut slots),
        Walk::Found(1, Seen(0))
    );
    assert_eq!(
        walker.walk_flat(b"/users/7", &mut slots),
        Walk::Found(0, Seen(ALLOWED))
    );
    assert_eq!(slots, marks([7, 8]));
    for uri in ["", "/", "/use", "users/7", "/User"] {
        let walked = walker.walk_flat(uri.as_bytes(), &mut slots);
        assert_eq!(walked, Walk::NotFound(Seen(0), 0), "{uri}");
    }
}

/// A path through more branch points than the walk keeps a way back to hands over to the
/// VM; one just within the limit is walked.
#[test]
fn a_walk_past_its_resume_stack_gives_up() {
    // Every `/` node of `/x/x/...` has a literal `x` edge and a `{v}` edge.
    let templates: Vec<Vec<Token>> = (0..=MAX_RESUME + 1)
        .map(|k| tokens(&("/x".repeat(k) + "/{v}")))
        .collect();
    let walker = Walker::build(&templates, false, false).unwrap();
    let mut slots = [Mark::NONE; 2];
    let within = "/x".repeat(MAX_RESUME - 1) + "/y";
    assert_eq!(
        walker.walk_flat(within.as_bytes(), &mut slots),
        Walk::Found((MAX_RESUME - 1) as u32, Seen(ALLOWED))
    );
    let past = "/x".repeat(MAX_RESUME + 1) + "/y";
    assert_eq!(walker.walk_flat(past.as_bytes(), &mut slots), Walk::GaveUp);
}

/// A straight walk that meets a branch point hands its place over to a walk that can go
/// back to it: after a literal edge that fails further on, and after a `{v}` edge that
/// fails further on while a `{+v}` edge leaves the same node.
#[test]
fn a_straight_walk_hands_over_at_its_first_branch_point() {
    let templates = [tokens("/a/b/{w}/y"), tokens("/a/{v}/x")];
    let walker = Walker::build(&templates, false, false).unwrap();
    let mut slots = [Mark::NONE; 4];
    assert_eq!(
        walker.walk_flat(b"/a/b/x", &mut slots),
        Walk::Found(1, Seen(ALLOWED))
    );
    assert_eq!(slots[..2], marks([3, 4]), "{{v}} is `b`");

    let templates = [tokens("/a/{v}/{w}/y"), tokens("/a/{+p}")];
    let walker = Walker::build(&templates, false, false).unwrap();
    let mut slots = [Mark::NONE; 4];
    assert_eq!(
        walker.walk_flat(b"/a/b/c/z", &mut slots),
        Walk::Found(1, Seen(ALLOWED | DOT_OR_SLASH))
    );
    assert_eq!(slots[..2], marks([3, 8]), "{{+p}} is `b/c/z`");
}

/// What a walk saw before it handed over (here a `%`) stays in what it reports, so that
/// the router still validates and decodes it.
#[test]
fn a_hand_over_keeps_what_the_walk_saw() {
    let templates = [tokens("/{v}/a/b"), tokens("/{v}/a/d"), tokens("/{v}/{w}/c")];
    let walker = Walker::build(&templates, false, false).unwrap();
    let mut slots = [Mark::NONE; 4];
    match walker.walk_flat(b"/%41/a/c", &mut slots) {
        // `%41` is the triplet of an unreserved character: left to the URI's check.
        Walk::Found(2, seen) => assert_eq!(
            seen.0 & (PERCENT | UNREAD_TRIPLET),
            PERCENT | UNREAD_TRIPLET
        ),
        other => panic!("{other:?}"),
    }
}

/// At the end of the URI, a node where one template ends and another's query tail starts
/// gives the lower key, whichever it is; the tail's slot is written only when it wins.
#[test]
fn an_empty_tail_and_an_end_at_one_node_go_by_key() {
    let walker = Walker::build(&[tokens("/{v}/{?q}"), tokens("/{w}/")], false, false).unwrap();
    let mut slots = [Mark::NONE; 4];
    assert_eq!(
        walker.walk_flat(b"/x/", &mut slots),
        Walk::Found(0, Seen(ALLOWED))
    );
    assert_eq!(slots[2], Mark::at(3), "the tail starts at the end");

    let walker = Walker::build(&[tokens("/{w}/"), tokens("/{v}/{?q}")], false, false).unwrap();
    let mut slots = [Mark::NONE; 4];
    assert_eq!(
        walker.walk_flat(b"/x/", &mut slots),
        Walk::Found(0, Seen(ALLOWED))
    );
    assert_eq!(slots[2], Mark::NONE, "no tail taken");

    let walker = Walker::build(&[tokens("/a{?q}")], false, false).unwrap();
    let mut slots = [Mark::NONE; 2];
    assert_eq!(
        walker.walk_flat(b"/a", &mut slots),
        Walk::Found(0, Seen::default())
    );
    assert_eq!(slots[0], Mark::at(2));
}

/// The path `/s1/s2/.../sk` where `si` is `a` if bit `i` of `bits` is clear, else `{vi}`.
fn combination(k: usize, bits: usize) -> String {
    (0..k)
        .map(|i| match bits >> i & 1 {
            0 => "/a".to_owned(),
            _ => format!("/{{v{i}}}"),
        })
        .collect()
}

/// Every template [`combination`] of `k` segments + `suffix`: a URI of `/a` k times makes
/// the walk try all 2^k of them when the suffix fails.
fn every_combination(k: usize, suffix: &str) -> Walker {
    let templates: Vec<Vec<Token>> = (0..1usize << k)
        .map(|bits| tokens(&(combination(k, bits) + suffix)))
        .collect();
    Walker::build(&templates, false, false).unwrap()
}

/// A walk that would backtrack through exponentially many templates gives up once it has
/// spent its budget, and hands over to the VM.
#[test]
fn a_walk_that_backtracks_too_much_gives_up() {
    let walker = every_combination(10, "/end");
    let mut slots = [Mark::NONE; 22];
    let found = "/a".repeat(10) + "/end";
    assert!(matches!(
        walker.walk_flat(found.as_bytes(), &mut slots),
        Walk::Found(..)
    ));
    let missed = "/a".repeat(10) + "/nope";
    assert_eq!(
        walker.walk_flat(missed.as_bytes(), &mut slots),
        Walk::GaveUp
    );
}

/// The literal steps of an attempt that fails count against the budget: here each of 8
/// attempts follows 200 literal edges (`/x` nodes that also lead to `/q`) before it fails,
/// and the walk stops after a few.
#[test]
fn the_literal_steps_of_failed_attempts_count_against_the_budget() {
    let templates: Vec<Vec<Token>> = (0..8usize)
        .flat_map(|bits| {
            let path = combination(3, bits);
            (0..=200).map(move |j| tokens(&(path.clone() + &"/x".repeat(j) + "/q")))
        })
        .collect();
    let walker = Walker::build(&templates, false, false).unwrap();
    let mut slots = [Mark::NONE; 6];
    let uri = "/a".repeat(3) + &"/x".repeat(200) + "/nope";
    assert_eq!(walker.walk_flat(uri.as_bytes(), &mut slots), Walk::GaveUp);
}

/// The bytes a variable's run scans count against the budget even when the edge is not
/// taken: here each of 64 attempts scans a 100,000-byte value, then finds no `/end` after
/// it. With a one-byte value and as long a URI (so the same budget), the walk makes all
/// 64 attempts and answers.
#[test]
fn the_runs_a_walk_scans_count_against_its_budget() {
    let walker = every_combination(6, "/{w}/end");
    let mut slots = [Mark::NONE; 16];
    let long_runs = "/a".repeat(6) + "/" + &"x".repeat(100_000) + "#";
    assert_eq!(
        walker.walk_flat(long_runs.as_bytes(), &mut slots),
        Walk::GaveUp
    );
    let short_runs = "/a".repeat(6) + "/x#" + &"x".repeat(100_000);
    assert!(matches!(
        walker.walk_flat(short_runs.as_bytes(), &mut slots),
        Walk::NotFound(..)
    ));
}

#[test]
fn the_hole_matches_no_text() {
    let mut slots = [];
    let walker = Walker::build(&[tokens("/a"), tokens("/c")], false, false).unwrap();
    // `b` falls between the children `a` and `c`, on a hole.
    assert!(walker.nodes.contains(&HOLE));
    for uri in ["/b", "/\u{ff}", "/\u{0}", "/"] {
        assert_eq!(
            walker.walk_flat(uri.as_bytes(), &mut slots),
            Walk::NotFound(Seen(0), 1),
            "{uri:?}"
        );
    }
    assert_eq!(walker.walk_flat(b"/c", &mut slots), Walk::Found(1, Seen(0)));
}

#[test]
fn delimited_templates_qualify() {
    for t in [
        "/users/{id}/x",
        "/a/{b}",
        "log://build/{id}{?lines}",
        "file:///{+path}",
        "/static",
    ] {
        assert!(qualifies(&tokens(t), false), "{t}");
    }
    for t in [
        "/a/{name}.txt",
        "{a}{b}",
        "/{+a}/x",
        "/{a,b}",
        "/{.a}",
        "/%20/{a}",
        "/{a:3}/",
        "{+a}{?q}",
    ] {
        assert!(!qualifies(&tokens(t), false), "{t}");
    }
}

// The walk-shaped strategies the router's oracle uses, so that the walk is tested on the same
// shapes as the router built on it.
#[allow(dead_code)]
#[path = "../../../tests/it/common/walk_strategies.rs"]
mod strategies;

/// The walk against the VM on single templates, with and without empty path variables: the
/// same template key, the same spans. (The router's oracle covers sets of templates.)
mod agrees_with_the_vm {
    use proptest::prelude::*;

    use super::strategies::{walkable_template, walkable_uri};

    use super::super::Walk;
    use crate::engine::Policy;
    use crate::engine::program::Program;
    use crate::engine::validate::{validate_uri, validate_uri_past};
    use crate::engine::vm;
    use crate::matching::Mark;
    use crate::template::Parsed;

    proptest! {
        #[test]
        fn walk_and_vm_agree(
            text in walkable_template(),
            uri in walkable_uri(),
            empty in any::<bool>(),
        ) {
            let t = Parsed::parse(&text).unwrap();
            let policy = Policy {
                require_path_vars: !empty,
                strict_encoding: false,
                refuse_repeated: false,
            };
            let program = Program::compile(&t, policy).unwrap();
            // The shared strategy also draws a few templates the walk does not serve (`{q}-`,
            // where `-` cannot end `{q}`), for the router's hand-over to the VM: the VM alone
            // answers for those, so there is nothing to compare. (Not a rejection: at high
            // case counts those would exceed proptest's limit on rejects.)
            let Some(walker) = program.walker.as_ref() else {
                return Ok(());
            };
            // The walk writes where the tail starts, as the VM does, in the spans of all the
            // template's variables.
            let width = 2 * t.var_count();
            let (mut walked, mut ran) = (vec![Mark::NONE; width], vec![Mark::NONE; width]);
            let by_vm = vm::run(&program, uri.as_bytes(), &mut ran);
            match walker.walk_flat(uri.as_bytes(), &mut walked) {
                Walk::GaveUp => {}
                Walk::NotFound(..) => prop_assert_eq!(by_vm, None),
                Walk::Found(key, _) => {
                    // The walk leaves the query tail's spans to be bound, or binds them and
                    // answers the key past the program's (its binding is `tail_tests`'): its
                    // head's spans are the VM's.
                    let bound = key == 1;
                    if let Some(first) = t.tail_var() {
                        let from = if bound { 2 * first } else { 2 * first + 1 };
                        walked[from..2 * t.var_count()].fill(Mark::NONE);
                        if bound {
                            ran[2 * first..2 * t.var_count()].fill(Mark::NONE);
                        }
                    }
                    prop_assert_eq!(by_vm, Some(0));
                    prop_assert_eq!(walked, ran);
                }
            }
        }

        /// What lets a miss walk once: a strict walk that finds nothing, and stops no `{v}`
        /// run at a byte clients send raw, leaves nothing for the lenient program either. On
        /// sets of templates whose variables end where clients send raw bytes (`{q}:`,
        /// `{u},`), and on URIs full of those bytes.
        #[test]
        fn a_strict_miss_that_stopped_at_no_client_raw_byte_is_a_lenient_miss(
            texts in prop::collection::vec(client_raw_template(), 1..5),
            uri in client_raw_uri(),
        ) {
            let parsed = parse_all(&texts);
            let templates: Vec<&Parsed> = parsed.iter().collect();
            let policy = required_vars(false);
            let programs = (
                Program::compile_many(&templates, policy.strictly()),
                Program::compile_many(&templates, policy),
            );
            prop_assert!(lenient_misses_too(programs, &uri, &templates));
        }

        /// The same for one template, with and without empty path variables.
        #[test]
        fn a_strict_miss_of_one_template_is_a_lenient_miss(
            text in client_raw_template(),
            uri in client_raw_uri(),
            empty in any::<bool>(),
        ) {
            let Ok(t) = Parsed::parse(&text) else {
                return Ok(());
            };
            let policy = Policy {
                require_path_vars: !empty,
                strict_encoding: false,
                refuse_repeated: false,
            };
            let programs = (
                Program::compile(&t, policy.strictly()),
                Program::compile(&t, policy),
            );
            prop_assert!(lenient_misses_too(programs, &uri, &[&t]));
        }
    }

    proptest! {
        /// What a miss vouches for holds no fault, no triplet and no `#`: checking the URI
        /// past it tells what checking it whole does. On URIs with faults put anywhere.
        #[test]
        fn a_miss_vouches_only_for_what_a_check_would_pass(
            texts in prop::collection::vec(
                prop_oneof![walkable_template(), client_raw_template()],
                1..5,
            ),
            which in any::<prop::sample::Index>(),
            uri in prop_oneof![walkable_uri(), client_raw_uri()],
            fault in prop::sample::select(vec!["", "%", "%g1", "\u{7f}", "{", "#", "%41", " "]),
            at in any::<prop::sample::Index>(),
        ) {
            // Most misses worth looking at go some way along a template first.
            let mut uri = format!("{}{uri}", with_values(which.get::<String>(&texts)));
            let boundaries: Vec<usize> =
                (0..=uri.len()).filter(|&i| uri.is_char_boundary(i)).collect();
            uri.insert_str(*at.get(&boundaries), fault);
            let parsed = parse_all(&texts);
            let templates: Vec<&Parsed> = parsed.iter().collect();
            // Only a strict walk's miss is checked past what it vouches for (`Matcher::missed`).
            let Ok(program) = Program::compile_many(&templates, required_vars(true)) else {
                return Ok(());
            };
            let Some(walker) = program.walker.as_ref() else {
                return Ok(());
            };
            let width = 2 * templates.iter().map(|t| t.var_count()).max().unwrap_or(0);
            let mut marks = vec![Mark::NONE; width];
            if let Walk::NotFound(_, vouched) = walker.walk_flat(uri.as_bytes(), &mut marks) {
                let vouched = vouched as usize;
                prop_assert!(uri.as_bytes()[..vouched].iter().all(|&b| crate::pct::is_plain(b)));
                prop_assert_eq!(validate_uri_past(&uri, vouched), validate_uri(&uri));
            }
        }
    }

    /// The texts that parse, parsed.
    fn parse_all(texts: &[String]) -> Vec<Parsed> {
        texts.iter().filter_map(|t| Parsed::parse(t).ok()).collect()
    }

    /// The policy of a router's programs, path variables required, strict or lenient.
    fn required_vars(strict_encoding: bool) -> Policy {
        Policy {
            require_path_vars: true,
            strict_encoding,
            refuse_repeated: false,
        }
    }

    /// A template's text with a value in place of each expression.
    fn with_values(template: &str) -> String {
        let mut out = String::new();
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            out.push_str("v.1");
            rest = rest[open..]
                .find('}')
                .map_or("", |close| &rest[open + close + 1..]);
        }
        out + rest
    }

    /// Whether the lenient program finds nothing where the strict program's walk found nothing
    /// without stopping a `{v}` run at a byte of `CLIENT_RAW`; true where there is nothing to
    /// compare (no walk, a template that does not compile, a walk that found a match).
    fn lenient_misses_too(
        (strict, lenient): (
            Result<Program, crate::matching::Unsupported>,
            Result<Program, crate::matching::Unsupported>,
        ),
        uri: &str,
        templates: &[&Parsed],
    ) -> bool {
        let (Ok(strict), Ok(lenient)) = (strict, lenient) else {
            return true;
        };
        let Some(walker) = strict.walker.as_ref() else {
            return true;
        };
        let width = 2 * templates.iter().map(|t| t.var_count()).max().unwrap_or(0);
        let mut marks = vec![Mark::NONE; width];
        match walker.walk_flat(uri.as_bytes(), &mut marks) {
            Walk::NotFound(seen, _) if !seen.stopped_at_client_raw() => {
                vm::run(&lenient, uri.as_bytes(), &mut marks).is_none()
            }
            _ => true,
        }
    }

    /// Templates whose `{v}` runs end at bytes that clients send raw, and at others.
    fn client_raw_template() -> impl Strategy<Value = String> {
        let start = prop::sample::select(vec!["", "", "x://h", "ab:", "/"]);
        let literal = prop::sample::select(vec![
            "/", "a", "b", "/a", "x/", "-", ":", "@", "!", "+", ",", ";", "=", "(", "'", "$", "*",
            "&", ".", "~",
        ]);
        let variable = prop::sample::select(vec![
            "{p}/", "{q}:", "{r}@", "{s}!x", "{t}+", "{u},", "{v};", "{w}=", "{y}(", "{z}&",
            "{k}?", "{m}$/", "{n}:x/",
        ]);
        let part = prop_oneof![
            literal.prop_map(String::from),
            variable.prop_map(String::from)
        ];
        let end = prop::sample::select(vec![
            "", "{s}", "{+s}", "{?t,u}", "{s}{?t}", "/{+s}", "{&t}", "{#f}", "#x{s}",
        ]);
        (start, prop::collection::vec(part, 0..5), end).prop_map(|(start, parts, end)| {
            super::strategies::distinct_names(&format!("{start}{}{end}", parts.concat()))
        })
    }

    /// URIs made of those bytes, raw and encoded, and of the templates' literals.
    fn client_raw_uri() -> impl Strategy<Value = String> {
        let piece = prop::sample::select(vec![
            "/", "a", "b", "x", "-", ".", "%2F", "%41", "%40", "?t=1", "&u=2", "?", "&", "=", "/a",
            "\u{e9}", "#", " ", ":", "@", "!", "+", ",", ";", "(", ")", "'", "$", "*", "~", "!x",
            ":x/", "$/", "x://h", "ab:",
        ]);
        prop::collection::vec(piece, 0..10).prop_map(|pieces| pieces.concat())
    }
}

/// A block of a query tail is read by comparisons: they must say what the table says, for
/// every byte, wherever it stands in the block.
#[test]
fn a_query_block_reads_each_byte_as_the_table_does() {
    let table = run_table(Class::query(), Percent::Byte);
    for b in 0..=255u8 {
        for at in 0..QUERY_BLOCK {
            let mut block = [b'a'; QUERY_BLOCK];
            block[at] = b;
            let entry = table[usize::from(b)];
            let expected = (entry & ALLOWED != 0).then_some(entry | ALLOWED);
            assert_eq!(query_block(&block), expected, "{b:#04x} at {at}");
        }
    }
}

/// Each URI of `head` (6 bytes) and a run of `fill` bytes of every length under `longest`, with
/// none or one `stop` byte at every place: what a faster reading of runs must agree on.
fn runs_to_read(head: &[u8; 6], fill: &[u8], longest: usize) -> Vec<Vec<u8>> {
    let mut uris = Vec::new();
    for len in 0..longest {
        for &fill in fill {
            for stop in [None, Some(b'#'), Some(b' ')] {
                for at in 0..len.max(1) {
                    let mut uri = head.to_vec();
                    uri.extend(std::iter::repeat_n(fill, len));
                    if let (Some(stop), true) = (stop, at < len) {
                        uri[6 + at] = stop;
                    }
                    uris.push(uri);
                }
            }
        }
    }
    uris
}

/// A tail's run by blocks ends where the table's byte loop does, having seen the same bits,
/// whatever the tail's length and wherever it stops.
#[test]
fn a_tail_run_by_blocks_is_the_byte_loops_run() {
    let walker = Walker::build(&[tokens("x://s{?q}")], false, true).unwrap();
    let table = &walker.runs[QUERY_RUN as usize];
    for uri in runs_to_read(b"x://s?", b"a%.", 70) {
        let (end, seen) = super::run::run_to_stop(table, &uri, 5);
        // A tail leaves its triplets to the URI's check.
        let unread = if seen & PERCENT != 0 {
            UNREAD_TRIPLET
        } else {
            0
        };
        assert_eq!(
            walker.tail_run(QUERY_RUN, &uri, 5),
            (end, seen | unread),
            "{uri:?}"
        );
    }
}

/// A run reads each triplet whole where it meets it: it ends where a loop that takes `%` as a
/// byte ends, with that loop's bits, and leaves a triplet unread exactly where the check of the
/// run's text finds one that is neither of an inert byte nor of a whole two-byte character, or
/// a `%` that starts none. For `{v}` and `{+v}` runs, on every text of up to five pieces.
#[test]
fn runs_read_their_triplets_as_the_check_does() {
    let pieces = [
        "a", "/", "%20", "%C3", "%A9", "%2F", "%41", "%E2", "%zz", "%", "\u{e9}", "?",
    ];
    let walker = Walker::build(&[tokens("x://{v}?"), tokens("y://{+p}")], false, true).unwrap();
    let crossing = walker
        .exits
        .iter()
        .find_map(|e| e.crossing)
        .expect("a crossing edge");
    let segment = walker
        .nodes
        .iter()
        .find(|n| n.flags & SEGMENT != 0)
        .expect("a {v} edge");
    for text in crate::pct::tests::concatenations(&pieces, 5) {
        let uri = format!("x://{text}");
        for (run, by_words) in [
            (u32::from(segment.segment_run), false),
            (crossing.run, true),
        ] {
            let table = &walker.runs[run as usize];
            let (end, seen) = if by_words {
                walker.crossing_run(run, uri.as_bytes(), 4)
            } else {
                walker.run(run, uri.as_bytes(), 4)
            };
            // The loop that takes `%` as the byte it is.
            let bytes = &uri.as_bytes()[4..];
            let taken = (bytes.iter())
                .take_while(|&&b| table[usize::from(b)] & (ALLOWED | PERCENT) != 0)
                .count();
            let read = bytes.get(..=taken).unwrap_or(bytes);
            let bits = read.iter().fold(0, |bits, &b| bits | table[usize::from(b)]);
            assert_eq!(end, 4 + taken, "{uri}");
            assert_eq!(seen & !(UNREAD_TRIPLET | ALLOWED), bits & !ALLOWED, "{uri}");
            let unread = match crate::pct::check_triplets(&uri[4..end]) {
                Ok(triplets) => triplets > crate::pct::Triplets::TwoByte,
                Err(_) => true,
            };
            assert_eq!(seen & UNREAD_TRIPLET != 0, unread, "{uri}: {seen:?}");
        }
    }
}

/// A variable's run stops at `%` to read its triplet, and a query tail's takes it as a byte,
/// even where a variable's class is the query's (`{+q}` after a `?`): they never share a table.
#[test]
fn only_a_query_tail_takes_percent_as_a_byte() {
    for texts in [
        ["x://s?{+q}", "x://t{?q}"],
        ["x://s?a={v}", "x://s/{+p}"],
        ["{+p}", "x://{v}/y{?a,b}"],
    ] {
        for strict in [false, true] {
            let templates = texts.map(tokens);
            let walker = Walker::build(&templates, false, strict).unwrap();
            let percent = |run: u32| walker.runs[run as usize][usize::from(b'%')];
            assert_eq!(percent(QUERY_RUN), ALLOWED | PERCENT, "{texts:?}");
            let segments = (walker.nodes.iter())
                .filter(|n| n.flags & SEGMENT != 0)
                .map(|n| u32::from(n.segment_run));
            let crossings = walker
                .exits
                .iter()
                .filter_map(|e| e.crossing)
                .map(|e| e.run);
            for run in segments.chain(crossings) {
                assert_eq!(percent(run), PERCENT, "{texts:?}, strict {strict}");
            }
        }
    }
}

/// A crossing run by words ends where the byte loop does, having seen the same bits.
#[test]
fn a_crossing_run_by_words_is_the_byte_loops_run() {
    let walker = Walker::build(&[tokens("x://s/{+p}")], false, true).unwrap();
    let Some(edge) = walker.exits.iter().find_map(|e| e.crossing) else {
        panic!("a crossing edge");
    };
    for uri in runs_to_read(b"x://s/", b"a/%.", 40) {
        let whole = walker.run(edge.run, &uri, 6);
        assert_eq!(walker.crossing_run(edge.run, &uri, 6), whole, "{uri:?}");
    }
}
