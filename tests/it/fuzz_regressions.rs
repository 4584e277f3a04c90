//! Replays every input in `tests/fuzz_regressions/<target>/` through the checks of the fuzz target of
//! that name (`tests/it/common/checks.rs`, the same code the targets run), on stable.
//!
//! A file is a JSON `Case`, and every one must pass: a finding is fixed, or its template is
//! refused for matching with a reason, before its file lands. The folder and each target's
//! subfolder must exist: a replay that finds nothing must not pass.

use crate::common::checks;

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

fn files(dir: &Path) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read regressions in {}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("directory entry").path())
        .collect();
    files.sort();
    files
}

/// The check's verdict, with a panic turned into a failure that says so.
fn replay(target: &str, case: &checks::Case) -> Result<(), String> {
    panic::catch_unwind(AssertUnwindSafe(|| checks::check(target, case))).unwrap_or_else(|p| {
        let msg = p
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| p.downcast_ref::<&str>().copied())
            .unwrap_or("(no message)");
        Err(format!("panicked: {msg}"))
    })
}

#[test]
fn every_fuzz_regression_replays() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    for dir in files(&root) {
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("");
        assert!(
            checks::TARGETS.contains(&name),
            "{}: no fuzz target of that name",
            dir.display()
        );
    }
    let (mut replayed, mut failures) = (0, Vec::new());
    for target in checks::TARGETS {
        let found = files(&root.join(target));
        assert!(!found.is_empty(), "no regressions for {target}");
        for path in found {
            replayed += 1;
            let text = std::fs::read_to_string(&path).expect("readable regression file");
            let case: checks::Case = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{}: not a case: {e}", path.display()));
            if let Err(why) = replay(target, &case) {
                failures.push(format!("{}: {why}", path.display()));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {replayed} regressions failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
