//! The cases of `cases.json`, run natively through the functions the WebAssembly module
//! exports. The npm package's tests run the same file through the module itself
//! (`npm/test/cases.test.mjs`), so the two cannot drift apart.

use rfc6570_wasm::{io, is_template, safe_join, Routes, Template};
use serde_json::{json, Value};

fn cases() -> Value {
    let text = include_str!("cases.json");
    serde_json::from_str(text).expect("cases.json is JSON")
}

fn str_of<'a>(case: &'a Value, key: &str) -> &'a str {
    case[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} in {case}"))
}

/// An answer as the package gives it: the parsed result, or the error's JSON.
fn parsed(answer: Result<String, String>) -> Result<Value, Value> {
    match answer {
        Ok(text) => Ok(serde_json::from_str(&text).unwrap_or(Value::String(text))),
        Err(error) => Err(serde_json::from_str(&error).expect("errors are JSON")),
    }
}

/// Whether `error` has every field that `expected` names, with its value.
fn error_is(error: &Value, expected: &Value) -> bool {
    match expected {
        Value::String(kind) => error["kind"] == *kind,
        Value::Object(fields) => fields.iter().all(|(k, v)| error[k] == *v),
        _ => false,
    }
}

/// Runs `check` on every case of `section`, and fails with every case that failed.
fn run(section: &str, check: impl Fn(&Value) -> Result<(), String>) {
    let cases = cases();
    let cases = cases[section].as_array().expect("a section is an array");
    let failed: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            check(case)
                .err()
                .map(|why| format!("{}: {why}", case["name"]))
        })
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} failed:\n{}",
        failed.len(),
        cases.len(),
        failed.join("\n")
    );
    assert!(
        !cases.is_empty() || section == "explain",
        "no cases in {section}"
    );
}

fn template(case: &Value) -> Result<Template, String> {
    let path_safety = case["pathSafety"].as_bool().unwrap_or(true);
    Template::new(str_of(case, "template"), path_safety)
}

#[test]
fn templates_parse_or_fail_with_a_kind_and_a_position() {
    run("template", |case| {
        match (template(case), case.get("error")) {
            (Ok(_), None) => Ok(()),
            (Err(e), Some(expected)) => {
                let error: Value = serde_json::from_str(&e).map_err(|e| e.to_string())?;
                error_is(&error, expected)
                    .then_some(())
                    .ok_or(format!("got {error}"))
            }
            (Ok(_), Some(expected)) => Err(format!("parsed; expected {expected}")),
            (Err(e), None) => Err(format!("refused: {e}")),
        }
    });
}

#[test]
fn is_template_is_true_for_a_valid_template_with_an_expression() {
    run("isTemplate", |case| {
        let got = is_template(str_of(case, "input"));
        (json!(got) == case["expected"])
            .then_some(())
            .ok_or(format!("got {got}"))
    });
}

#[test]
fn variable_names_are_in_template_order() {
    run("variableNames", |case| {
        let names: Value =
            serde_json::from_str(&template(case)?.variable_names()).unwrap_or_default();
        (names == case["expected"])
            .then_some(())
            .ok_or(format!("got {names}"))
    });
}

/// An expansion's answer: the URI as it is (not JSON), or the error (of the template's parse,
/// or of the expansion).
fn expanded(case: &Value) -> Result<Value, Value> {
    let expanded = template(case).and_then(|t| t.expand(&case["variables"].to_string()));
    match expanded {
        Ok(uri) => Ok(Value::String(uri)),
        Err(error) => Err(serde_json::from_str(&error).expect("errors are JSON")),
    }
}

#[test]
fn expansion_is_rfc_6570() {
    run("expand", |case| {
        let got = expanded(case);
        match (&got, case.get("error")) {
            (Err(error), Some(expected)) if error_is(error, expected) => Ok(()),
            (Ok(Value::String(uri)), None) if *uri == case["expected"] => Ok(()),
            _ => Err(format!("got {got:?}")),
        }
    });
}

/// The URI a case matches: its own, or the expansion of its `roundTrip` variables.
fn uri_of(case: &Value, template: &Template) -> Result<String, String> {
    match case.get("roundTrip") {
        Some(variables) => template.expand(&variables.to_string()),
        None => Ok(str_of(case, "uri").to_owned()),
    }
}

#[test]
fn matching_decodes_and_refuses_as_rust_does() {
    run("match", |case| {
        let template = template(case)?;
        let got = parsed(template.match_uri(&uri_of(case, &template)?));
        match (&got, case.get("error")) {
            (Ok(variables), None) if *variables == case["expected"] => Ok(()),
            (Err(error), Some(expected)) if error_is(error, expected) => Ok(()),
            _ => Err(format!("got {got:?}")),
        }
    });
}

/// A match's variables as the package reads them from the buffers: pairs sliced by their
/// UTF-16 lengths, or the JSON's `variables`.
fn through_buffers(template: &Template, uri: &str) -> Value {
    let code = template.match_input(io::put(uri));
    match io::read(code) {
        None => Value::Null,
        Some(Err(error)) => json!({"error": error}),
        Some(Ok((text, header))) if header.is_empty() => {
            let answer: Value = serde_json::from_str(&text).unwrap_or_default();
            answer["variables"].clone()
        }
        Some(Ok((text, header))) => {
            let units: Vec<u16> = text.encode_utf16().collect();
            let mut at = 0;
            let mut slice = |len: u32| {
                let end = at + len as usize;
                let part = String::from_utf16_lossy(units.get(at..end).unwrap_or_default());
                at = end;
                part
            };
            let mut variables = serde_json::Map::new();
            for pair in header[2..].chunks(2) {
                let name = slice(pair[0]);
                variables.insert(name, Value::String(slice(pair[1])));
            }
            assert_eq!(
                variables.len(),
                header[0] as usize,
                "the count in the header"
            );
            Value::Object(variables)
        }
    }
}

#[test]
fn the_buffers_answer_as_the_string_calls_do() {
    run("match", |case| {
        let template = template(case)?;
        if case.get("error").is_some() {
            return Ok(());
        }
        let got = through_buffers(&template, &uri_of(case, &template)?);
        (got == case["expected"])
            .then_some(())
            .ok_or(format!("got {got}"))
    });
}

/// The variables of a case as the package sends string-only ones, or `None` for JSON.
fn as_pairs(variables: &Value) -> Option<String> {
    let mut text = String::new();
    for (name, value) in variables.as_object()? {
        match value {
            Value::Null => {}
            Value::String(value) => {
                let units = value.encode_utf16().count();
                text.push_str(&format!("{name}\0{units}\0{value}"));
            }
            _ => return None,
        }
    }
    Some(text)
}

#[test]
fn string_variables_expand_alike_as_pairs_and_as_json() {
    run("expand", |case| {
        let Some(pairs) = as_pairs(&case["variables"]) else {
            return Ok(());
        };
        let Ok(template) = template(case) else {
            return Ok(());
        };
        let by_pairs = io::read(template.expand_pairs(io::put(&pairs)));
        let by_json = template.expand(&case["variables"].to_string());
        let by_pairs = by_pairs.map(|answer| answer.map(|(uri, _)| uri));
        (by_pairs == Some(by_json.clone()))
            .then_some(())
            .ok_or(format!("{by_pairs:?} against {by_json:?}"))
    });
}

#[test]
fn pairs_that_do_not_parse_are_refused() {
    for text in ["a", "a\0", "a\0x\0", "a\x004\x00abc", "a\x001\x00😀"] {
        assert_eq!(io::pairs(text), None, "{text:?}");
    }
    assert_eq!(
        io::pairs("a\x002\x00é!b\x000\x00"),
        Some(vec![("a", "é!"), ("b", "")])
    );
}

#[test]
fn explain_names_the_rule_that_refused() {
    run("explain", |case| {
        let template = template(case)?;
        match parsed(template.explain(&uri_of(case, &template)?)) {
            Err(error) if error_is(&error, &case["error"]) => Ok(()),
            other => Err(format!("got {other:?}")),
        }
    });
}

#[test]
fn routes_pick_the_best_template() {
    run("route", |case| {
        let mut routes = Routes::new(case["pathSafety"].as_bool().unwrap_or(true));
        for t in case["templates"].as_array().into_iter().flatten() {
            routes.insert(t.as_str().unwrap_or_default())?;
        }
        let got = parsed(routes.at(str_of(case, "uri")));
        match (&got, case.get("error")) {
            (Ok(found), None) => {
                let found = json!({"template": found["template"], "variables": found["variables"]});
                let found = if got.as_ref().is_ok_and(Value::is_null) {
                    Value::Null
                } else {
                    found
                };
                (found == case["expected"])
                    .then_some(())
                    .ok_or(format!("got {found}"))
            }
            (Err(error), Some(expected)) if error_is(error, expected) => Ok(()),
            _ => Err(format!("got {got:?}")),
        }
    });
}

#[test]
fn safe_join_keeps_paths_inside_the_base() {
    run("safeJoin", |case| {
        let got = parsed(safe_join(str_of(case, "base"), str_of(case, "path")));
        match (&got, case.get("error")) {
            (Ok(Value::String(path)), None) if *path == case["expected"] => Ok(()),
            (Err(error), Some(expected)) if error_is(error, expected) => Ok(()),
            _ => Err(format!("got {got:?}")),
        }
    });
}
