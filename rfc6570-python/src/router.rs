//! `Router`: many templates, each with a value; `at` finds the most specific template that
//! matches a URI (the crate's precedence, not the first registered), with path safety on by
//! default, and `explain` says why none did.

use pyo3::exceptions::PyValueError;
use pyo3::gc::{PyTraverseError, PyVisit};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rfc6570::{RouteError, Router as Routes};

use crate::errors;
use crate::template::{self, DEFAULT_MAX_TEMPLATE_LENGTH, DEFAULT_MAX_VARIABLES, UriTemplate};
use crate::values::Names;

/// Templates and their values, matched together.
#[pyclass(module = "rfc6570", name = "Router", generic)]
pub struct Router {
    routes: Routes<usize>,
    /// Each route's value and variable names, by its index.
    values: Vec<Py<PyAny>>,
    names: Vec<Names>,
}

/// What `Router.at` found: the route's value, its template's text and the variables.
#[pyclass(module = "rfc6570", frozen, get_all, generic)]
pub struct Route {
    value: Py<PyAny>,
    template: String,
    variables: Py<PyDict>,
}

#[pymethods]
impl Route {
    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        visit.call(&self.value)?;
        visit.call(&self.variables)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Route(value={}, template={}, variables={})",
            self.value.bind(py).repr()?,
            template::repr(py, &self.template)?,
            self.variables.bind(py).repr()?
        ))
    }
}

#[pymethods]
impl Router {
    /// `Router(*, path_safety=True)`.
    #[new]
    #[pyo3(signature = (*, path_safety = true))]
    fn new(path_safety: bool) -> Self {
        Self {
            routes: Routes::with_options(template::options(path_safety)),
            values: Vec::new(),
            names: Vec::new(),
        }
    }

    /// Adds a template (its text, or a `UriTemplate`) with its value. Raises
    /// `InvalidUriTemplate` when it does not parse, `UnsupportedTemplate` when it cannot be
    /// matched back or matches exactly the URIs of a template already there, and `ValueError`
    /// for a `UriTemplate` that holds bound values (from `partial`), which a router could not
    /// keep. The router's own path safety applies, not the template's.
    fn insert(
        &mut self,
        py: Python<'_>,
        template: &Bound<'_, PyAny>,
        value: Py<PyAny>,
    ) -> PyResult<()> {
        let parsed = match template.cast::<UriTemplate>() {
            Ok(t) if !t.get().bound_names().is_empty() => {
                return Err(PyValueError::new_err(format!(
                    "{} holds bound values ({}) that a router cannot keep: expand them first",
                    t.get().parsed(),
                    t.get().bound_names().join(", ")
                )));
            }
            Ok(t) => t.get().parsed().clone(),
            Err(_) => {
                let text: String = template.extract()?;
                template::parse(
                    py,
                    &text,
                    DEFAULT_MAX_TEMPLATE_LENGTH,
                    DEFAULT_MAX_VARIABLES,
                )?
            }
        };
        let names = Names::of(py, &parsed);
        let lints = parsed.lints();
        let text = parsed.as_str().to_owned();
        self.routes
            .insert(parsed, self.values.len())
            .map_err(|e| errors::unsupported(py, &e, &text, &lints))?;
        self.values.push(value);
        self.names.push(names);
        Ok(())
    }

    /// The most specific route that matches `uri`, or None (no template matches, or path
    /// safety refuses the best one).
    fn at(&self, py: Python<'_>, uri: &str) -> PyResult<Option<Route>> {
        match self.routes.at(uri) {
            Ok(routed) => {
                let index = *routed.value;
                // Both are there unless the garbage collector cleared the router.
                let (Some(value), Some(names)) = (self.values.get(index), self.names.get(index))
                else {
                    return Ok(None);
                };
                Ok(Some(Route {
                    value: value.clone_ref(py),
                    template: routed.template.as_str().to_owned(),
                    variables: names.captures(py, &routed.captures)?.unbind(),
                }))
            }
            Err(e @ RouteError::Unsupported(_)) => Err(errors::refused(py, &e, uri)),
            Err(_) => Ok(None),
        }
    }

    /// Why no route takes `uri`, as a `NoMatch` (not raised), or None when one does.
    fn explain<'py>(&self, py: Python<'py>, uri: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
        match self.routes.at(uri) {
            Ok(_) => Ok(None),
            Err(e) => errors::no_match(py, &e, uri).map(Some),
        }
    }

    fn __len__(&self) -> usize {
        self.values.len()
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        self.values.iter().try_for_each(|value| visit.call(value))
    }

    fn __clear__(&mut self) {
        self.values.clear();
    }
}
