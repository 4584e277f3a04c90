//! The table against the VM: hand-picked shapes, limits, and random templates and URIs.

use super::{MAX_STATES, Run};
use crate::engine::Policy;
use crate::engine::program::Program;
use crate::engine::vm;
use crate::matching::Mark;
use crate::pct::tests::concatenations;
use crate::template::Parsed;

const LENIENT: Policy = Policy {
    require_path_vars: false,
    strict_encoding: false,
    refuse_repeated: false,
};

fn program(template: &str, policy: Policy) -> Program {
    Program::compile(&Parsed::parse(template).unwrap(), policy).unwrap()
}

/// A router's program: the templates compiled together, template `i` with key `i`.
fn router_program<T: AsRef<str>>(texts: &[T], policy: Policy) -> Program {
    let parsed: Vec<Parsed> = texts
        .iter()
        .map(|t| Parsed::parse(t.as_ref()).unwrap())
        .collect();
    let refs: Vec<&Parsed> = parsed.iter().collect();
    Program::compile_many(&refs, policy).unwrap()
}

/// A match: the template's key and the slots.
type Found = Option<(u32, Vec<Mark>)>;

/// What the table and the VM give for `uri`: key and slots, or `None` for no match. The
/// table's `Dynamic` is `Err`.
fn both(program: &Program, uri: &str) -> (Result<Found, ()>, Found) {
    let width = program.slots;
    let (mut by_table, mut by_vm) = (vec![Mark::NONE; width], vec![Mark::NONE; width]);
    let dfa = program.dfa().expect("a table");
    let led = dfa.led(uri.as_bytes());
    let table = match dfa.run(uri.as_bytes(), led, &mut by_table) {
        Run::Match(key) => Ok(Some((key, by_table))),
        Run::NoMatch => Ok(None),
        Run::Dynamic => Err(()),
    };
    // A run past the lead is the run from the start.
    let mut from_start = vec![Mark::NONE; width];
    let run = dfa.run(uri.as_bytes(), 0, &mut from_start);
    match &table {
        Ok(Some((key, slots))) => assert_eq!((run, &from_start), (Run::Match(*key), slots)),
        Ok(None) => assert_eq!(run, Run::NoMatch),
        Err(()) => assert_eq!(run, Run::Dynamic),
    }
    let vm = vm::run(program, uri.as_bytes(), &mut by_vm).map(|key| (key, by_vm));
    (table, vm)
}

/// The operators the walk turns away get a table, which answers as the VM does.
#[test]
fn the_operators_the_walk_does_not_serve_get_a_table() {
    for (template, uri) in [
        ("x://archive{.ext}", "x://archive.tar"),
        ("x://page{#section}", "x://page#intro/part-2"),
        ("x://repo{/owner,name}", "x://repo/rust-lang/rust"),
        ("x://map{;x,y}", "x://map;x=1024;y=768"),
        ("x://{a}-{b}-{c}.z", "x://1-2-3.z"),
        ("x://{+a}/{+b}/{+c}/end", "x://a/b/c/end"),
    ] {
        let p = program(template, LENIENT);
        assert!(p.walker.is_none(), "{template} is not walked");
        let (table, vm) = both(&p, uri);
        assert!(vm.is_some(), "{template} matches {uri}");
        assert_eq!(table, Ok(vm), "{template} on {uri}");
    }
}

/// A run reads the text every match starts with as one word, up to where the table has more
/// than one way on (or a word's length); a URI that spells it otherwise (a letter of the
/// caseless scheme in the other case aside), or ends within it, is read from the start, to
/// the same answer.
#[test]
fn a_table_reads_its_lead_at_once() {
    let p = program("x://archive{.ext}", LENIENT);
    let dfa = p.dfa().expect("a table");
    for (uri, led) in [
        ("x://archive.tar", 8),
        ("X://archive.tar", 8),
        ("x://arch", 8),
        ("x://arc", 0),
        ("%78://archive.tar", 0),
        ("x:/%2Farchive.tar", 0),
        ("y://archive.tar", 0),
    ] {
        assert_eq!(dfa.led(uri.as_bytes()), led, "{uri}");
        let (table, vm) = both(&p, uri);
        assert_eq!(table, Ok(vm), "on {uri}");
    }
    for (template, uri, led) in [
        ("x://{id}", "x://abc", 4),
        ("ab{.x}", "ab", 0),
        ("ab{.x}", "ab.c", 3),
        ("{a}", "abc", 0),
        ("x://{a}-{b}-{c}.z", "x://1-2-3.z", 4),
    ] {
        let p = program(template, LENIENT);
        let dfa = p.dfa().expect("a table");
        assert_eq!(dfa.led(uri.as_bytes()), led, "{template} on {uri}");
        let (table, vm) = both(&p, uri);
        assert!(vm.is_some(), "{template} matches {uri}");
        assert_eq!(table, Ok(vm), "{template} on {uri}");
    }
}

/// `{/owner,name}` on one segment defines `owner`, as the VM prefers; on none, neither.
#[test]
fn a_table_prefers_what_the_vm_prefers() {
    let p = program("x://repo{/owner,name}", LENIENT);
    for uri in [
        "x://repo/rust",
        "x://repo",
        "x://repo/",
        "x://repo//b",
        "x://repo/a/b/c",
    ] {
        let (table, vm) = both(&p, uri);
        assert_eq!(table, Ok(vm), "on {uri}");
    }
    let (table, _) = both(&p, "x://repo/rust");
    assert_eq!(
        table,
        Ok(Some((
            0,
            vec![Mark::at(9), Mark::at(13), Mark::NONE, Mark::NONE]
        )))
    );
}

/// Where a value could end before an encoded continuation byte and what follows could
/// take it, the table hands the URI to the VM. Where nothing after the value could take
/// one, the question never comes up.
#[test]
fn a_value_that_may_end_before_a_continuation_goes_to_the_vm() {
    let p = program("x://{a}{+b}", LENIENT);
    assert_eq!(both(&p, "x://caf%C3%A9").0, Err(()));
    assert_eq!(both(&p, "x://caf\u{e9}").0, Err(()));
    let (table, vm) = both(&p, "x://a%2Fb");
    assert_eq!(table, Ok(vm));
    let p = program("x://archive{.ext}", LENIENT);
    let (table, vm) = both(&p, "x://archive.caf%C3%A9");
    assert!(vm.is_some());
    assert_eq!(table, Ok(vm));
}

/// A router's program gets a table where it fits: ten MCP-like templates, three of which the
/// walk does not serve, answer through it as through the VM.
#[test]
fn a_small_router_gets_a_table() {
    let texts = [
        "file:///{+path}",
        "db://users/{id}/profile",
        "db://users/{id}/posts/{post}",
        "search://docs{?q,lang}",
        "log://build/{job_id}{?lines}",
        "notes://{id}",
        "config://app",
        "x://archive/{name}.txt",
        "x://page{#section}",
        "x://repo{/owner,name}",
    ];
    let policy = Policy {
        require_path_vars: true,
        strict_encoding: true,
        refuse_repeated: false,
    };
    let p = router_program(&texts, policy);
    assert!(p.dfa().is_some());
    for uri in [
        "file:///docs/a.md",
        "db://users/ada/posts/7",
        "x://archive/report.txt",
        "x://archive/report.tar",
        "x://page#intro",
        "x://repo/rust-lang/rust",
        "search://docs?q=x",
        "config://app",
        "nothing://here",
    ] {
        let (table, vm) = both(&p, uri);
        assert_eq!(table, Ok(vm), "{uri}");
    }
}

/// Prefix modifiers get a table whose counting loops answer as the VM does: every URI of
/// up to 5 units over an alphabet that asks each question of a count (a character, a
/// character of two units, a lone continuation, a separator), and runs of one character past
/// each limit, under every policy.
#[test]
fn counting_loops_answer_as_the_vm_does() {
    let units = ["x", "-", "/", "%C3%A9", "%A9", "\u{e9}"];
    let short = concatenations(&units, 5);
    let long: Vec<String> = (0..14).map(|n| "x".repeat(n)).collect();
    for template in [
        "{a:1}",
        "{a:2}",
        "{a:3}",
        "{a}{b:2}",
        "{a:2}{b:3}{c}",
        "{a:1}-{b:2}",
        "{a:3}{b:9999}{c}",
        "{a}{b:9999}",
        "x{/a:2}",
        "{+a:2}/{b}",
        "{#a:2,b:3}",
        "{.a:2,b}",
        "{a:2}{+b:3}",
    ] {
        for policy in 0..4 {
            let policy = Policy {
                require_path_vars: policy & 1 != 0,
                strict_encoding: policy & 2 != 0,
                refuse_repeated: false,
            };
            let p = program(template, policy);
            assert!(p.dfa().is_some(), "{template} gets a table");
            for uri in short.iter().chain(&long) {
                if crate::engine::validate::validate_uri(uri).is_err() {
                    continue;
                }
                let (table, vm) = both(&p, uri);
                if table != Err(()) {
                    assert_eq!(table, Ok(vm), "{template} on {uri}");
                }
            }
        }
    }
}

/// A template whose lists of threads take more shapes than a table may hold gets none.
#[test]
fn a_table_has_a_bounded_number_of_states() {
    let literal = "a".repeat(MAX_STATES + 1);
    assert!(
        program(&format!("x://{literal}{{.v}}"), LENIENT)
            .dfa()
            .is_none()
    );
    assert!(program("x://aaaa{.v}", LENIENT).dfa().is_some());
}

#[cfg(feature = "proptest")]
mod agrees_with_the_vm {
    use proptest::prelude::*;

    use super::{Policy, Program, both};
    use crate::engine::validate::validate_uri;
    use crate::testing::strategies::{round_trip_cases, templates, uri_like};

    fn agree(program: &Program, uri: &str) -> Result<(), TestCaseError> {
        if validate_uri(uri).is_err() || program.dfa().is_none() {
            return Ok(());
        }
        let (table, vm) = both(program, uri);
        if let Ok(table) = table {
            prop_assert_eq!(table, vm, "on {}", uri);
        }
        Ok(())
    }

    proptest! {
        /// Any template, with a URI it expands to and a URI-like string, under each
        /// policy: the same key and slots, or both no match.
        #[test]
        fn table_and_vm_agree(
            case in round_trip_cases(),
            other in templates(),
            uri in uri_like(),
            policy in 0..4usize,
        ) {
            let policy = Policy {
                require_path_vars: policy & 1 != 0,
                strict_encoding: policy & 2 != 0,
                refuse_repeated: false,
            };
            let t = case.template().parsed();
            if let Ok(program) = Program::compile(t, policy) {
                agree(&program, case.uri())?;
                agree(&program, &uri)?;
            }
            if let Ok(t) = other.parse() {
                if let Ok(program) = Program::compile(t.parsed(), policy) {
                    agree(&program, &uri)?;
                    agree(&program, case.uri())?;
                }
                // The two as a router's program: keys and precedence between templates.
                let both = [case.template().parsed(), t.parsed()];
                if let Ok(program) = Program::compile_many(&both, policy) {
                    agree(&program, &uri)?;
                    agree(&program, case.uri())?;
                }
            }
        }
    }
}

/// A router whose one transition steps thousands of threads is refused within the budget,
/// and quickly: the VM serves it.
#[test]
fn a_router_too_wide_for_a_table_keeps_the_vm() {
    let texts: Vec<String> = (0..5_000).map(|i| format!("x://{{;v{i}}}")).collect();
    assert!(router_program(&texts, LENIENT).dfa().is_none());
}

/// A router's program can hold more counting loops than a table keeps registers for, or
/// loops that one transition would all have to ask about: both keep the VM, which answers.
#[test]
fn counting_loops_past_the_table_limits_keep_the_vm() {
    let compile = |texts: &[String]| router_program(texts, LENIENT);
    // More loops than registers; one fewer fits.
    let texts: Vec<String> = (0..=super::MAX_COUNTERS)
        .map(|i| format!("x://p{i}/{{a:3}}"))
        .collect();
    assert!(compile(&texts[1..]).dfa().is_some());
    let p = compile(&texts);
    assert!(p.dfa().is_none());
    let mut slots = vec![Mark::NONE; p.slots];
    let last = super::MAX_COUNTERS;
    assert_eq!(
        vm::run(&p, format!("x://p{last}/abc").as_bytes(), &mut slots),
        Some(last as u32)
    );
    // Five loops alive over the same characters, each with many once two are read; four
    // fit.
    let texts: Vec<String> = (5..=super::MAX_TESTS + 5)
        .map(|max| format!("x://{{a:{max}}}y"))
        .collect();
    assert!(compile(&texts[1..]).dfa().is_some());
    let p = compile(&texts);
    assert!(p.dfa().is_none());
    assert_eq!(vm::run(&p, b"x://aaaaaay", &mut slots), Some(1));
}
