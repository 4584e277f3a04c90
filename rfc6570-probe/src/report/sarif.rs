//! The report as a SARIF 2.1.0 log, for code scanning: one rule per kind of finding, one result
//! per finding, at the level of its severity, pointing at the server's script when the probe
//! started one.

use serde_json::{Value, json};

use super::Report;
use crate::finding::{Finding, Kind, Severity};

/// SARIF's level for a severity.
fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::High => "error",
        Severity::Medium => "warning",
        Severity::Low => "note",
    }
}

/// The score code scanning ranks security results by (0 to 10).
fn security_severity(severity: Severity) -> &'static str {
    match severity {
        Severity::High => "8.0",
        Severity::Medium => "5.0",
        Severity::Low => "2.0",
    }
}

pub fn log(report: &Report) -> Value {
    let rules: Vec<Value> = Kind::ALL.iter().map(|&k| rule(k)).collect();
    let results: Vec<Value> = report.findings.iter().map(|f| result(report, f)).collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "rfc6570-probe",
                    "version": report.probe,
                    "semanticVersion": report.probe,
                    "rules": rules,
                }
            },
            "invocations": [{
                "executionSuccessful": true,
                "commandLine": report.server,
            }],
            "results": results,
            "properties": {
                "server": report.server,
                "revision": report.revision,
                "requests": report.requests,
                "templates": report.templates,
            },
        }],
    })
}

fn rule(kind: Kind) -> Value {
    let severity = kind.severity();
    json!({
        "id": kind.as_str(),
        "name": kind.as_str(),
        "shortDescription": { "text": kind.description() },
        "fullDescription": { "text": format!("{}. Severity {severity}.", kind.description()) },
        "defaultConfiguration": { "level": level(severity) },
        "properties": {
            "security-severity": security_severity(severity),
            "tags": ["security", "mcp"],
        },
    })
}

fn result(report: &Report, f: &Finding) -> Value {
    let mut text = f.detail.clone();
    if let Some(uri) = &f.uri {
        text.push_str(&format!(
            ". URI: {}. Reproduce: {}",
            uri.escape_debug(),
            report.reproduction(uri)
        ));
    }
    let artifact = report
        .artifact
        .clone()
        .unwrap_or_else(|| report.server.clone());
    let mut location = json!({
        "physicalLocation": { "artifactLocation": { "uri": artifact } },
    });
    if let Some(template) = &f.template {
        location["logicalLocations"] = json!([{ "name": template, "kind": "resource" }]);
    }
    let fingerprint = fnv1a(&format!(
        "{}|{}|{}",
        f.kind,
        f.template.as_deref().unwrap_or_default(),
        f.case.as_deref().unwrap_or(&f.detail)
    ));
    json!({
        "ruleId": f.kind.as_str(),
        "ruleIndex": Kind::ALL.iter().position(|&k| k == f.kind),
        "level": level(f.severity),
        "message": { "text": text },
        "locations": [location],
        "partialFingerprints": { "rfc6570-probe/v1": format!("{fingerprint:016x}") },
        "properties": {
            "severity": f.severity,
            "template": f.template,
            "uri": f.uri,
            "case": f.case,
        },
    })
}

/// FNV-1a, 64 bits: a fingerprint that stays the same from one build to the next.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::Inventory;

    #[test]
    fn one_rule_per_kind_and_one_result_per_finding() {
        let report = Report {
            server: "python server.py".into(),
            revision: "2026-07-28".into(),
            templates: vec!["file:///{+path}".into()],
            requests: 3,
            findings: vec![
                Finding::new(
                    Kind::Escape,
                    "the answer holds the first line of /etc/passwd",
                )
                .template("file:///{+path}")
                .uri("file:///..%2Fetc%2Fpasswd")
                .case("climb-passwd/expanded/path"),
            ],
            inventory: Inventory::default(),
            unsent: vec![],
            elapsed_ms: 1,
            median_us: 1,
            probe: "0.1.0".into(),
            reproduce: " -- python server.py".into(),
            artifact: Some("server.py".into()),
        };
        let log = log(&report);
        assert_eq!(log["version"], "2.1.0");
        let run = &log["runs"][0];
        assert_eq!(run["tool"]["driver"]["rules"].as_array().unwrap().len(), 7);
        let result = &run["results"][0];
        assert_eq!(result["ruleId"], "escape");
        assert_eq!(result["ruleIndex"], 0);
        assert_eq!(result["level"], "error");
        assert_eq!(
            result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "server.py"
        );
        assert!(result["message"]["text"].as_str().unwrap().contains(
            "Reproduce: rfc6570-probe --read file:///..%2Fetc%2Fpasswd -- python server.py"
        ));
        assert_eq!(fnv1a("a"), 0xaf63_dc4c_8601_ec8c);
    }
}
