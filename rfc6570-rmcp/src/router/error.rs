//! Why a resource router refused a registration ([`RegisterError`]).

use std::fmt;

use rfc6570::InsertError;

/// Why a template, a resource or a completer could not be registered.
///
/// ```
/// use rfc6570::mcp::ResourceTemplate;
/// use rfc6570_rmcp::{Completing, RegisterError, ResourceRouter};
///
/// let err = ResourceRouter::<()>::new()
///     .completer("notes://{id}", "id", |_: &(), _: Completing<'_>| Box::pin(async { vec!["a"] }))
///     .unwrap_err();
/// assert!(matches!(err, RegisterError::UnknownTemplate { .. }));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum RegisterError {
    /// The router refused the template: it conflicts with one registered before, or cannot be
    /// matched correctly.
    Insert(InsertError),
    /// A completer or cache hints name a template (or a static resource) that is not
    /// registered.
    UnknownTemplate {
        /// The template's text.
        template: String,
    },
    /// A completer names a variable the template does not have.
    UnknownVariable {
        /// The template's text.
        template: String,
        /// The variable.
        variable: String,
    },
}

impl fmt::Display for RegisterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Insert(_) => f.write_str("the router refused a template"),
            Self::UnknownTemplate { template } => {
                write!(f, "`{template}` is not a registered template")
            }
            Self::UnknownVariable { template, variable } => {
                write!(f, "`{variable}` is not a variable of `{template}`")
            }
        }
    }
}

impl std::error::Error for RegisterError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Insert(e) => Some(e),
            _ => None,
        }
    }
}

impl From<InsertError> for RegisterError {
    fn from(e: InsertError) -> Self {
        Self::Insert(e)
    }
}
