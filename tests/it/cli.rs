//! The `rfc6570` command line, run as a process: every example its `--help` shows, and the
//! errors scripts rely on (JSON on stdout, messages on stderr, exit status 1 or 2).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_rfc6570");

/// A fresh, empty working directory for one test.
fn workdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rfc6570-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run_in(dir: &Path, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn run(args: &[&str]) -> Output {
    run_in(&std::env::temp_dir(), args, "")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

fn json_lines(out: &Output) -> Vec<Value> {
    stdout(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

/// An example from `--help`: a shell command, the output it shows, and its exit status.
#[derive(Debug)]
struct Example {
    command: String,
    stdout: String,
    status: i32,
}

/// The examples of a help text: after `Examples:`, each `$ ` line is a command, the indented
/// lines after it its output, and `(exit status N)` its status (0 when not shown).
fn examples(help: &str) -> Vec<Example> {
    let mut examples: Vec<Example> = Vec::new();
    let lines = help.lines().skip_while(|l| *l != "Examples:").skip(1);
    for line in lines {
        if line.is_empty() {
            continue;
        }
        let Some(line) = line.strip_prefix("  ") else {
            break;
        };
        if let Some(command) = line.strip_prefix("$ ") {
            examples.push(Example {
                command: command.to_owned(),
                stdout: String::new(),
                status: 0,
            });
            continue;
        }
        let example = examples.last_mut().expect("output after a command");
        match line
            .strip_prefix("(exit status ")
            .and_then(|s| s.strip_suffix(')'))
        {
            Some(status) => example.status = status.parse().unwrap(),
            None => {
                example.stdout.push_str(line);
                example.stdout.push('\n');
            }
        }
    }
    examples
}

/// Runs the examples of `rfc6570 [subcommand] --help` in order, in one fresh directory, with
/// `rfc6570` on the PATH; returns how many there were.
fn run_help_examples(subcommand: Option<&str>) -> usize {
    let mut args: Vec<&str> = subcommand.into_iter().collect();
    args.push("--help");
    let help = run(&args);
    assert!(help.status.success());
    let examples = examples(&stdout(&help));
    run_examples(&format!("help-{}", subcommand.unwrap_or("main")), &examples);
    examples.len()
}

/// Runs `examples` in order, in one fresh directory named for `name`, with `rfc6570` on the
/// PATH, and checks each one's output and exit status.
fn run_examples(name: &str, examples: &[Example]) {
    let dir = workdir(name);
    let bin_dir = Path::new(BIN).parent().unwrap();
    let path = std::env::join_paths(
        std::iter::once(bin_dir.to_path_buf())
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    for example in examples {
        let out = Command::new("sh")
            .args(["-c", &example.command])
            .current_dir(&dir)
            .env("PATH", &path)
            .output()
            .unwrap();
        assert_eq!(
            stdout(&out),
            example.stdout,
            "stdout of `{}` (stderr: {})",
            example.command,
            stderr(&out)
        );
        assert_eq!(
            out.status.code(),
            Some(example.status),
            "exit status of `{}` (stderr: {})",
            example.command,
            stderr(&out)
        );
    }
}

#[test]
fn help_examples_run_as_shown() {
    let counts: Vec<usize> = [
        None,
        Some("expand"),
        Some("match"),
        Some("route"),
        Some("check"),
    ]
    .into_iter()
    .map(run_help_examples)
    .collect();
    assert_eq!(counts, [4, 3, 5, 3, 4]);
}

#[test]
fn examples_are_parsed_from_help() {
    let help = "intro\n\nExamples:\n  $ a b\n  out 1\n  out 2\n\n  $ c\n  (exit status 1)\n\nTail";
    let parsed = examples(help);
    assert_eq!(parsed.len(), 2);
    assert_eq!(
        (
            parsed[0].command.as_str(),
            parsed[0].stdout.as_str(),
            parsed[0].status
        ),
        ("a b", "out 1\nout 2\n", 0)
    );
    assert_eq!((parsed[1].stdout.as_str(), parsed[1].status), ("", 1));
}

#[test]
fn version_and_usage_errors() {
    let out = run(&["--version"]);
    assert_eq!(
        stdout(&out),
        format!("rfc6570 {}\n", env!("CARGO_PKG_VERSION"))
    );
    for args in [&[][..], &["frobnicate"], &["match", "x"], &["check"]] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stdout(&out).is_empty());
        assert!(!stderr(&out).is_empty());
    }
}

#[test]
fn expand_takes_strings_and_json() {
    let dir = workdir("expand");
    std::fs::write(
        dir.join("vars.json"),
        r#"{"job_id": 42, "lines": "1-5", "tags": ["a", "b c"], "keys": {"x": "1"}, "gone": null}"#,
    )
    .unwrap();
    let out = run_in(
        &dir,
        &[
            "expand",
            "log://build/{job_id}{?lines,tags,gone}{&keys*}",
            "--json",
            "vars.json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "log://build/42?lines=1-5&tags=a,b%20c&x=1\n");

    // NAME=VALUE pairs are strings, and override the file's.
    let out = run_in(
        &dir,
        &[
            "expand",
            "{job_id}/{x}",
            "--json",
            "-",
            "job_id=7",
            "x=a=b",
            "empty=",
        ],
        r#"{"job_id": 1}"#,
    );
    assert_eq!(stdout(&out), "7/a%3Db\n");
}

#[test]
fn expand_refuses_bad_input() {
    let dir = workdir("expand-bad");
    std::fs::write(dir.join("list.json"), "[1, 2]").unwrap();
    std::fs::write(dir.join("broken.json"), "{").unwrap();
    std::fs::write(dir.join("nested.json"), r#"{"v": ["a", "b"]}"#).unwrap();
    let cases: [(&[&str], &str); 6] = [
        (
            &["expand", "log://{job id}"],
            "rfc6570: invalid template: unexpected character ' ' in expression at byte 10\n  log://{job id}\n            ^\n",
        ),
        (
            &["expand", "{x}", "novalue"],
            "rfc6570: `novalue`: variables are given as NAME=VALUE\n",
        ),
        (
            &["expand", "{x}", "=v"],
            "rfc6570: `=v`: variables are given as NAME=VALUE\n",
        ),
        (
            &["expand", "{x}", "--json", "list.json"],
            "rfc6570: list.json: the variables must be a JSON object\n",
        ),
        (
            &["expand", "{x}", "--json", "missing.json"],
            "rfc6570: cannot read missing.json: ",
        ),
        (
            &["expand", "{v:2}", "--json", "nested.json"],
            "rfc6570: cannot expand: prefix modifier on `v`, which is a list or map at byte 0\n  {v:2}\n  ^\n",
        ),
    ];
    for (args, message) in cases {
        let out = run_in(&dir, args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stdout(&out).is_empty(), "{args:?}");
        assert!(
            stderr(&out).starts_with(message),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    let out = run_in(&dir, &["expand", "{x}", "--json", "broken.json"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with("rfc6570: broken.json: invalid JSON: "));
}

#[test]
fn match_prints_captures_as_json() {
    let out = run(&[
        "match",
        "log://build/{job_id}{?lines,tags*}",
        "log://build/42?tags=a&lines=1-5&tags=b%20c",
    ]);
    assert!(out.status.success());
    // Keys in template order.
    assert_eq!(
        stdout(&out),
        "{\"job_id\":\"42\",\"lines\":\"1-5\",\"tags\":[\"a\",\"b c\"]}\n"
    );
    let out = run(&["match", "{;filters*}", ";lang=en;sort=new"]);
    assert_eq!(
        json_lines(&out),
        [json!({"filters": {"lang": "en", "sort": "new"}})]
    );

    for (args, status, message) in [
        (
            &["match", "notes://{id}", "files://x"][..],
            1,
            "rfc6570: the URI does not match the template\n",
        ),
        (
            &["match", "notes://{id}", "notes://%FF"],
            1,
            "rfc6570: malformed URI at byte 8: percent-encoded bytes are not UTF-8\n  notes://%FF\n          ^\n",
        ),
        (
            &["match", "notes://{id", "notes://1"],
            2,
            "rfc6570: invalid template: expression is not closed with `}` at byte 8\n  notes://{id\n          ^\n",
        ),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(status), "{args:?}");
        assert!(stdout(&out).is_empty());
        assert_eq!(stderr(&out), message);
    }
}

#[test]
fn route_reports_each_uri() {
    let dir = workdir("route");
    std::fs::write(
        dir.join("templates.txt"),
        "# resources of an MCP server\n\nfile:///{+path}\n  notes://{id}  \nnotes://index\nsearch://docs{?q,lang}\nx:{v}\n",
    )
    .unwrap();
    let uris = [
        "notes://index",
        "notes://7",
        "file:///docs/a%20b.md",
        "search://docs?lang=en",
    ];
    let mut args = vec!["route", "--templates", "templates.txt"];
    args.extend(uris);
    let out = run_in(&dir, &args, "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        json_lines(&out),
        [
            json!({"uri": "notes://index", "template": "notes://index", "captures": {}}),
            json!({"uri": "notes://7", "template": "notes://{id}", "captures": {"id": "7"}}),
            json!({"uri": "file:///docs/a%20b.md", "template": "file:///{+path}", "captures": {"path": "docs/a b.md"}}),
            json!({"uri": "search://docs?lang=en", "template": "search://docs{?q,lang}", "captures": {"lang": "en"}}),
        ]
    );

    let out = run_in(
        &dir,
        &[
            "route",
            "-t",
            "templates.txt",
            "nope://x",
            "file:///a/../../etc/passwd",
            "notes://a%2Fb",
            "file:///%ZZ",
            "x:%FF",
            "x:caf%C3",
            "search://docs?q=a&q=b",
            "notes://ok",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    let lines = json_lines(&out);
    let pick = |line: &Value, keys: &[&str]| -> Value {
        keys.iter()
            .filter_map(|k| line.get(*k).map(|v| (k.to_string(), v.clone())))
            .collect::<serde_json::Map<_, _>>()
            .into()
    };
    let keys = [
        "error", "template", "variable", "rule", "position", "reason", "found", "name",
    ];
    let got: Vec<Value> = lines.iter().map(|l| pick(l, &keys)).collect();
    assert_eq!(
        got,
        [
            json!({"error": "not_found"}),
            json!({"error": "unsafe", "template": "file:///{+path}", "variable": "path", "rule": "dot_dot_segment"}),
            json!({"error": "unsafe", "template": "notes://{id}", "variable": "id", "rule": "separator_in_segment"}),
            json!({"error": "malformed", "position": 8, "reason": "invalid_percent_encoding", "found": "%ZZ"}),
            json!({"error": "malformed", "position": 2, "reason": "not_utf8", "found": "%FF"}),
            json!({"error": "malformed", "position": 5, "reason": "not_utf8", "found": "%C3"}),
            json!({"error": "duplicate_parameter", "template": "search://docs{?q,lang}", "name": "q"}),
            json!({"template": "notes://{id}"}),
        ]
    );
    assert_eq!(lines[7]["captures"], json!({"id": "ok"}));
    for line in &lines[..7] {
        assert!(line["message"].is_string(), "{line}");
        assert!(line["uri"].is_string(), "{line}");
    }
    // The refusal says which rule, not what the value decoded to.
    assert!(!lines[1]["message"].as_str().unwrap().contains("passwd"));
}

#[test]
fn route_refuses_bad_template_files() {
    let dir = workdir("route-bad");
    std::fs::write(dir.join("bad.txt"), "notes://{id}\n# ok\nlog://{job id}\n").unwrap();
    std::fs::write(dir.join("conflict.txt"), "notes://{id}\nnotes://{name}\n").unwrap();
    for (file, message) in [
        (
            "bad.txt",
            "rfc6570: bad.txt:3: unexpected character ' ' in expression at byte 10\n  log://{job id}\n            ^\n",
        ),
        (
            "conflict.txt",
            "rfc6570: conflict.txt:2: `notes://{name}` matches the same URIs as `notes://{id}`\n",
        ),
        ("missing.txt", "rfc6570: cannot read missing.txt: "),
    ] {
        let out = run_in(&dir, &["route", "--templates", file, "notes://1"], "");
        assert_eq!(out.status.code(), Some(2), "{file}");
        assert!(stdout(&out).is_empty());
        assert!(
            stderr(&out).starts_with(message),
            "{file}: {}",
            stderr(&out)
        );
    }
    // Templates from stdin.
    let out = run_in(
        &std::env::temp_dir(),
        &["route", "--templates", "-", "notes://1"],
        "notes://{id}\n",
    );
    assert!(out.status.success());
}

#[test]
fn check_reports_every_template() {
    let out = run(&["check", "notes://{id}", "{/path*}{?q}"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "ok: notes://{id}\nok: {/path*}{?q}\n");

    let out = run(&["check", "{x}", "{=x}", "caf\u{e9}/{a b}"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "ok: {x}\n\
         error: operator `=` is reserved by RFC 6570 at byte 1\n  {=x}\n   ^\n\
         error: unexpected character ' ' in expression at byte 8\n  caf\u{e9}/{a b}\n         ^\n"
    );

    let out = run(&["check", "--json", "{x}", "{var:0}"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        json_lines(&out),
        [
            json!({"template": "{x}", "valid": true, "matchable": true, "lints": []}),
            json!({"template": "{var:0}", "valid": false, "kind": "invalid_prefix", "position": 5, "message": "prefix must be a number from 1 to 9999"}),
        ]
    );
}

#[test]
fn check_warns_of_lints() {
    let templates = ["x://{a}{b}", "notes://{id}", "{#f}{?q}{x}/{x}"];
    let mut args = vec!["check"];
    args.extend(templates);
    let out = run(&args);
    // The templates are valid; the lints that make matching refuse the third are errors, so
    // the check fails.
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "ok: x://{a}{b}\n\
         warning: `b` at byte 8 follows `a` with no literal between them, so where one ends is \
         ambiguous; put a literal between them\n  x://{a}{b}\n          ^\n\
         ok: notes://{id}\n\
         error: `{#f}` at byte 0 comes before a repeated name's last occurrence, and another \
         expression follows it with no literal between, so a match could place the occurrences \
         where they disagree while another placing agrees; put a literal it cannot hold after \
         it, or give each occurrence its own name\n  {#f}{?q}{x}/{x}\n  ^\n\
         error: `{?q}` at byte 4 follows the fragment that `{#f}` at byte 0 starts, and in a \
         URI everything after `#` is fragment, so the template cannot be matched; move it \
         before the fragment\n  {#f}{?q}{x}/{x}\n      ^\n\
         warning: `x` at byte 9 follows `q` with no literal between them, so where one ends is \
         ambiguous; put a literal between them\n  {#f}{?q}{x}/{x}\n           ^\n\
         warning: `x` at byte 13 repeats the name of `x` at byte 9: a URI matches only where the two \
         agree\n  {#f}{?q}{x}/{x}\n               ^\n"
    );

    let mut json_args = vec!["check", "--json"];
    json_args.extend(templates);
    let out = run(&json_args);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let lines = json_lines(&out);
    let codes: Vec<Vec<(String, u64)>> = lines
        .iter()
        .map(|line| {
            assert_eq!(line["valid"], true, "{line}");
            let refuses = line["lints"]
                .as_array()
                .unwrap()
                .iter()
                .any(|l| l["refuses"] == true);
            assert_eq!(line["matchable"], !refuses, "{line}");
            line["lints"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| {
                    assert!(l["message"].is_string(), "{l}");
                    (
                        l["code"].as_str().unwrap().to_owned(),
                        l["position"].as_u64().unwrap(),
                    )
                })
                .collect()
        })
        .collect();
    let expected: [&[(&str, u64)]; 3] = [
        &[("adjacent_variables", 8)],
        &[],
        &[
            ("repeated_ambiguous", 0),
            ("query_after_fragment", 4),
            ("adjacent_variables", 9),
            ("repeated_name", 13),
        ],
    ];
    let expected: Vec<Vec<(String, u64)>> = expected
        .iter()
        .map(|ls| ls.iter().map(|&(c, p)| (c.to_owned(), p)).collect())
        .collect();
    assert_eq!(codes, expected);
    assert_eq!(
        lines[0]["lints"][0],
        json!({
            "code": "adjacent_variables",
            "refuses": false,
            "position": 8,
            "message": "`b` at byte 8 follows `a` with no literal between them, so where one ends \
                        is ambiguous; put a literal between them",
        })
    );

    // --deny-lints: a linted template fails, a clean one passes; the output is the same.
    for (args, status) in [
        (&["check", "--deny-lints", "x://{a}{b}"][..], 1),
        (&["check", "--deny-lints", "--json", "x://{a}{b}"], 1),
        (
            &["check", "--deny-lints", "notes://{id}", "file:///{+path}"],
            0,
        ),
        (&["check", "--deny-lints", "notes://{id}", "{+a}/{+b}"], 1),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(status), "{args:?}");
        let without: Vec<&str> = args
            .iter()
            .copied()
            .filter(|a| *a != "--deny-lints")
            .collect();
        assert_eq!(stdout(&out), stdout(&run(&without)), "{args:?}");
    }
}

/// `match` judges values for path safety as `route` does: a refused URI is never printed as a
/// match, and the rule is named.
#[test]
fn match_refuses_what_path_safety_refuses() {
    let uri = "file:///..%2F..%2Fetc%2Fpasswd";
    let out = run(&["match", "file:///{+path}", uri]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        "rfc6570: refused by path safety: variable `path` of `file:///{+path}` holds a `..` path segment\n"
    );
    let routed = run_in(
        &std::env::temp_dir(),
        &["route", "--templates", "-", uri],
        "file:///{+path}\n",
    );
    assert_eq!(json_lines(&routed)[0]["rule"], "dot_dot_segment");
    // A safe value still matches.
    let out = run(&["match", "file:///{+path}", "file:///docs/v1..v2.md"]);
    assert_eq!(stdout(&out), "{\"path\":\"docs/v1..v2.md\"}\n");
    // The reading judged is the one printed: `match` allows an empty `{host}` (or `{a}`), as
    // a router of its own options does.
    for (template, uri, variable) in [
        (
            "file://{host}/{+path}",
            "file:///..%2F..%2Fetc%2Fpasswd",
            "path",
        ),
        ("x://{a}{b}", "x://..", "b"),
    ] {
        let out = run(&["match", template, uri]);
        assert_eq!(out.status.code(), Some(1), "{template}");
        assert_eq!(stdout(&out), "", "{template}");
        assert_eq!(
            stderr(&out),
            format!(
                "rfc6570: refused by path safety: variable `{variable}` of `{template}` holds a `..` path segment\n"
            )
        );
    }
}

/// A URI's fault is pointed at with a caret, as a template's is; a long URI is quoted around
/// it.
#[test]
fn uri_errors_have_a_caret() {
    let out = run(&["match", "x://{+rest}", "x://a b"]);
    assert_eq!(
        stderr(&out),
        "rfc6570: malformed URI at byte 5: a space (0x20) cannot stand in a URI; percent-encode it as %20\n  x://a b\n       ^\n"
    );
    let long = format!("x://{}%ZZ{}", "a".repeat(100), "b".repeat(100));
    let out = run(&["match", "x://{+rest}", &long]);
    assert_eq!(
        stderr(&out),
        format!(
            "rfc6570: malformed URI at byte 104: `%` not followed by two hex digits\n  \u{2026}{}%ZZ{}\u{2026}\n  {}^\n",
            "a".repeat(40),
            "b".repeat(37),
            " ".repeat(41)
        )
    );
}

/// A URI over the length limit, whose limit falls inside a character: the caret goes under that
/// character, and nothing panics.
#[test]
fn a_caret_inside_a_character_goes_under_it() {
    let uri = format!("x://{}", "\u{20ac}".repeat(11_000));
    let out = run(&["match", "x://{+rest}", &uri]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!(
            "rfc6570: malformed URI at byte 32768: longer than 32768 bytes\n  \u{2026}{}\u{2026}\n  {}^\n",
            "\u{20ac}".repeat(80),
            " ".repeat(41)
        )
    );
}

/// A template that matching refuses for no lint (too many variables) fails its check too.
#[test]
fn check_fails_a_template_of_too_many_variables() {
    let names: Vec<String> = (0..70).map(|i| format!("{{v{i}}}")).collect();
    let template = format!("x://{}", names.join("/"));
    let out = run(&["check", &template]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        format!(
            "error: `{template}` cannot be matched: it has too many variables to match with a \
             small cost per byte\n"
        )
    );
    let out = run(&["check", "--json", &template]);
    let line = &json_lines(&out)[0];
    assert_eq!(line["matchable"], false);
    assert_eq!(line["refusal"]["code"], "too_many_variables");
}

/// A template that matching refuses fails its check with an error line per refusing lint,
/// not `ok:` and a warning.
#[test]
fn check_fails_a_template_that_cannot_be_matched() {
    let out = run(&["check", "{?a}{?b}"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "error: `{?b}` at byte 4 follows another query expression and writes a second `?` \
         inside the query, so the template cannot be matched; write it as `{&..}`\n  {?a}{?b}\n      ^\n"
    );
    let out = run(&["check", "--json", "{?a}{?b}"]);
    assert_eq!(out.status.code(), Some(1));
    let line = &json_lines(&out)[0];
    assert_eq!(
        (&line["valid"], &line["matchable"]),
        (&json!(true), &json!(false))
    );
    assert_eq!(line["refusal"]["code"], "query_after_query");
    assert_eq!(line["lints"][0]["refuses"], true);
}

/// Two modifiers on one variable are named for what they are; a template over the length
/// limit is quoted in part.
#[test]
fn check_messages_say_what_is_wrong() {
    let out = run(&["check", "{x*:3}"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "error: a variable cannot have both a prefix (`:N`) and an explode (`*`) modifier at \
         byte 3\n  {x*:3}\n     ^\n"
    );
    let huge = format!("x://{}", "a".repeat(120_000));
    let out = run(&["check", &huge]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        format!(
            "error: template longer than 65536 bytes in \"x://{}\u{2026}\"\n",
            "a".repeat(36)
        )
    );
    let out = run(&["match", &huge, "x://a"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "rfc6570: invalid template: template longer than 65536 bytes in \"x://{}\u{2026}\"\n",
            "a".repeat(36)
        )
    );
}

/// The README's command-line session, run as shown.
#[test]
fn readme_examples_run_as_shown() {
    let readme = include_str!("../../README.md");
    let section = readme.split("## Command line").nth(1).unwrap();
    let block = section.split("```sh\n").nth(1).unwrap();
    let block = block.split("```").next().unwrap();
    let help: String = std::iter::once("Examples:\n".to_owned())
        .chain(block.lines().map(|l| format!("  {l}\n")))
        .collect();
    let examples = examples(&help);
    assert_eq!(examples.len(), 3);
    run_examples("readme", &examples);
}

/// A refusal's message carries its reason, which the library keeps in `source()`.
#[test]
fn messages_carry_the_reason_behind_a_refusal() {
    let out = run(&["match", "x{&a}{?b}", "x"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out).trim(),
        "rfc6570: the template cannot be matched: at byte 5, its query tail has a `{?..}` \
         expression after another one, which writes `?` inside the query (use `{&..}` there)"
    );
}

#[test]
fn strict_encoding_refuses_raw_sub_delimiters() {
    let lenient = run(&["match", "docs://{name}", "docs://a+b.txt"]);
    assert!(lenient.status.success());
    assert_eq!(
        String::from_utf8_lossy(&lenient.stdout),
        "{\"name\":\"a+b.txt\"}\n"
    );
    let strict = run(&[
        "match",
        "--strict-encoding",
        "docs://{name}",
        "docs://a+b.txt",
    ]);
    assert_eq!(strict.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&strict.stderr),
        "rfc6570: the URI does not match the template\n"
    );
}
