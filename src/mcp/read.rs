//! Reading: what a `resources/read` URI routed to ([`ResourceMatch`]), and why one has no
//! resource ([`ReadError`]).

use serde::Deserialize;
use serde_json::json;

use super::jsonrpc::{INTERNAL_ERROR, JsonRpcError};
use super::revision::Revision;
use super::schema::{Listing, Resource, ResourceTemplate};
use crate::matching::ExtractError;
use crate::{Captures, RouteError, UriTemplate};

/// Why a `resources/read` URI has no resource. [`to_json_rpc`](Self::to_json_rpc) turns it into
/// the error to answer with.
///
/// `Display` is for the server's logs: it may quote the offending value.
///
/// ```
/// use rfc6570::mcp::{ReadError, ResourceTemplate, Resources};
/// use rfc6570::RouteError;
/// use rfc6570::safety::Rule;
///
/// let mut resources = Resources::new();
/// resources.insert(ResourceTemplate::parse("file:///{+path}", "file")?, ())?;
/// let err = resources.at("file:///a/../../etc/passwd").unwrap_err();
/// assert!(matches!(
///     &err,
///     ReadError::Route { error: RouteError::Unsafe { rule: Rule::DotDotSegment, .. }, .. }
/// ));
/// assert_eq!(err.uri(), "file:///a/../../etc/passwd");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The router refused the URI: nothing matches, a path-safety rule, a malformed URI.
    #[error("{uri}: the router refused it")]
    Route {
        /// The URI read.
        uri: String,
        /// Why the router refused it.
        #[source]
        error: RouteError,
    },
    /// The URI matched, but its captures do not fit the handler's parameter type.
    #[error("{uri}: its captures do not fit the parameters")]
    Params {
        /// The URI read.
        uri: String,
        /// Which variable does not fit, and why.
        #[source]
        error: ExtractError,
    },
}

impl ReadError {
    /// The URI that was read.
    ///
    /// ```
    /// use rfc6570::mcp::Resources;
    /// let resources: Resources<()> = Resources::new();
    /// assert_eq!(resources.at("x://y").unwrap_err().uri(), "x://y");
    /// ```
    pub fn uri(&self) -> &str {
        match self {
            Self::Route { uri, .. } | Self::Params { uri, .. } => uri,
        }
    }

    /// The JSON-RPC error for a peer on `revision`: "resource not found" with the code of that
    /// revision ([`Revision::resource_not_found`]) and `{"uri": ...}` as data.
    ///
    /// Every refusal is a resource that does not exist, so each gets that code; the message
    /// says why, and never repeats a decoded value (a path-safety refusal names the template,
    /// the variable and the rule). A router whose templates cannot be compiled is the server's
    /// fault: [`INTERNAL_ERROR`].
    ///
    /// ```
    /// use rfc6570::mcp::{ResourceTemplate, Resources, Revision};
    /// use serde_json::json;
    ///
    /// let mut resources = Resources::new();
    /// resources.insert(ResourceTemplate::parse("file:///{+path}", "file")?, ())?;
    /// let refused = resources.at("file:///..%2F..%2Fetc%2Fpasswd").unwrap_err();
    /// let err = refused.to_json_rpc(Revision::V2026_07_28);
    /// assert_eq!(err.code, -32602);
    /// assert_eq!(
    ///     err.message,
    ///     "Resource not found: variable `path` of `file:///{+path}` holds a `..` path segment"
    /// );
    /// assert!(!err.message.contains("passwd"));
    /// assert_eq!(err.data, Some(json!({"uri": "file:///..%2F..%2Fetc%2Fpasswd"})));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_json_rpc(&self, revision: Revision) -> JsonRpcError {
        let detail = match self {
            Self::Route {
                error: RouteError::NotFound,
                ..
            } => None,
            Self::Route {
                error: RouteError::Unsupported { .. },
                uri,
            } => {
                return JsonRpcError::new(INTERNAL_ERROR, "The resource router cannot be compiled")
                    .data(json!({ "uri": uri }));
            }
            // These messages name templates, variables, rules, byte offsets and parameter
            // names, never a decoded value.
            Self::Route { error, .. } => Some(with_sources(error)),
            Self::Params { error, .. } => Some(match error.variable() {
                Some(var) => format!("variable `{var}` does not have the expected form"),
                None => "the URI's variables do not have the expected form".to_owned(),
            }),
        };
        let mut err = revision.resource_not_found(self.uri());
        if let Some(detail) = detail {
            err.message = format!("Resource not found: {detail}");
        }
        err
    }
}

/// A `resources/read` URI routed to its entry; see [`Resources::at`](super::Resources::at).
#[derive(Debug)]
#[non_exhaustive]
pub struct ResourceMatch<'r, 'u, H> {
    /// The handler registered with the entry.
    pub handler: &'r H,
    /// The template that matched (for a static resource, its URI as a template).
    pub template: &'r UriTemplate,
    /// The template's variables, decoded and checked for path safety.
    pub captures: Captures<'u>,
    /// The URI read.
    pub uri: &'u str,
    pub(super) listing: &'r Listing,
}

impl<'r, 'u, H> ResourceMatch<'r, 'u, H> {
    /// Extracts the captures into a typed value (see [`Captures::deserialize`]); a value that
    /// does not fit is a [`ReadError::Params`], answered as "resource not found".
    ///
    /// ```
    /// use rfc6570::mcp::{ResourceTemplate, Resources};
    ///
    /// #[derive(serde::Deserialize, Debug)]
    /// struct Log { job_id: u64 }
    ///
    /// let mut resources = Resources::new();
    /// resources.insert(ResourceTemplate::parse("log://build/{job_id}", "log")?, ())?;
    /// let log: Log = resources.at("log://build/7")?.params()?;
    /// assert_eq!(log.job_id, 7);
    ///
    /// let err = resources.at("log://build/seven")?.params::<Log>().unwrap_err();
    /// assert_eq!(
    ///     err.to_json_rpc(rfc6570::mcp::Revision::V2025_11_25).message,
    ///     "Resource not found: variable `job_id` does not have the expected form"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ReadError::Params`] naming the variable that does not fit.
    pub fn params<T: Deserialize<'u>>(&self) -> Result<T, ReadError> {
        self.captures
            .deserialize()
            .map_err(|error| ReadError::Params {
                uri: self.uri.to_owned(),
                error,
            })
    }

    /// The listed template, when the URI matched a template rather than a static resource.
    ///
    /// ```
    /// use rfc6570::mcp::{Resource, ResourceTemplate, Resources};
    ///
    /// let mut resources = Resources::new();
    /// resources.insert(ResourceTemplate::parse("notes://{id}", "note")?, ())?;
    /// resources.insert_resource(Resource::new("notes://index", "index"), ())?;
    /// assert_eq!(resources.at("notes://7")?.resource_template().unwrap().name, "note");
    /// assert!(resources.at("notes://index")?.resource_template().is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resource_template(&self) -> Option<&'r ResourceTemplate> {
        match self.listing {
            Listing::Template(t) => Some(t),
            Listing::Resource(_) => None,
        }
    }

    /// The listed static resource, when the URI is one.
    ///
    /// ```
    /// use rfc6570::mcp::{Resource, Resources};
    ///
    /// let mut resources = Resources::new();
    /// resources.insert_resource(Resource::new("config://app", "app"), ())?;
    /// assert_eq!(resources.at("config://app")?.resource().unwrap().name, "app");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resource(&self) -> Option<&'r Resource> {
        match self.listing {
            Listing::Resource(r) => Some(r),
            Listing::Template(_) => None,
        }
    }

    /// The MIME type listed for the entry, if any: what the contents of a read usually carry.
    ///
    /// ```
    /// use rfc6570::mcp::{ResourceTemplate, Resources};
    ///
    /// let mut resources = Resources::new();
    /// resources.insert(ResourceTemplate::parse("notes://{id}", "note")?.mime_type("text/markdown"), ())?;
    /// assert_eq!(resources.at("notes://7")?.mime_type(), Some("text/markdown"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn mime_type(&self) -> Option<&'r str> {
        match self.listing {
            Listing::Template(t) => t.mime_type.as_deref(),
            Listing::Resource(r) => r.mime_type.as_deref(),
        }
    }
}

/// An error's message followed by those of its sources, as one line.
fn with_sources(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        text.push_str(": ");
        text.push_str(&e.to_string());
        source = e.source();
    }
    text
}
