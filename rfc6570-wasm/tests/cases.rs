//! The cases of `cases.json`, run natively through the functions the WebAssembly module
//! exports. The npm package's tests run the same file through the module itself
//! (`npm/test/cases.test.mjs`), so the two cannot drift apart.

use rfc6570_wasm::{Routes, Template, io, is_template, safe_join};
use serde_json::{Value, json};

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

/// `case` with each `${name}` of its `let` replaced by that text repeated, in every string
/// and every key (as `withLets` in `npm/test/check.js`).
fn with_lets(case: &Value) -> Value {
    fn walk(value: &Value, texts: &[(String, String)]) -> Value {
        let text = |s: &str| {
            let replace = |s: String, (name, text): &(String, String)| s.replace(name, text);
            texts.iter().fold(s.to_owned(), replace)
        };
        match value {
            Value::String(s) => Value::String(text(s)),
            Value::Array(items) => items.iter().map(|v| walk(v, texts)).collect(),
            Value::Object(entries) => entries
                .iter()
                .map(|(k, v)| (text(k), walk(v, texts)))
                .collect(),
            other => other.clone(),
        }
    }
    let Some(lets) = case.get("let").and_then(Value::as_object) else {
        return case.clone();
    };
    let texts: Vec<(String, String)> = lets
        .iter()
        .map(|(name, let_)| {
            let times = let_[1].as_u64().expect("[text, times]") as usize;
            let text = let_[0].as_str().expect("[text, times]");
            (format!("${{{name}}}"), text.repeat(times))
        })
        .collect();
    walk(case, &texts)
}

/// Runs `check` on every case of `section`, and fails with every case that failed.
fn run(section: &str, check: impl Fn(&Value) -> Result<(), String>) {
    let cases = cases();
    let cases = cases[section].as_array().expect("a section is an array");
    let failed: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            check(&with_lets(case))
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

/// A router of the case's `templates`, inserted in order.
fn routes(case: &Value) -> Result<Routes, String> {
    let mut routes = Routes::new(case["pathSafety"].as_bool().unwrap_or(true));
    for t in case["templates"].as_array().into_iter().flatten() {
        routes.insert(t.as_str().unwrap_or_default())?;
    }
    Ok(routes)
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

/// `variables` as the package sends them (`src/values.rs`, and `encoded` in `npm/index.js`).
fn encoded(variables: &Value) -> String {
    fn text(text: &str) -> String {
        format!("{}\0{text}", text.encode_utf16().count())
    }
    fn scalar(value: &Value) -> String {
        match value {
            Value::Null => "u".into(),
            Value::String(s) => format!("s{}", text(s)),
            Value::Array(_) | Value::Object(_) => "n".into(),
            other => format!("s{}", text(&other.to_string())),
        }
    }
    let mut out = String::new();
    for (name, value) in variables.as_object().into_iter().flatten() {
        let value = match value {
            Value::Null => continue,
            Value::Array(items) => {
                let text: String = items.iter().map(scalar).collect();
                format!("l{}\0{text}", items.len())
            }
            Value::Object(entries) => {
                let text: String = entries.iter().map(|(k, v)| text(k) + &scalar(v)).collect();
                format!("m{}\0{text}", entries.len())
            }
            other => scalar(other),
        };
        out.push_str(&format!("{name}\0{value}"));
    }
    out
}

/// An expansion's answer: the URI as it is (not JSON), or the error (of the template's parse,
/// or of the expansion).
fn expanded(case: &Value) -> Result<Value, Value> {
    let expanded = template(case).and_then(|t| t.expand(&encoded(&case["variables"])));
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
        Some(variables) => template.expand(&encoded(variables)),
        None => Ok(str_of(case, "uri").to_owned()),
    }
}

#[test]
fn matching_decodes_and_refuses_as_rust_does() {
    run("match", |case| {
        let template = template(case)?;
        let uri = uri_of(case, &template)?;
        let start = std::time::Instant::now();
        let got = parsed(template.match_uri(&uri));
        let took = start.elapsed().as_millis();
        if let Some(within) = case["withinMs"].as_u64() {
            (took <= u128::from(within))
                .then_some(())
                .ok_or(format!("took {took} ms"))?;
        }
        match (&got, case.get("error")) {
            (Ok(variables), None) if *variables == case["expected"] => Ok(()),
            (Err(error), Some(expected)) if error_is(error, expected) => Ok(()),
            _ => Err(format!("got {got:?}")),
        }
    });
}

/// A match's variables as the package reads them from the buffers: spans of the URI or of
/// the text, by UTF-16 offsets, named by index; or the JSON's `variables`.
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
            let names: Vec<String> = serde_json::from_str(&template.names()).unwrap();
            let (uri, text): (Vec<u16>, Vec<u16>) =
                (uri.encode_utf16().collect(), text.encode_utf16().collect());
            let mut variables = serde_json::Map::new();
            for span in header[2..].chunks(3) {
                let (name, start, end) = (span[0] as usize, span[1], span[2] as usize);
                let (source, at) = match start & (1 << 31) {
                    0 => (&uri, (start & !(1 << 30)) as usize),
                    _ => (&text, (start & !(1 << 31)) as usize),
                };
                let mut value = String::from_utf16_lossy(&source[at..end]);
                if start & (1 << 30) != 0 {
                    value = decode_uri_component(&value);
                }
                variables.insert(names[name].clone(), Value::String(value));
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

/// What JavaScript's `decodeURIComponent` gives for text whose triplets decode to UTF-8, as
/// the package decodes a span whose start has bit 30 set.
fn decode_uri_component(text: &str) -> String {
    let (bytes, mut out) = (text.as_bytes(), Vec::new());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).expect("ASCII");
            out.push(u8::from_str_radix(hex, 16).expect("a triplet"));
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).expect("decodeURIComponent throws on text that is not UTF-8")
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

#[test]
fn expansion_through_the_buffers_answers_as_the_string_call_does() {
    run("expand", |case| {
        let Ok(template) = template(case) else {
            return Ok(());
        };
        let text = encoded(&case["variables"]);
        let through_buffers = io::read(template.expand_input(io::put(&text)));
        let by_string = template.expand(&text);
        let through_buffers = through_buffers.map(|answer| answer.map(|(uri, _)| uri));
        (through_buffers == Some(by_string.clone()))
            .then_some(())
            .ok_or(format!("{through_buffers:?} against {by_string:?}"))
    });
}

#[test]
fn input_longer_than_the_buffer_holds_is_refused_not_read_short() {
    let template = Template::new("{x}", true).unwrap();
    let written = io::put("abc");
    let Some(Err(error)) = io::read(template.match_input(written + 1)) else {
        panic!("a length past the buffer was answered");
    };
    let error: Value = serde_json::from_str(&error).unwrap();
    assert_eq!(error["kind"], "input_lost", "{error}");
    let again = io::read(template.match_input(io::put("abc")));
    assert!(
        matches!(again, Some(Ok(_))),
        "the next call is answered: {again:?}"
    );
}

#[test]
fn variables_that_do_not_parse_are_refused() {
    let template = Template::new("{a}{b}", true).unwrap();
    let malformed = [
        "a",
        "a\0",
        "a\0x",
        "a\0s",
        "a\0s4\0abc",
        "a\0s1\0😀",
        "a\0l2\0s1\0x",
        "a\0l\0",
        "a\0m1\0s1\0x",
        "a\0m1\x001\0k",
        "a\0l99999999999999999999\0",
    ];
    for text in malformed {
        let error = template.expand(text).unwrap_err();
        assert!(error.contains(r#""kind":"variables""#), "{text:?}: {error}");
    }
    let fine = "a\0s2\0é!b\0l3\0s1\0xus0\0";
    assert_eq!(template.expand(fine).as_deref(), Ok("%C3%A9%21x,"));
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
        let routes = routes(case)?;
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
fn a_router_explains_what_it_refused() {
    run("explainRoute", |case| {
        let routes = routes(case)?;
        match (
            parsed(routes.explain(str_of(case, "uri"))),
            case.get("error"),
        ) {
            (Ok(found), None) => {
                let found = json!({"template": found["template"], "variables": found["variables"]});
                (found == case["expected"])
                    .then_some(())
                    .ok_or(format!("got {found}"))
            }
            (Err(error), Some(expected)) if error_is(&error, expected) => Ok(()),
            other => Err(format!("got {other:?}")),
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
