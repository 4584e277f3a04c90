//! Values across the boundary: Python variables into the engine's, a match's captures into a
//! `dict`, and JSON (an MCP error) into Python objects.
//!
//! Variables are read once, and only those the template names, from a `dict` or any other
//! mapping: a `str` value is expanded straight from the Python string's own UTF-8, without a
//! copy; any other value is read into a `serde_json::Value`. `str` is a string, `bool` is
//! `true` or `false`, an `int` its decimal text, a `float` the text serde_json writes for it
//! (`1.0`, `1e16`), `None` is undefined, a `list` or `tuple` is a list, and any mapping is an
//! associative array, in its order. Anything else is a `TypeError` that names the variable.
//! A list or mapping inside one is read no further: expansion refuses it as nested whatever it
//! holds, so a value that holds itself, or is nested a million deep, costs one level.

use pyo3::exceptions::{PyKeyError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyMapping, PyString, PyTuple};
use rfc6570::Captures;
use rfc6570::matching::CaptureKind;
use rfc6570::vars::{AsVarValue, VarValue, Vars};
use serde_json::{Map, Number, Value};

/// The variables of one call, as the engine reads them: the template's names that the
/// mapping holds, each with its value.
pub struct Variables<'n, 'py>(Vec<(&'n str, Entry<'py>)>);

/// A value: a Python `str`, read in place, or anything else, converted.
pub enum Entry<'py> {
    Text(Bound<'py, PyString>),
    Other(Value),
}

impl<'n, 'py> Variables<'n, 'py> {
    /// Reads the variables `names` names from `mapping`, a `dict` directly, any other mapping
    /// by `mapping[name]`; a name it does not hold is undefined.
    pub fn read(mapping: &Bound<'py, PyAny>, names: &'n Names) -> PyResult<Self> {
        let py = mapping.py();
        let dict = mapping.cast::<PyDict>().ok();
        if dict.is_none() && mapping.cast::<PyMapping>().is_err() {
            return Err(PyTypeError::new_err(format!(
                "the variables must be a mapping, not {}",
                type_name(mapping)
            )));
        }
        let mut entries = Vec::with_capacity(names.0.len());
        for name in &names.0 {
            let key = name.key.bind(py);
            let value = match dict {
                Some(dict) => dict.get_item(key)?,
                None => match mapping.get_item(key) {
                    Ok(value) => Some(value),
                    Err(e) if e.is_instance_of::<PyKeyError>(py) => None,
                    Err(e) => return Err(e),
                },
            };
            let Some(value) = value else {
                continue;
            };
            let entry = match value.cast_into::<PyString>() {
                // Checked here, so that reading it again in `get` cannot fail.
                Ok(text) => {
                    text.to_str()?;
                    Entry::Text(text)
                }
                Err(other) => Entry::Other(value_of(other.into_inner().as_any(), &name.text)?),
            };
            entries.push((name.text.as_str(), entry));
        }
        Ok(Self(entries))
    }
}

impl Vars for Variables<'_, '_> {
    fn get(&self, name: &str) -> VarValue<'_> {
        match self.0.iter().find(|(n, _)| *n == name) {
            Some((_, Entry::Text(text))) => {
                text.to_str().map_or(VarValue::Undefined, VarValue::String)
            }
            Some((_, Entry::Other(value))) => value.as_var_value(),
            None => VarValue::Undefined,
        }
    }
}

/// The `(key, value)` pairs of a mapping: a `dict` read directly, any other mapping through
/// `items()`.
fn items<'py>(
    mapping: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<Vec<(Bound<'py, PyAny>, Bound<'py, PyAny>)>> {
    if let Ok(dict) = mapping.cast::<PyDict>() {
        return Ok(dict.iter().collect());
    }
    let mapping = mapping.cast::<PyMapping>().map_err(|_| {
        PyTypeError::new_err(format!(
            "{what} must be a mapping, not {}",
            type_name(mapping)
        ))
    })?;
    mapping
        .items()?
        .iter()
        .map(|pair| pair.extract::<(Bound<'py, PyAny>, Bound<'py, PyAny>)>())
        .collect()
}

/// One value, its members read one level deep.
fn value_of(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Value> {
    if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        let items = value
            .try_iter()?
            .map(|item| member(&item?, name))
            .collect::<PyResult<Vec<Value>>>()?;
        return Ok(Value::Array(items));
    }
    if value.is_instance_of::<PyDict>() || value.cast::<PyMapping>().is_ok() {
        let mut entries = Map::new();
        for (key, item) in items(value, name)? {
            let key = key.str()?;
            entries.insert(key.to_str()?.to_owned(), member(&item, name)?);
        }
        return Ok(Value::Object(entries));
    }
    scalar(value, name)
}

/// A member of a list or mapping. One that is itself a list or mapping is nested, which
/// expansion refuses whatever it holds: it stands as an empty one, unread.
fn member(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Value> {
    if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        return Ok(Value::Array(Vec::new()));
    }
    if value.is_instance_of::<PyDict>() || value.cast::<PyMapping>().is_ok() {
        return Ok(Value::Object(Map::new()));
    }
    scalar(value, name)
}

/// A value that is neither a list nor a mapping.
fn scalar(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Value> {
    if value.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(s) = value.cast::<PyString>() {
        return Ok(Value::String(s.to_str()?.to_owned()));
    }
    // `bool` before `int`: it is one.
    if let Ok(b) = value.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if value.is_instance_of::<PyInt>() {
        return Ok(match value.extract::<i64>() {
            Ok(n) => Value::Number(n.into()),
            // Beyond 64 bits: its decimal text.
            Err(_) => Value::String(value.str()?.to_str()?.to_owned()),
        });
    }
    if let Ok(x) = value.cast::<PyFloat>() {
        // A non-finite float has no text in a URI: undefined, as serde_json makes it.
        return Ok(Number::from_f64(x.value()).map_or(Value::Null, Value::Number));
    }
    Err(PyTypeError::new_err(format!(
        "variable {name:?} has a value of type {}: values are str, int, float, bool, None, a list or tuple, or a mapping",
        type_name(value)
    )))
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "value".to_owned(), |n| n.to_string())
}

/// A template's variable names in order, each once, as Python strings made once, and whether
/// any of its occurrences is exploded: a match gives an exploded variable as a list (or a dict,
/// for an associative array) and any other as its decoded text, as the Python SDK does.
pub struct Names(Vec<Name>);

struct Name {
    text: String,
    key: Py<PyString>,
    exploded: bool,
}

impl Names {
    pub fn of(py: Python<'_>, template: &rfc6570::UriTemplate) -> Self {
        let mut names: Vec<Name> = Vec::new();
        for variable in template.variables() {
            match names.iter_mut().find(|n| n.text == variable.name()) {
                Some(name) => name.exploded |= variable.is_exploded(),
                None => names.push(Name {
                    text: variable.name().to_owned(),
                    key: PyString::intern(py, variable.name()).unbind(),
                    exploded: variable.is_exploded(),
                }),
            }
        }
        Self(names)
    }

    /// A match's captures as a `dict`: `str` values, and `list` or `dict` for exploded ones.
    pub fn captures<'py>(
        &self,
        py: Python<'py>,
        captures: &Captures<'_>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for capture in captures.iter() {
            // Captures come in the names' order; a name not found cannot be, but is kept.
            let name = self.0.iter().find(|n| n.text == capture.name());
            let key = match name {
                Some(name) => name.key.bind(py).clone(),
                None => PyString::new(py, capture.name()),
            };
            if !name.is_some_and(|n| n.exploded) || capture.kind() == CaptureKind::String {
                dict.set_item(key, capture.decoded())?;
            } else if capture.kind() == CaptureKind::Map {
                let entries = PyDict::new(py);
                for (k, v) in capture.entries() {
                    entries.set_item(k, v)?;
                }
                dict.set_item(key, entries)?;
            } else {
                dict.set_item(key, PyList::new(py, capture.items())?)?;
            }
        }
        Ok(dict)
    }
}

/// A JSON value as Python objects.
pub fn from_json<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.into_pyobject(py)?.into_any(),
            None => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let items = items
                .iter()
                .map(|item| from_json(py, item))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any()
        }
        Value::Object(entries) => {
            let dict = PyDict::new(py);
            for (key, item) in entries {
                dict.set_item(key, from_json(py, item)?)?;
            }
            dict.into_any()
        }
    })
}
