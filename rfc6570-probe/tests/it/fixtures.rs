//! Fixture servers on the official SDKs, each with a planted fault and a fixed twin: the fault
//! is found with its kind and its template, and the twin gives nothing at medium or above.
//!
//! They need the pinned SDKs, which `.ci/probe` installs: `PROBE_PYTHON` names a Python with
//! `rfc6570-probe/fixtures/python/requirements.txt` installed, and `PROBE_NODE` a Node.js for
//! which `npm ci` has run in `rfc6570-probe/fixtures/typescript`. Without them each test says
//! so and passes, unless `PROBE_FIXTURES_REQUIRED=1` (as `.ci/probe` sets it), where that is a
//! failure.

use crate::common::{Probed, fixtures, one_at_a_time, probe};

/// The interpreter named by `var`, or `None` (with the reason) where the tests may skip.
fn runtime(var: &str) -> Option<String> {
    match std::env::var(var) {
        Ok(path) if !path.is_empty() => Some(path),
        _ if std::env::var("PROBE_FIXTURES_REQUIRED").as_deref() == Ok("1") => {
            panic!("{var} is not set, and PROBE_FIXTURES_REQUIRED=1: run .ci/probe")
        }
        _ => {
            eprintln!("skipped: {var} is not set (.ci/probe installs the pinned SDKs and sets it)");
            None
        }
    }
}

fn python(script: &str, variant: &str) -> Option<Probed> {
    let python = runtime("PROBE_PYTHON")?;
    let script = fixtures().join("python").join(script);
    let _one = one_at_a_time();
    Some(probe(&["--", &python, script.to_str().unwrap(), variant]))
}

fn typescript(variant: &str) -> Option<Probed> {
    typescript_with(&[], variant)
}

fn typescript_with(options: &[&str], variant: &str) -> Option<Probed> {
    let node = runtime("PROBE_NODE")?;
    let script = fixtures().join("typescript").join("server.mjs");
    let _one = one_at_a_time();
    Some(probe(
        &[options, &["--", &node, script.to_str().unwrap(), variant]].concat(),
    ))
}

/// The fault is found, as `kind` in `template`, with a detail that says `detail`, and the
/// exit status says so.
fn found(probed: &Probed, kind: &str, template: &str, detail: &str) {
    let hits = probed.findings(kind, template);
    assert!(
        hits.iter()
            .any(|f| f["detail"].as_str().unwrap().contains(detail)),
        "no {kind} in {template} saying {detail:?}; findings: {:#}\n{}",
        probed.report["findings"],
        probed.stderr
    );
    assert_eq!(probed.status, 1);
    // Each finding is reproducible: the exact URI, and SARIF carries it too.
    let uri = hits[0]["uri"].as_str().unwrap();
    let results = probed.sarif["runs"][0]["results"].as_array().unwrap();
    assert!(
        results
            .iter()
            .any(|r| r["ruleId"] == kind && r["properties"]["uri"] == uri)
    );
}

/// The fixed twin: nothing at medium or above, exit status 0.
fn clean(probed: &Probed) {
    assert!(probed.serious().is_empty(), "{:#?}", probed.serious());
    assert_eq!(probed.status, 0, "{}", probed.stderr);
    assert!(probed.report["requests"].as_u64().unwrap() > 300);
}

#[test]
fn python_sdk_naive_join_escapes_to_system_files_planted_canaries_and_named_ones() {
    let Some(python) = runtime("PROBE_PYTHON") else {
        return;
    };
    let secret = tempfile::tempdir().unwrap();
    let canary = secret.path().join("id_ed25519");
    std::fs::write(
        &canary,
        "-----BEGIN OPENSSH PRIVATE KEY----- probe-test-key\n",
    )
    .unwrap();
    let script = fixtures().join("python").join("sdk_server.py");
    let p = {
        let _one = one_at_a_time();
        let canary = canary.to_str().unwrap();
        probe(&[
            "--canary",
            canary,
            "--",
            &python,
            script.to_str().unwrap(),
            "naive-join",
        ])
    };
    found(
        &p,
        "escape",
        "file:///{+path}",
        "the first line of /etc/passwd",
    );
    found(
        &p,
        "escape",
        "file:///{+path}",
        "two folders above the server's working directory",
    );
    found(
        &p,
        "escape",
        "file:///{+path}",
        &format!("the canary {}", canary.display()),
    );
}

#[test]
fn python_sdk_prefix_check_without_separator_escapes_to_a_sibling() {
    let Some(p) = python("sdk_server.py", "prefix-check") else {
        return;
    };
    found(
        &p,
        "escape",
        "file:///{+path}",
        "in a folder whose name extends its name",
    );
    assert!(
        p.findings("escape", "file:///{+path}")
            .iter()
            .all(|f| { f["detail"].as_str().unwrap().contains("cwd-private") })
    );
}

#[test]
fn python_sdk_missing_resource_is_an_internal_error() {
    let Some(p) = python("sdk_server.py", "missing-internal") else {
        return;
    };
    found(
        &p,
        "internal_error",
        "notes://{id}",
        "internal error (-32603",
    );
}

#[test]
fn python_sdk_fixed_twin_is_clean() {
    let Some(p) = python("sdk_server.py", "fixed") else {
        return;
    };
    clean(&p);
}

#[test]
fn fastmcp_double_decoding_escapes() {
    let Some(p) = python("fastmcp_server.py", "double-decode") else {
        return;
    };
    found(
        &p,
        "escape",
        "file:///{path*}",
        "the first line of /etc/passwd",
    );
    // A `..` gets past the check only doubly encoded; the planted link, read without
    // resolving it, leads out in any spelling.
    let escapes = p.findings("escape", "file:///{path*}");
    let climbing = escapes
        .iter()
        .filter(|f| !f["case"].as_str().unwrap().starts_with("canary-link/"));
    assert!(climbing.clone().count() > 0);
    assert!(
        climbing
            .clone()
            .all(|f| f["uri"].as_str().unwrap().contains("%25")),
        "{escapes:#?}"
    );
}

#[test]
fn fastmcp_fixed_twin_is_clean() {
    let Some(p) = python("fastmcp_server.py", "fixed") else {
        return;
    };
    clean(&p);
}

#[test]
fn typescript_sdk_decoding_after_matching_escapes() {
    let Some(p) = typescript("decode-after-match") else {
        return;
    };
    found(
        &p,
        "escape",
        "docs://files/{name}",
        "the first line of /etc/passwd",
    );
}

#[test]
fn typescript_sdk_crash_on_a_bad_byte_is_pinned_on_its_request() {
    let Some(p) = typescript("crash-on-bad-byte") else {
        return;
    };
    found(
        &p,
        "crash",
        "docs://files/{name}",
        "URIError: URI malformed",
    );
    // The one-line reproduction crashes it again, and says so in its exit status.
    let uri = p.findings("crash", "docs://files/{name}")[0]["uri"]
        .as_str()
        .unwrap()
        .to_owned();
    let node = runtime("PROBE_NODE").unwrap();
    let script = fixtures().join("typescript").join("server.mjs");
    let script = script.to_str().unwrap();
    let out = crate::common::run(&["--read", &uri, "--", &node, script, "crash-on-bad-byte"]);
    assert_eq!(out.status.code(), Some(1));
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        answer["answer"]["failure"]
            .as_str()
            .unwrap()
            .contains("URIError"),
        "{answer}"
    );
}

#[test]
fn typescript_sdk_backtracking_regex_is_slow() {
    let Some(p) = typescript("backtracking") else {
        return;
    };
    found(&p, "slow", "search://docs{?q}", "the server's median");
}

#[test]
fn typescript_sdk_hang_is_found_and_bounded() {
    let Some(p) = typescript_with(&["--timeout", "1"], "hang-on-missing") else {
        return;
    };
    found(&p, "hang", "docs://files/{name}", "no answer within 1.0 s");
    // Three timeouts, and the template's other cases are left unsent, with the reason.
    let unsent = p.report["unsent"].to_string();
    assert!(
        unsent.contains("cases of docs://files/{name} were not sent"),
        "{unsent}"
    );
}

#[test]
fn a_server_without_the_resources_capability_exits_2() {
    let Some(node) = runtime("PROBE_NODE") else {
        return;
    };
    let script = fixtures().join("typescript").join("tools_only.mjs");
    let out = crate::common::run(&["--", &node, script.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("declares no resources capability"), "{err}");
}

#[test]
fn typescript_sdk_fixed_twin_is_clean() {
    let Some(p) = typescript("fixed") else { return };
    clean(&p);
}
