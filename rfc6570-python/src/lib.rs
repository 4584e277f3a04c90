//! The engine for Python: the extension module `rfc6570._rfc6570`, which the package
//! `rfc6570` (in `python/rfc6570/`) re-exports with its exceptions, its typing stubs and the
//! `uritemplate`-shaped API.
//!
//! The parts, each in its own file: `template` (`UriTemplate`, the SDK's shape), `router`
//! (`Router`), `mcp` (the error codes per revision), `values` (variables in, captures
//! out) and `errors` (every refusal as an exception of `rfc6570._errors`). Nothing here
//! panics on any input: every fallible step raises a Python exception.

#![forbid(unsafe_code)]

mod errors;
mod mcp;
mod router;
mod template;
mod values;

use std::path::PathBuf;

use pyo3::prelude::*;

/// Joins `path` onto the directory `base`, refusing any result outside it (`UnsafeJoin`):
/// `..` that climbs out, an absolute path, a control character.
#[pyfunction]
fn safe_join(py: Python<'_>, base: PathBuf, path: &str) -> PyResult<PathBuf> {
    rfc6570::safe_join(&base, path).map_err(|e| errors::join(py, &e))
}

#[pymodule]
fn _rfc6570(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<template::UriTemplate>()?;
    m.add_class::<template::Variable>()?;
    m.add_class::<template::Lint>()?;
    m.add_class::<router::Router>()?;
    m.add_class::<router::Route>()?;
    m.add_function(wrap_pyfunction!(safe_join, m)?)?;
    m.add_function(wrap_pyfunction!(mcp::resource_not_found_code, m)?)?;
    m.add_function(wrap_pyfunction!(mcp::resource_not_found, m)?)?;
    m.add("RESOURCE_NOT_FOUND", mcp::RESOURCE_NOT_FOUND)?;
    m.add("INVALID_PARAMS", mcp::INVALID_PARAMS)?;
    m.add("INTERNAL_ERROR", mcp::INTERNAL_ERROR)?;
    m.add("KNOWN_REVISIONS", mcp::known_revisions(m.py())?)?;
    m.add("LATEST_REVISION", mcp::latest_revision())?;
    m.add(
        "DEFAULT_MAX_TEMPLATE_LENGTH",
        template::DEFAULT_MAX_TEMPLATE_LENGTH,
    )?;
    m.add("DEFAULT_MAX_VARIABLES", template::DEFAULT_MAX_VARIABLES)?;
    m.add("DEFAULT_MAX_URI_LENGTH", template::DEFAULT_MAX_URI_LENGTH)?;
    Ok(())
}
