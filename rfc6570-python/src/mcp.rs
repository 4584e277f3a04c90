//! What MCP asks per protocol revision, from `rfc6570::mcp`: the JSON-RPC codes, and the error
//! a server answers for a resource it does not have, whose code changed on 2026-07-28.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use rfc6570::mcp::Revision;

use crate::values;

pub const RESOURCE_NOT_FOUND: i32 = rfc6570::mcp::RESOURCE_NOT_FOUND;
pub const INVALID_PARAMS: i32 = rfc6570::mcp::INVALID_PARAMS;
pub const INTERNAL_ERROR: i32 = rfc6570::mcp::INTERNAL_ERROR;

fn revision(date: &str) -> PyResult<Revision> {
    date.parse::<Revision>()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The revisions this package knows, oldest first, and the latest.
pub fn known_revisions(py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
    PyTuple::new(py, Revision::KNOWN.iter().map(ToString::to_string))
}

pub fn latest_revision() -> String {
    Revision::LATEST.to_string()
}

/// The JSON-RPC code of "resource not found" on `revision` (a date such as `"2025-11-25"`;
/// an unknown later one reads as the newest).
#[pyfunction]
pub fn resource_not_found_code(revision: &str) -> PyResult<i32> {
    Ok(self::revision(revision)?.resource_not_found_code())
}

/// The JSON-RPC error object for a resource `uri` not found, on `revision`:
/// `{"code": ..., "message": "Resource not found", "data": {"uri": ...}}`.
#[pyfunction]
pub fn resource_not_found<'py>(
    py: Python<'py>,
    uri: &str,
    revision: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let error = self::revision(revision)?.resource_not_found(uri);
    let json = serde_json::to_value(&error).map_err(|e| PyValueError::new_err(e.to_string()))?;
    values::from_json(py, &json)
}
