//! The engine's errors as the Python exceptions of `rfc6570._errors`: each with the Rust
//! error's stable code as `kind`, and where known its position (as a `str` index, in code
//! points), the path-safety rule and the variable.

use pyo3::PyTypeInfo;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyType};
use rfc6570::safety::JoinError;
use rfc6570::template::Lint;
use rfc6570::{Error, InsertError, MatchError, RouteError};

pyo3::import_exception!(rfc6570._errors, InvalidUriTemplate);
pyo3::import_exception!(rfc6570._errors, UnsupportedTemplate);
pyo3::import_exception!(rfc6570._errors, ExpansionError);
pyo3::import_exception!(rfc6570._errors, NoMatch);
pyo3::import_exception!(rfc6570._errors, UnsafeJoin);

/// What an exception says besides its message.
#[derive(Default)]
struct Detail<'a> {
    kind: &'a str,
    position: Option<usize>,
    rule: Option<&'static str>,
    variable: Option<&'a str>,
}

/// An instance of `exception`, with `message`, `detail` and the `extra` keyword (the
/// template or the URI). If building it fails, that failure is what is raised.
fn build<'py>(
    exception: Bound<'py, PyType>,
    message: String,
    detail: &Detail<'_>,
    extra: Option<(&str, &str)>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = exception.py();
    let kwargs = PyDict::new(py);
    kwargs.set_item("kind", detail.kind)?;
    kwargs.set_item("position", detail.position)?;
    if let Some(rule) = detail.rule {
        kwargs.set_item("rule", rule)?;
    }
    if let Some(variable) = detail.variable {
        kwargs.set_item("variable", variable)?;
    }
    if let Some((key, value)) = extra {
        kwargs.set_item(key, value)?;
    }
    exception.call((message,), Some(&kwargs))
}

/// `exception`, raised, with `detail` and the template it is about.
fn about_template(
    exception: Bound<'_, PyType>,
    message: String,
    detail: &Detail<'_>,
    template: &str,
) -> PyErr {
    raise(build(
        exception,
        message,
        detail,
        Some(("template", template)),
    ))
}

fn raise(built: PyResult<Bound<'_, PyAny>>) -> PyErr {
    match built {
        Ok(instance) => PyErr::from_value(instance),
        Err(failed) => failed,
    }
}

/// A template that does not parse: `InvalidUriTemplate`, as the SDK raises it.
pub fn parse(py: Python<'_>, e: &Error, template: &str) -> PyErr {
    let position = e.position().map(|at| char_index(template, at));
    let detail = Detail {
        kind: e.kind().code(),
        position,
        ..Detail::default()
    };
    let message = match position {
        Some(at) => format!("{} at index {at}", e.kind()),
        None => e.kind().to_string(),
    };
    about_template(
        InvalidUriTemplate::type_object(py),
        message,
        &detail,
        template,
    )
}

/// A template refused before it is parsed (over a limit of the SDK's): `InvalidUriTemplate`
/// without a position.
pub fn invalid(py: Python<'_>, template: &str, kind: &str, message: String) -> PyErr {
    let detail = Detail {
        kind,
        ..Detail::default()
    };
    about_template(
        InvalidUriTemplate::type_object(py),
        message,
        &detail,
        template,
    )
}

/// Values that cannot be expanded: `ExpansionError`, naming the variable.
pub fn expansion(py: Python<'_>, e: &Error, template: &str) -> PyErr {
    let variable = match e.kind() {
        rfc6570::ErrorKind::PrefixOnComposite { var }
        | rfc6570::ErrorKind::NestedComposite { var } => Some(var.as_str()),
        _ => None,
    };
    let detail = Detail {
        kind: e.kind().code(),
        position: e.position().map(|at| char_index(template, at)),
        variable,
        ..Detail::default()
    };
    let built = build(
        ExpansionError::type_object(py),
        e.kind().to_string(),
        &detail,
        Some(("template", template)),
    );
    raise(built)
}

/// What refuses a template for matching: its first refusing lint (kind, position, message),
/// or the router's reason.
fn refusing<'a>(e: &'a InsertError, template: &str, lints: &'a [Lint]) -> (Detail<'a>, String) {
    match lints.iter().find(|lint| lint.kind().refuses()) {
        Some(lint) => (
            Detail {
                kind: lint.kind().code(),
                position: Some(char_index(template, lint.position())),
                ..Detail::default()
            },
            lint.to_string(),
        ),
        None => (
            Detail {
                kind: e.code(),
                ..Detail::default()
            },
            e.to_string(),
        ),
    }
}

/// A template that cannot be matched: `UnsupportedTemplate`, with the rule that refuses it.
pub fn unsupported(py: Python<'_>, e: &InsertError, template: &str, lints: &[Lint]) -> PyErr {
    let (detail, message) = refusing(e, template, lints);
    about_template(
        UnsupportedTemplate::type_object(py),
        message,
        &detail,
        template,
    )
}

/// Why a template that cannot be matched did not match `uri`: a `NoMatch` of kind
/// `unsupported`, at the refusing lint.
pub fn cannot_match<'py>(
    py: Python<'py>,
    e: &InsertError,
    template: &str,
    lints: &[Lint],
    uri: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let (mut detail, message) = refusing(e, template, lints);
    detail.kind = "unsupported";
    build(
        NoMatch::type_object(py),
        message,
        &detail,
        Some(("uri", uri)),
    )
}

/// Why `uri` was not matched, as a `NoMatch` to return (not raised).
pub fn no_match<'py>(py: Python<'py>, e: &RouteError, uri: &str) -> PyResult<Bound<'py, PyAny>> {
    let mut detail = Detail {
        kind: e.code(),
        ..Detail::default()
    };
    let mut message = e.to_string();
    match e {
        RouteError::Unsafe { variable, rule, .. } => {
            detail.rule = Some(rule.code());
            detail.variable = Some(variable);
        }
        RouteError::Malformed { position, reason } => {
            let at = char_index(uri, *position);
            message = format!("malformed URI at index {at}: {reason}");
            detail.position = Some(at);
        }
        // A refusal's reason is its source: the message says both.
        RouteError::Refused { source, .. } => {
            message = format!("{e}: {source}");
            if let MatchError::DuplicateKey { variable, .. }
            | MatchError::Disagreement { variable } = source
            {
                detail.variable = Some(variable);
            }
        }
        _ => {}
    }
    build(
        NoMatch::type_object(py),
        message,
        &detail,
        Some(("uri", uri)),
    )
}

/// A refusal that is not a URI's fault (a template the engine cannot compile), raised.
pub fn refused(py: Python<'_>, e: &RouteError, uri: &str) -> PyErr {
    raise(no_match(py, e, uri))
}

/// A path that `safe_join` refused: `UnsafeJoin`.
pub fn join(py: Python<'_>, e: &JoinError) -> PyErr {
    let kind = match e {
        JoinError::Absolute => "absolute",
        JoinError::Escapes => "escapes",
        JoinError::ControlCharacter => "control_character",
        _ => "join",
    };
    let detail = Detail {
        kind,
        ..Detail::default()
    };
    raise(build(
        UnsafeJoin::type_object(py),
        e.to_string(),
        &detail,
        None,
    ))
}

/// The `str` index (in code points) of byte offset `at` of `text`, clamped to its end and to
/// the character boundary at or before it.
pub fn char_index(text: &str, at: usize) -> usize {
    let mut end = at.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].chars().count()
}
