//! Other implementations' own matching tests (`tests/data/peers/`): every case agrees with
//! this crate, or is a choice listed in `tests/data/peers/choices.json` with its reason, whose
//! code the semantics document explains (section 16). A case that starts to disagree, or one
//! listed that agrees again, fails here, so the list is always the whole truth.
//!
//! Agreement is read as each peer's test means it: a `name:N` key (how yosida95/uritemplate
//! and rize/UriTemplate report a prefix) is the first N characters of `name`'s value; numbers
//! (rize/UriTemplate compares loosely) are their text; `null` or `""` is a variable left
//! undefined; a peer that raises a security error expects the refusal of a router with path
//! safety, where the others expect `match_uri`'s answer.

use std::collections::BTreeMap;

use rfc6570::{Router, UriTemplate};
use serde_json::{Map, Value};

use super::common::load;

/// A case's verdict: `None` where this crate agrees, else what it answers.
fn disagreement(case: &Value) -> Option<String> {
    let (template, uri) = (text(&case["template"]), text(&case["uri"]));
    let expected = &case["expected"];
    let Ok(t) = UriTemplate::parse(template) else {
        return (!expected.is_null()).then(|| "the template does not parse".into());
    };
    let security = case["note"].as_str().is_some_and(|n| n.contains("ERROR:"));
    if security {
        let mut router = Router::new();
        if router.insert(template, ()).is_err() {
            return None;
        }
        return match router.at(uri) {
            Err(_) => None,
            Ok(routed) => Some(format!("routed {}", json(&routed.captures))),
        };
    }
    let ours = match (t.match_uri(uri), expected) {
        (Err(_), Value::Null) => return None,
        (Ok(caps), Value::Null) => return Some(format!("matched {}", json(&caps))),
        (Err(e), _) => return Some(format!("refused: {e}")),
        (Ok(caps), _) => serde_json::to_value(&caps).unwrap(),
    };
    let ours = ours.as_object().expect("captures are a map");
    let Some(expected) = expected.as_object() else {
        return Some(format!("expected {expected}"));
    };
    agrees(ours, expected)
        .err()
        .map(|why| format!("matched {}: {why}", Value::Object(ours.clone())))
}

/// Whether the captures give what the peer expects, read as the module says.
fn agrees(ours: &Map<String, Value>, expected: &Map<String, Value>) -> Result<(), String> {
    for (key, want) in expected {
        let want = as_text(want);
        let (name, prefix) = match key.rsplit_once(':') {
            Some((name, n)) if n.parse::<usize>().is_ok() => (name, n.parse::<usize>().ok()),
            _ => (key.as_str(), None),
        };
        let got = ours.get(name).cloned();
        let got = match (prefix, got) {
            (Some(n), Some(Value::String(s))) => Some(Value::String(s.chars().take(n).collect())),
            (_, got) => got,
        };
        let empty = |v: &Value| v.is_null() || v == &Value::String(String::new());
        match got {
            None if empty(&want) => {}
            Some(got) if got == want || empty(&got) && empty(&want) => {}
            got => return Err(format!("`{key}` is {got:?}, not {want}")),
        }
    }
    let named = |k: &str| {
        expected
            .keys()
            .any(|e| e == k || e.rsplit_once(':').is_some_and(|(n, _)| n == k))
    };
    match ours.iter().find(|(k, v)| !named(k) && *v != "") {
        Some((k, v)) => Err(format!("`{k}` is {v}, which the peer does not give")),
        None => Ok(()),
    }
}

fn as_text(v: &Value) -> Value {
    match v {
        Value::Number(n) => Value::String(n.to_string()),
        Value::Bool(b) => Value::String(b.to_string()),
        Value::Array(a) => Value::Array(a.iter().map(as_text).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), as_text(v))).collect()),
        other => other.clone(),
    }
}

fn text(v: &Value) -> &str {
    v.as_str().expect("a string")
}

fn json(caps: &rfc6570::Captures<'_>) -> Value {
    serde_json::to_value(caps).unwrap()
}

/// A case's identity in the list of choices.
fn key(case: &Value) -> (String, String, String) {
    (
        text(&case["peer"]).to_owned(),
        text(&case["template"]).to_owned(),
        text(&case["uri"]).to_owned(),
    )
}

#[test]
fn every_peer_case_agrees_or_is_a_listed_choice() {
    let cases = load("peers/cases.json");
    let cases = cases.as_array().expect("a list of cases");
    let choices = load("peers/choices.json");
    let listed: BTreeMap<_, String> = choices
        .as_array()
        .expect("a list of choices")
        .iter()
        .map(|c| (key(c), text(&c["reason"]).to_owned()))
        .collect();
    let semantics = include_str!("../../src/semantics.md");
    let mut unlisted = Vec::new();
    let mut differing = BTreeMap::new();
    for case in cases {
        let Some(ours) = disagreement(case) else {
            continue;
        };
        differing.insert(key(case), ours.clone());
        match listed.get(&key(case)) {
            Some(reason) => assert!(
                semantics.contains(&format!("`{reason}`")),
                "reason `{reason}` is not in the semantics document"
            ),
            None => unlisted.push(format!("{:?}: {ours}", key(case))),
        }
    }
    let agreeing_again: Vec<_> = listed
        .keys()
        .filter(|k| !differing.contains_key(*k))
        .collect();
    assert!(
        unlisted.is_empty() && agreeing_again.is_empty(),
        "{} disagreements not listed as choices:\n{}\n{} listed that agree: {agreeing_again:?}",
        unlisted.len(),
        unlisted.join("\n"),
        agreeing_again.len(),
    );
    let agree = cases.len() - differing.len();
    println!("{agree} of {} peer cases agree", cases.len());
    assert!(agree >= 390, "only {agree} of {} agree", cases.len());
}
