//! Loading the public test suites in `tests/data/` (see its README). A missing file fails the
//! test with its path: a suite that cannot be read must never pass on nothing.

#![allow(dead_code)]

#[cfg(feature = "testing")]
pub mod checks;
pub mod oracle;
pub mod walk_strategies;

use std::path::PathBuf;

use serde_json::Value;

/// The path of a test data file, relative to `tests/data/`.
pub fn testdata(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

pub fn load(rel: &str) -> Value {
    let path = testdata(rel);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read test data {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("bad JSON in {}: {e}", path.display()))
}

/// One expansion case of the uritemplate-test format.
pub struct Case {
    pub file: &'static str,
    pub group: String,
    pub variables: Value,
    pub template: String,
    /// Acceptable expansions; empty for a negative case.
    pub expected: Vec<String>,
}

pub const EXPANSION_SUITES: [&str; 5] = [
    "uritemplate-test/spec-examples.json",
    "uritemplate-test/spec-examples-by-section.json",
    "uritemplate-test/extended-tests.json",
    "uritemplate-test/negative-tests.json",
    "std-uritemplate/edge-cases.json",
];

pub fn expansion_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for file in EXPANSION_SUITES {
        let suite = load(file);
        for (group, body) in suite.as_object().expect("suite is an object") {
            let variables = body["variables"].clone();
            for case in body["testcases"].as_array().expect("testcases") {
                let template = case[0].as_str().expect("template").to_owned();
                let expected = match &case[1] {
                    Value::String(s) => vec![s.clone()],
                    Value::Array(list) => list
                        .iter()
                        .map(|v| v.as_str().expect("string").to_owned())
                        .collect(),
                    Value::Bool(false) => Vec::new(),
                    other => panic!("unexpected expectation {other}"),
                };
                cases.push(Case {
                    file,
                    group: group.clone(),
                    variables: variables.clone(),
                    template,
                    expected,
                });
            }
        }
    }
    cases
}
