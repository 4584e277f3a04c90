//! `UriTemplate`, with the names and shapes of the MCP Python SDK's (`parse`, `is_template`,
//! `variables`, `variable_names`, `query_variable_names`, `expand`, `match`), and what it
//! lacks: `explain`, `lints`, `partial`, every operator, and path safety on by default.
//!
//! A `UriTemplate` holds a [`Partial`]: a template that partial expansion made carries the
//! values it could not write, and expands with them. `match` asks a router of one template,
//! which applies path safety: a URI it refuses is no match, and `explain` says why.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFrozenSet, PyString, PyType};
use rfc6570::router::RouterOptions;
use rfc6570::safety::SafetyPolicy;
use rfc6570::template::{Component, Operator};
use rfc6570::{InsertError, Partial, Router, UriTemplate as Template};

use crate::errors;
use crate::values::{Names, Variables};

/// The SDK's limits: the longest template, in characters.
pub const DEFAULT_MAX_TEMPLATE_LENGTH: usize = 8_192;
/// The SDK's limits: the most variables in a template.
pub const DEFAULT_MAX_VARIABLES: usize = 256;
/// The SDK's limits: the longest URI `match` reads, in characters; a longer one is no match.
pub const DEFAULT_MAX_URI_LENGTH: usize = 65_536;

/// A parsed RFC 6570 URI template.
#[pyclass(module = "rfc6570", name = "UriTemplate", frozen, eq, hash)]
pub struct UriTemplate {
    partial: Partial,
    /// A router of this template alone, or why it cannot be matched.
    matcher: Result<Router<()>, InsertError>,
    names: Names,
    path_safety: bool,
}

impl PartialEq for UriTemplate {
    fn eq(&self, other: &Self) -> bool {
        self.partial == other.partial
    }
}

impl std::hash::Hash for UriTemplate {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.partial.template().hash(state);
    }
}

impl UriTemplate {
    fn build(py: Python<'_>, partial: Partial, path_safety: bool) -> Self {
        let template = partial.template().clone();
        let names = Names::of(py, &template);
        let mut router = Router::with_options(options(path_safety));
        let matcher = router.insert(template, ()).map(|()| router);
        Self {
            partial,
            matcher,
            names,
            path_safety,
        }
    }

    pub fn parsed(&self) -> &Template {
        self.partial.template()
    }

    fn text(&self) -> &str {
        self.parsed().as_str()
    }

    /// The router; None for a template that cannot be matched, which matches nothing.
    fn matcher(&self) -> Option<&Router<()>> {
        self.matcher.as_ref().ok()
    }
}

/// Parses `source` within the SDK's limits, in characters and variables, and the engine's own
/// (64 KiB, 1,024 expressions).
pub fn parse(
    py: Python<'_>,
    source: &str,
    max_length: usize,
    max_variables: usize,
) -> PyResult<Template> {
    if is_longer(source, max_length) {
        let message = format!("Template exceeds maximum length of {max_length}");
        return Err(errors::invalid(py, source, "template_too_long", message));
    }
    let template = Template::parse(source).map_err(|e| errors::parse(py, &e, source))?;
    if template.variables().count() > max_variables {
        let message = format!("Template exceeds maximum of {max_variables} variables");
        return Err(errors::invalid(py, source, "too_many_variables", message));
    }
    Ok(template)
}

#[pymethods]
impl UriTemplate {
    /// `UriTemplate(template, *, max_length=8192, max_variables=256, path_safety=True)`:
    /// as `UriTemplate.parse`.
    #[new]
    #[pyo3(signature = (template, *, max_length = DEFAULT_MAX_TEMPLATE_LENGTH, max_variables = DEFAULT_MAX_VARIABLES, path_safety = true))]
    fn new(
        py: Python<'_>,
        template: &str,
        max_length: usize,
        max_variables: usize,
        path_safety: bool,
    ) -> PyResult<Self> {
        let parsed = parse(py, template, max_length, max_variables)?;
        Ok(Self::build(py, parsed.into(), path_safety))
    }

    /// Parses a template, within the SDK's limits by default.
    #[classmethod]
    #[pyo3(signature = (template, *, max_length = DEFAULT_MAX_TEMPLATE_LENGTH, max_variables = DEFAULT_MAX_VARIABLES, path_safety = true))]
    fn parse(
        _cls: &Bound<'_, PyType>,
        py: Python<'_>,
        template: &str,
        max_length: usize,
        max_variables: usize,
        path_safety: bool,
    ) -> PyResult<Self> {
        Self::new(py, template, max_length, max_variables, path_safety)
    }

    /// Whether `value` is a template with at least one expression.
    #[staticmethod]
    fn is_template(value: &str) -> bool {
        Template::parse(value).is_ok_and(|t| !t.is_static())
    }

    /// The template's text.
    #[getter]
    fn template(&self) -> &str {
        self.text()
    }

    /// Every variable spec, in order.
    #[getter]
    fn variables(&self) -> Vec<Variable> {
        self.parsed()
            .expressions()
            .flat_map(|e| {
                let operator = e.operator().symbol().map(String::from).unwrap_or_default();
                e.variables().map(move |v| Variable {
                    name: v.name().to_owned(),
                    operator: operator.clone(),
                    explode: v.is_exploded(),
                    prefix: v.prefix(),
                })
            })
            .collect()
    }

    /// Every variable's name, in order (a name used twice is there twice, as in the SDK).
    #[getter]
    fn variable_names(&self) -> Vec<&str> {
        self.parsed().variables().map(|v| v.name()).collect()
    }

    /// The variables of the query tail (the trailing `{?...}` and `{&...}` expressions):
    /// optional, in any order, when matching.
    #[getter]
    fn query_variable_names<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyFrozenSet>> {
        let components: Vec<Component<'_>> = self.parsed().components().collect();
        let tail = components.iter().rev().map_while(|c| match c {
            Component::Expression(e)
                if matches!(e.operator(), Operator::Query | Operator::QueryContinuation) =>
            {
                Some(e)
            }
            _ => None,
        });
        let names: Vec<&str> = tail.flat_map(|e| e.variables().map(|v| v.name())).collect();
        PyFrozenSet::new(py, names)
    }

    /// The names of values that a partial expansion could not write into the template, and
    /// that `expand` uses.
    #[getter]
    pub fn bound_names(&self) -> Vec<&str> {
        self.partial.bound_names().collect()
    }

    /// Expands the template with a mapping of variables.
    fn expand(&self, py: Python<'_>, variables: &Bound<'_, PyAny>) -> PyResult<String> {
        let variables = Variables::read(variables, &self.names)?;
        self.partial
            .expand(&variables)
            .map_err(|e| errors::expansion(py, &e, self.text()))
    }

    /// Expands the variables given and keeps the others: a new template that expands the
    /// rest as the whole would have.
    fn partial(&self, py: Python<'_>, variables: &Bound<'_, PyAny>) -> PyResult<Self> {
        let variables = Variables::read(variables, &self.names)?;
        let partial = self
            .partial
            .partial(&variables)
            .map_err(|e| errors::expansion(py, &e, self.text()))?;
        Ok(Self::build(py, partial, self.path_safety))
    }

    /// The variables of `uri`, decoded, or None when it does not match (or path safety
    /// refuses it, or it is longer than `max_uri_length` characters).
    #[pyo3(signature = (uri, *, max_uri_length = DEFAULT_MAX_URI_LENGTH))]
    fn r#match<'py>(
        &self,
        py: Python<'py>,
        uri: &str,
        max_uri_length: usize,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        if is_longer(uri, max_uri_length) {
            return Ok(None);
        }
        match self.matcher().map(|m| m.at(uri)) {
            Some(Ok(routed)) => self.names.captures(py, &routed.captures).map(Some),
            _ => Ok(None),
        }
    }

    /// Why `uri` does not match, as a `NoMatch` (not raised), or None when it matches. For a
    /// template that cannot be matched, its kind is `unsupported`, at the refusing lint.
    fn explain<'py>(&self, py: Python<'py>, uri: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
        let refusal = match &self.matcher {
            Ok(router) => match router.at(uri) {
                Ok(_) => return Ok(None),
                Err(e) => errors::no_match(py, &e, uri),
            },
            Err(e) => errors::cannot_match(py, e, self.text(), &self.parsed().lints(), uri),
        };
        refusal.map(Some)
    }

    /// What makes the template ambiguous or impossible to match back, each with its rule,
    /// position and whether matching refuses the template for it.
    #[getter]
    fn lints(&self) -> Vec<Lint> {
        let text = self.text();
        self.parsed()
            .lints()
            .iter()
            .map(|lint| Lint {
                kind: lint.kind().code().to_owned(),
                message: lint.to_string(),
                position: errors::char_index(text, lint.position()),
                refuses: lint.kind().refuses(),
            })
            .collect()
    }

    fn __str__(&self) -> &str {
        self.text()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("UriTemplate({})", repr(py, self.text())?))
    }
}

/// One variable spec: its name, its expression's operator (`""` for simple expansion) and its
/// modifiers.
#[pyclass(module = "rfc6570", frozen, eq, hash, get_all)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Variable {
    name: String,
    operator: String,
    explode: bool,
    prefix: Option<u16>,
}

#[pymethods]
impl Variable {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Variable(name={}, operator={}, explode={}, prefix={})",
            repr(py, &self.name)?,
            repr(py, &self.operator)?,
            python_bool(self.explode),
            self.prefix.map_or_else(|| "None".into(), |p| p.to_string()),
        ))
    }
}

/// A template's lint.
#[pyclass(module = "rfc6570", frozen, get_all)]
pub struct Lint {
    kind: String,
    message: String,
    position: usize,
    refuses: bool,
}

#[pymethods]
impl Lint {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Lint(kind={}, position={}, refuses={})",
            repr(py, &self.kind)?,
            self.position,
            python_bool(self.refuses),
        ))
    }
}

/// A string as Python writes it back.
pub fn repr(py: Python<'_>, text: &str) -> PyResult<String> {
    Ok(PyString::new(py, text).repr()?.to_str()?.to_owned())
}

fn python_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

/// Path safety on or off. The engine's limit on a URI (32 KiB) holds, as in Rust and npm;
/// `match`'s `max_uri_length` can lower it, in characters.
pub fn options(path_safety: bool) -> RouterOptions {
    let policy = if path_safety {
        SafetyPolicy::STRICT
    } else {
        SafetyPolicy::OFF
    };
    RouterOptions::new().safety(policy)
}

/// Whether `text` has more than `max` characters, without counting them when its bytes say.
fn is_longer(text: &str, max: usize) -> bool {
    text.len() > max && text.chars().count() > max
}
