//! Running the probe and reading its report.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard};

use serde_json::Value;

/// One probe at a time: timing oracles (a slow answer) must not see another probe's load.
pub fn one_at_a_time() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// What a probe came to: its exit status, its JSON report, its SARIF log and its stderr.
pub struct Probed {
    pub status: i32,
    pub report: Value,
    pub sarif: Value,
    pub stderr: String,
}

impl Probed {
    /// The findings of `kind` in `template`.
    pub fn findings(&self, kind: &str, template: &str) -> Vec<&Value> {
        self.report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["kind"] == kind && f["template"] == template)
            .collect()
    }

    /// The findings at medium or above, in one line each (for a failure's message).
    pub fn serious(&self) -> Vec<String> {
        self.report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["severity"] != "low")
            .map(|f| {
                format!(
                    "{} {} {} {}",
                    f["kind"], f["template"], f["uri"], f["detail"]
                )
            })
            .collect()
    }
}

/// Runs `rfc6570-probe args...` with a JSON report and a SARIF log in a fresh folder.
pub fn probe(args: &[&str]) -> Probed {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("report.json");
    let sarif = dir.path().join("report.sarif");
    let output = run(&[
        &[
            "--json",
            json.to_str().unwrap(),
            "--sarif",
            sarif.to_str().unwrap(),
            "--quiet",
        ],
        args,
    ]
    .concat());
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let read = |path: &Path| -> Value {
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("no report at {} ({e}); stderr:\n{stderr}", path.display()));
        serde_json::from_str(&text).unwrap()
    };
    Probed {
        status: output.status.code().unwrap_or(-1),
        report: read(&json),
        sarif: read(&sarif),
        stderr: stderr.clone(),
    }
}

/// Runs the probe's binary with `args`.
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rfc6570-probe"))
        .args(args)
        .output()
        .expect("run rfc6570-probe")
}

/// The binary of the rfc6570-rmcp example `name`, built if `cargo test` has not built it.
pub fn example(name: &str) -> PathBuf {
    let mut bin = std::env::current_exe().unwrap(); // target/<profile>/deps/it-<hash>
    bin.pop();
    bin.pop();
    bin.push("examples");
    bin.push(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    if !bin.exists() {
        let mut build = Command::new(env!("CARGO"));
        build.args(["build", "-p", "rfc6570-rmcp", "--example", name]);
        if !cfg!(debug_assertions) {
            build.arg("--release");
        }
        assert!(
            build.status().expect("run cargo build").success(),
            "cargo build --example {name}"
        );
    }
    bin
}

/// The repository's `rfc6570-probe/fixtures` folder.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}
