//! The summary on the terminal: the inventory's checks, then the findings grouped by severity,
//! each with its template, exact URI and a one-line reproduction.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::Report;
use crate::finding::{Finding, Kind, Severity};

/// Findings shown per kind and template; the JSON report has them all.
const SHOWN: usize = 3;

/// Prints the summary to stderr (stdout may carry a report), in color when `color`.
pub fn print_summary(report: &Report, color: bool, quiet: bool) {
    eprint!("{}", summary(report, color, quiet));
}

fn summary(report: &Report, color: bool, quiet: bool) -> String {
    let mut out = String::new();
    let paint = |code: &str, text: &str| {
        if color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    };
    let _ = writeln!(
        out,
        "{} {} (revision {})",
        paint("1", "probed"),
        report.server,
        report.revision
    );
    if !quiet {
        for check in &report.inventory.checks {
            let _ = writeln!(out, "  {check}");
        }
        for t in &report.inventory.templates {
            let state = match (&t.error, t.lints.is_empty()) {
                (Some(e), _) => format!("does not parse: {e}"),
                (None, true) => "parses".into(),
                (None, false) => format!("parses, with lints: {}", t.lints.join("; ")),
            };
            let _ = writeln!(out, "  template {}: {state}", t.template);
        }
    }
    let _ = writeln!(
        out,
        "  {} requests in {:.1} s, median answer {:.1} ms",
        report.requests,
        report.elapsed_ms as f64 / 1000.0,
        report.median_us as f64 / 1000.0
    );
    for why in &report.unsent {
        let _ = writeln!(out, "  {} {why}", paint("33", "not sent:"));
    }
    if report.findings.is_empty() {
        let _ = writeln!(out, "{}", paint("32", "no findings"));
        return out;
    }
    for severity in [Severity::High, Severity::Medium, Severity::Low] {
        let of: Vec<&Finding> = report
            .findings
            .iter()
            .filter(|f| f.severity == severity)
            .collect();
        if of.is_empty() {
            continue;
        }
        let code = match severity {
            Severity::High => "1;31",
            Severity::Medium => "1;33",
            Severity::Low => "1;36",
        };
        let _ = writeln!(
            out,
            "\n{} ({})",
            paint(code, &severity.to_string().to_uppercase()),
            of.len()
        );
        let mut groups: BTreeMap<(Kind, Option<&str>), Vec<&Finding>> = BTreeMap::new();
        for f in of {
            groups
                .entry((f.kind, f.template.as_deref()))
                .or_default()
                .push(f);
        }
        for ((kind, template), findings) in groups {
            let place = template.map(|t| format!(" in {t}")).unwrap_or_default();
            let _ = writeln!(
                out,
                "  {}{place}: {}",
                paint("1", kind.as_str()),
                kind.description()
            );
            for f in findings.iter().take(SHOWN) {
                let _ = writeln!(out, "    - {}", f.detail);
                if let Some(uri) = &f.uri {
                    let _ = writeln!(out, "      uri: {}", uri.escape_debug());
                    let _ = writeln!(out, "      reproduce: {}", report.reproduction(uri));
                }
            }
            if findings.len() > SHOWN {
                let _ = writeln!(
                    out,
                    "    … and {} more (the JSON report has them all)",
                    findings.len() - SHOWN
                );
            }
        }
    }
    out
}
