//! The command line: exit status 2 with the reason when the server cannot be probed, one
//! read for a reproduction, and help with examples.

use crate::common::{example, run};

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn a_command_that_does_not_start_exits_2_with_the_reason() {
    let out = run(&["--", "/no/such/server", "--stdio"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("cannot start `/no/such/server --stdio`"),
        "{err}"
    );
}

#[test]
fn a_server_that_exits_at_once_exits_2_with_its_status() {
    let out = run(&["--", "sh", "-c", "echo 'no MCP here' >&2; exit 3"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("the handshake failed"), "{err}");
    assert!(
        err.contains("exit status: 3") && err.contains("no MCP here"),
        "{err}"
    );
}

#[test]
fn https_and_both_targets_are_refused_before_any_connection() {
    let out = run(&["https://example.com/mcp"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("only http:// endpoints"),
        "{}",
        stderr(&out)
    );
    let out = run(&["http://127.0.0.1:9/mcp", "--", "true"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not both"), "{}", stderr(&out));
}

#[test]
fn read_prints_one_answer_as_json() {
    let bin = example("mcp_server");
    let out = run(&[
        "--read",
        "rfc6570-probe-missing://x",
        "--",
        bin.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["uri"], "rfc6570-probe-missing://x");
    assert_eq!(answer["answer"]["error"]["code"], -32602);
}

#[test]
fn help_shows_both_forms_examples_and_the_exit_status() {
    let out = run(&["--help"]);
    let help = String::from_utf8_lossy(&out.stdout);
    for wanted in [
        "rfc6570-probe [OPTIONS] -- COMMAND [ARGS...]",
        "rfc6570-probe [OPTIONS] URL",
        "--sarif probe.sarif",
        "--fail-on",
        "Exit status: 0",
    ] {
        assert!(help.contains(wanted), "{wanted:?} not in:\n{help}");
    }
}
