//! Our own example servers, built on rfc6570-rmcp: no finding at medium or above.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use crate::common::{example, one_at_a_time, probe};

#[test]
fn the_stdio_example_gives_no_finding_at_medium_or_above() {
    let _one = one_at_a_time();
    let bin = example("mcp_server");
    let probed = probe(&["--", bin.to_str().unwrap()]);
    assert_eq!(
        probed.status,
        0,
        "{:#?}\n{}",
        probed.serious(),
        probed.stderr
    );
    assert!(probed.serious().is_empty(), "{:#?}", probed.serious());
    let report = &probed.report;
    assert_eq!(report["revision"], "2026-07-28");
    assert_eq!(
        report["templates"],
        serde_json::json!([
            "notes://{id}",
            "log://build/{job_id}{?lines}",
            "search://docs{?q,lang}",
            "file:///{+path}"
        ])
    );
    assert!(
        report["requests"].as_u64().unwrap() > 2_000,
        "{}",
        report["requests"]
    );
    assert_eq!(
        report["inventory"]["reads"],
        report["inventory"]["reads_as_listed"]
    );
    assert!(
        report["findings"].as_array().unwrap().is_empty(),
        "{:#}",
        report["findings"]
    );
    let run = &probed.sarif["runs"][0];
    assert_eq!(run["results"].as_array().unwrap().len(), 0);
    assert_eq!(run["tool"]["driver"]["name"], "rfc6570-probe");
}

#[test]
fn the_http_example_gives_no_finding_at_medium_or_above() {
    let _one = one_at_a_time();
    let mut server = Command::new(example("http_server"))
        .env("MCP_HTTP_ADDR", "127.0.0.1:0")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(server.stderr.take().unwrap()).lines();
    let url = lines
        .by_ref()
        .take(20)
        .map_while(Result::ok)
        .find_map(|l| {
            l.split(" at ")
                .nth(1)
                .and_then(|u| u.split(';').next())
                .map(str::to_owned)
        })
        .expect("the server says where it serves");
    let probed = probe(&["--header", "X-Probe: test", &url]);
    let _ = server.kill();
    let _ = server.wait();
    assert_eq!(
        probed.status,
        0,
        "{:#?}\n{}",
        probed.serious(),
        probed.stderr
    );
    assert_eq!(probed.report["server"], url.as_str());
    assert_eq!(probed.report["templates"].as_array().unwrap().len(), 4);
    assert!(
        probed.report["findings"].as_array().unwrap().is_empty(),
        "{:#}",
        probed.report["findings"]
    );
}

#[test]
fn a_forced_legacy_revision_is_spoken_and_judged_by_its_own_codes() {
    let _one = one_at_a_time();
    let bin = example("mcp_server");
    let probed = probe(&["--revision", "2025-11-25", "--", bin.to_str().unwrap()]);
    assert_eq!(probed.report["revision"], "2025-11-25");
    // The made-up URI answers -32002 there, as the revision wants: no finding.
    assert!(
        probed.report["findings"].as_array().unwrap().is_empty(),
        "{:#}",
        probed.report["findings"]
    );
    assert_eq!(probed.status, 0);
}

#[test]
fn the_request_bound_holds_and_says_what_it_left_unsent() {
    let _one = one_at_a_time();
    let bin = example("mcp_server");
    let probed = probe(&["--max-requests", "60", "--", bin.to_str().unwrap()]);
    let requests = probed.report["requests"].as_u64().unwrap();
    assert!(requests <= 60, "{requests} requests");
    let unsent = probed.report["unsent"].to_string();
    assert!(
        unsent.contains("the request bound (--max-requests 60) was reached"),
        "{unsent}"
    );
    assert!(unsent.contains("cases were not sent"), "{unsent}");
    assert_eq!(probed.status, 0);
}
