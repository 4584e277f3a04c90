//! MCP (Model Context Protocol) resources on URI templates (feature `mcp`).
//!
//! An MCP server lists its resource templates (`resources/templates/list`) and static resources
//! (`resources/list`), answers `resources/read` for concrete URIs, and may complete template
//! arguments (`completion/complete`). This module holds the parts of that which depend on URI
//! templates, with serde types whose JSON is the MCP schema's, and no MCP SDK:
//!
//! * [`ResourceTemplate`] and [`Resource`], built from a parsed [`UriTemplate`] (so an invalid
//!   template can never be listed), with [`Annotations`] and [`Icon`]s;
//! * [`Resources`], a registry that wraps a [`Router`]: it lists its entries in a stable order
//!   with cursor pagination, routes a read to its handler with typed captures, and turns every
//!   refusal into the JSON-RPC error the negotiated protocol revision expects ([`JsonRpcError`],
//!   [`resource_not_found_code`]);
//! * [`CompleteRequest`], [`Completion`] and [`CompleteResult`] for argument completion.
//!
//! Glue for an SDK is a few lines: convert its request parameters in, and the JSON of these types
//! out (the crate's `examples/mcp_server.rs` does it for `rmcp`).
//!
//! ```
//! use rfc6570::mcp::{ResourceTemplate, Resources};
//!
//! #[derive(serde::Deserialize)]
//! struct BuildLog { job_id: u64, lines: Option<String> }
//!
//! let mut resources = Resources::new();
//! resources.insert(ResourceTemplate::parse("log://build/{job_id}{?lines}", "build-log")?, "log")?;
//! resources.insert(ResourceTemplate::parse("notes://{id}", "note")?, "note")?;
//!
//! // resources/templates/list
//! let page = resources.list_templates(None)?;
//! assert_eq!(page.resource_templates[0].uri_template.as_str(), "log://build/{job_id}{?lines}");
//!
//! // resources/read
//! let read = resources.route("log://build/42?lines=1-10")?;
//! assert_eq!(*read.handler, "log");
//! let log: BuildLog = read.params()?;
//! assert_eq!((log.job_id, log.lines.as_deref()), (42, Some("1-10")));
//!
//! // An unknown URI, answered to a peer on the 2025-11-25 revision and to a newer one.
//! let err = resources.route("log://nope").unwrap_err();
//! assert_eq!(err.to_json_rpc("2025-11-25").code, -32002);
//! assert_eq!(err.to_json_rpc("2026-07-28").code, -32602);
//! assert_eq!(err.to_json_rpc("2026-07-28").data, Some(serde_json::json!({"uri": "log://nope"})));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::error::ErrorKind;
use crate::{
    Captures, Error, ExtractError, InsertError, RouteError, RouteOptions, Router, RouterBuilder,
    UriTemplate,
};

/// The `_meta` object of MCP types: a JSON object of extension metadata.
pub type Meta = serde_json::Map<String, Value>;

/// JSON-RPC code for a resource that does not exist, on MCP revisions up to 2025-11-25.
pub const RESOURCE_NOT_FOUND: i32 = -32002;
/// JSON-RPC "invalid params"; since MCP revision 2026-07-28 also "resource not found".
pub const INVALID_PARAMS: i32 = -32602;
/// JSON-RPC "internal error".
pub const INTERNAL_ERROR: i32 = -32603;
/// The first MCP revision that answers a missing resource with [`INVALID_PARAMS`].
pub const NOT_FOUND_AS_INVALID_PARAMS_SINCE: &str = "2026-07-28";
/// The most values a `completion/complete` result may carry.
pub const MAX_COMPLETION_VALUES: usize = 100;

/// The JSON-RPC code for "resource not found" on the given negotiated MCP protocol revision:
/// [`INVALID_PARAMS`] (-32602) from 2026-07-28 on, [`RESOURCE_NOT_FOUND`] (-32002) before.
///
/// Revisions are dates (`YYYY-MM-DD`) and compare as such. A version that is not a date (a draft
/// name) counts as newer than every dated revision.
///
/// ```
/// use rfc6570::mcp::resource_not_found_code;
///
/// assert_eq!(resource_not_found_code("2024-11-05"), -32002);
/// assert_eq!(resource_not_found_code("2025-11-25"), -32002);
/// assert_eq!(resource_not_found_code("2026-07-28"), -32602);
/// assert_eq!(resource_not_found_code("DRAFT-2026-v1"), -32602);
/// ```
pub fn resource_not_found_code(protocol_version: &str) -> i32 {
    let is_date = protocol_version.len() == 10
        && protocol_version.bytes().enumerate().all(|(i, b)| match i {
            4 | 7 => b == b'-',
            _ => b.is_ascii_digit(),
        });
    if is_date && protocol_version < NOT_FOUND_AS_INVALID_PARAMS_SINCE {
        RESOURCE_NOT_FOUND
    } else {
        INVALID_PARAMS
    }
}

/// A JSON-RPC error object: `{"code", "message", "data"}`, `data` left out when `None`.
///
/// ```
/// use rfc6570::mcp::JsonRpcError;
/// use serde_json::json;
///
/// let err = JsonRpcError::new(-32602, "Invalid cursor");
/// assert_eq!(serde_json::to_value(&err)?, json!({"code": -32602, "message": "Invalid cursor"}));
/// let err = err.with_data(json!({"cursor": "x"}));
/// assert_eq!(err.data, Some(json!({"cursor": "x"})));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[error("{message} (JSON-RPC error {code})")]
pub struct JsonRpcError {
    /// The error code.
    pub code: i32,
    /// A short, single-sentence description.
    pub message: String,
    /// Details, defined by the sender.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl JsonRpcError {
    /// An error with a code and a message, without data.
    ///
    /// ```
    /// let err = rfc6570::mcp::JsonRpcError::new(-32603, "Internal error");
    /// assert_eq!(err.to_string(), "Internal error (JSON-RPC error -32603)");
    /// ```
    pub fn new(code: i32, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// This error with `data`.
    ///
    /// ```
    /// use rfc6570::mcp::JsonRpcError;
    ///
    /// let err = JsonRpcError::new(-32602, "Resource not found").with_data(serde_json::json!({"uri": "x:"}));
    /// assert_eq!(err.data.unwrap()["uri"], "x:");
    /// ```
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }

    /// The MCP "resource not found" error for `uri`, with the code of the negotiated revision
    /// (see [`resource_not_found_code`]) and `{"uri": uri}` as data.
    ///
    /// ```
    /// use rfc6570::mcp::JsonRpcError;
    /// use serde_json::json;
    ///
    /// let err = JsonRpcError::resource_not_found("notes://x", "2026-07-28");
    /// assert_eq!(
    ///     serde_json::to_value(&err)?,
    ///     json!({"code": -32602, "message": "Resource not found", "data": {"uri": "notes://x"}})
    /// );
    /// assert_eq!(JsonRpcError::resource_not_found("notes://x", "2025-06-18").code, -32002);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn resource_not_found(uri: &str, protocol_version: &str) -> Self {
        Self::new(
            resource_not_found_code(protocol_version),
            "Resource not found",
        )
        .with_data(json!({ "uri": uri }))
    }
}

/// Who an object is meant for: the schema's `Role`.
///
/// ```
/// use rfc6570::mcp::Role;
/// assert_eq!(serde_json::to_value(Role::Assistant)?, "assistant");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// `"user"`.
    User,
    /// `"assistant"`.
    Assistant,
}

/// Hints for the client on how to use or show an object: the schema's `Annotations`.
///
/// ```
/// use rfc6570::mcp::{Annotations, Role};
/// use serde_json::json;
///
/// let a = Annotations::new()
///     .with_audience([Role::User, Role::Assistant])
///     .with_priority(0.5)
///     .with_last_modified("2025-01-12T15:00:58Z");
/// assert_eq!(
///     serde_json::to_value(&a)?,
///     json!({"audience": ["user", "assistant"], "priority": 0.5, "lastModified": "2025-01-12T15:00:58Z"})
/// );
/// assert_eq!(serde_json::to_value(Annotations::new())?, json!({}));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Annotations {
    /// The intended audience (`["user", "assistant"]` for both).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<Vec<Role>>,
    /// Importance from 0 (entirely optional) to 1 (effectively required).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<f64>,
    /// When the resource last changed, as an ISO 8601 string (`2025-01-12T15:00:58Z`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}

impl Annotations {
    /// Empty annotations.
    ///
    /// ```
    /// assert_eq!(rfc6570::mcp::Annotations::new().priority, None);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `audience`.
    ///
    /// ```
    /// use rfc6570::mcp::{Annotations, Role};
    /// assert_eq!(Annotations::new().with_audience([Role::User]).audience, Some(vec![Role::User]));
    /// ```
    pub fn with_audience(mut self, audience: impl IntoIterator<Item = Role>) -> Self {
        self.audience = Some(audience.into_iter().collect());
        self
    }

    /// Sets `priority`, which the schema bounds to 0..=1 (values outside are clamped).
    ///
    /// ```
    /// use rfc6570::mcp::Annotations;
    /// assert_eq!(Annotations::new().with_priority(0.8).priority, Some(0.8));
    /// assert_eq!(Annotations::new().with_priority(7.0).priority, Some(1.0));
    /// ```
    pub fn with_priority(mut self, priority: f64) -> Self {
        self.priority = Some(priority.clamp(0.0, 1.0));
        self
    }

    /// Sets `lastModified`.
    ///
    /// ```
    /// use rfc6570::mcp::Annotations;
    /// let a = Annotations::new().with_last_modified("2025-01-12T15:00:58Z");
    /// assert_eq!(a.last_modified.as_deref(), Some("2025-01-12T15:00:58Z"));
    /// ```
    pub fn with_last_modified(mut self, when: impl Into<String>) -> Self {
        self.last_modified = Some(when.into());
        self
    }
}

/// The background an icon is designed for: the schema's `Icon.theme`.
///
/// ```
/// use rfc6570::mcp::Theme;
/// assert_eq!(serde_json::to_value(Theme::Dark)?, "dark");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    /// `"light"`: for light backgrounds.
    Light,
    /// `"dark"`: for dark backgrounds.
    Dark,
}

/// An icon a client may show: the schema's `Icon`.
///
/// ```
/// use rfc6570::mcp::{Icon, Theme};
/// use serde_json::json;
///
/// let icon = Icon::new("https://example.com/log.svg")
///     .with_mime_type("image/svg+xml")
///     .with_sizes(["any"])
///     .with_theme(Theme::Light);
/// assert_eq!(
///     serde_json::to_value(&icon)?,
///     json!({"src": "https://example.com/log.svg", "mimeType": "image/svg+xml", "sizes": ["any"], "theme": "light"})
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Icon {
    /// The icon's URI: `https:` or a `data:` URI.
    pub src: String,
    /// A MIME type, where the source's is missing or generic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Sizes it can be used at, `WxH` (`48x48`) or `any`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sizes: Option<Vec<String>>,
    /// The theme it is designed for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theme: Option<Theme>,
}

impl Icon {
    /// An icon at `src`.
    ///
    /// ```
    /// assert_eq!(rfc6570::mcp::Icon::new("data:image/png;base64,AA==").src, "data:image/png;base64,AA==");
    /// ```
    pub fn new(src: impl Into<String>) -> Self {
        Self {
            src: src.into(),
            mime_type: None,
            sizes: None,
            theme: None,
        }
    }

    /// Sets `mimeType`.
    ///
    /// ```
    /// let icon = rfc6570::mcp::Icon::new("https://x/i.png").with_mime_type("image/png");
    /// assert_eq!(icon.mime_type.as_deref(), Some("image/png"));
    /// ```
    pub fn with_mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// Sets `sizes`.
    ///
    /// ```
    /// let icon = rfc6570::mcp::Icon::new("https://x/i.png").with_sizes(["48x48", "96x96"]);
    /// assert_eq!(icon.sizes.unwrap(), ["48x48", "96x96"]);
    /// ```
    pub fn with_sizes<S: Into<String>>(mut self, sizes: impl IntoIterator<Item = S>) -> Self {
        self.sizes = Some(sizes.into_iter().map(Into::into).collect());
        self
    }

    /// Sets `theme`.
    ///
    /// ```
    /// use rfc6570::mcp::{Icon, Theme};
    /// assert_eq!(Icon::new("https://x/i.png").with_theme(Theme::Dark).theme, Some(Theme::Dark));
    /// ```
    pub fn with_theme(mut self, theme: Theme) -> Self {
        self.theme = Some(theme);
        self
    }
}

/// A resource template as `resources/templates/list` lists it: the schema's `ResourceTemplate`.
///
/// The `uriTemplate` is a parsed [`UriTemplate`], so an invalid template cannot be listed, and
/// deserializing one with an invalid `uriTemplate` fails. Optional fields are left out of the
/// JSON when `None`.
///
/// ```
/// use rfc6570::mcp::{Annotations, ResourceTemplate, Role};
/// use serde_json::json;
///
/// let t = ResourceTemplate::parse("log://build/{job_id}{?lines}", "build-log")?
///     .with_title("Build log")
///     .with_description("The log of a CI job, optionally a range of lines")
///     .with_mime_type("text/plain")
///     .with_annotations(Annotations::new().with_audience([Role::Assistant]));
/// assert_eq!(
///     serde_json::to_value(&t)?,
///     json!({
///         "uriTemplate": "log://build/{job_id}{?lines}",
///         "name": "build-log",
///         "title": "Build log",
///         "description": "The log of a CI job, optionally a range of lines",
///         "mimeType": "text/plain",
///         "annotations": {"audience": ["assistant"]}
///     })
/// );
///
/// let bad = json!({"uriTemplate": "log://{job id}", "name": "x"});
/// assert!(serde_json::from_value::<ResourceTemplate>(bad).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ResourceTemplate {
    /// The RFC 6570 template.
    pub uri_template: UriTemplate,
    /// A programmatic name (and the display name when there is no title).
    pub name: String,
    /// A display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the template is for, as a hint to the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The MIME type of every resource the template matches, if they share one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Icons for a user interface.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl ResourceTemplate {
    /// A resource template for a parsed template, with its name.
    ///
    /// ```
    /// use rfc6570::{mcp::ResourceTemplate, UriTemplate};
    ///
    /// let t = ResourceTemplate::new(UriTemplate::parse("notes://{id}")?, "note");
    /// assert_eq!(t.name, "note");
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn new(uri_template: UriTemplate, name: impl Into<String>) -> Self {
        Self {
            uri_template,
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            annotations: None,
            icons: None,
            meta: None,
        }
    }

    /// Parses `template` and names it.
    ///
    /// ```
    /// use rfc6570::mcp::ResourceTemplate;
    ///
    /// assert!(ResourceTemplate::parse("notes://{id}", "note").is_ok());
    /// let err = ResourceTemplate::parse("notes://{id", "note").unwrap_err();
    /// assert_eq!(err.position(), Some(8));
    /// ```
    ///
    /// # Errors
    ///
    /// The template's parse error.
    pub fn parse(template: &str, name: impl Into<String>) -> Result<Self, Error> {
        Ok(Self::new(UriTemplate::parse(template)?, name))
    }
}

/// A concrete resource as `resources/list` lists it: the schema's `Resource`.
///
/// ```
/// use rfc6570::mcp::Resource;
/// use serde_json::json;
///
/// let r = Resource::new("config://app", "app-config").with_mime_type("application/json").with_size(120);
/// assert_eq!(
///     serde_json::to_value(&r)?,
///     json!({"uri": "config://app", "name": "app-config", "mimeType": "application/json", "size": 120})
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Resource {
    /// The resource's URI.
    pub uri: String,
    /// A programmatic name (and the display name when there is no title).
    pub name: String,
    /// A display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the resource is, as a hint to the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its MIME type, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Its size in bytes before any encoding, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Icons for a user interface.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl Resource {
    /// A resource at `uri` with its name.
    ///
    /// ```
    /// assert_eq!(rfc6570::mcp::Resource::new("config://app", "app").uri, "config://app");
    /// ```
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            annotations: None,
            size: None,
            icons: None,
            meta: None,
        }
    }

    /// Sets `size`.
    ///
    /// ```
    /// assert_eq!(rfc6570::mcp::Resource::new("config://app", "app").with_size(42).size, Some(42));
    /// ```
    pub fn with_size(mut self, size: u64) -> Self {
        self.size = Some(size);
        self
    }
}

/// The builder methods of the schema's fields that `ResourceTemplate` and `Resource` share
/// (the schema repeats them rather than nesting them, so the types do too). `$make` is an
/// expression making a value of `$ty`, for the examples.
macro_rules! shared_builders {
    ($ty:ident, $make:literal) => {
        impl $ty {
            #[doc = concat!("Sets `title`.\n\n```\n# use rfc6570::mcp::*;\nlet x = ", $make, ".with_title(\"Notes\");\nassert_eq!(x.title.as_deref(), Some(\"Notes\"));\n# Ok::<(), Box<dyn std::error::Error>>(())\n```")]
            pub fn with_title(mut self, title: impl Into<String>) -> Self {
                self.title = Some(title.into());
                self
            }

            #[doc = concat!("Sets `description`.\n\n```\n# use rfc6570::mcp::*;\nlet x = ", $make, ".with_description(\"By id\");\nassert_eq!(x.description.as_deref(), Some(\"By id\"));\n# Ok::<(), Box<dyn std::error::Error>>(())\n```")]
            pub fn with_description(mut self, description: impl Into<String>) -> Self {
                self.description = Some(description.into());
                self
            }

            #[doc = concat!("Sets `mimeType`.\n\n```\n# use rfc6570::mcp::*;\nlet x = ", $make, ".with_mime_type(\"text/markdown\");\nassert_eq!(x.mime_type.as_deref(), Some(\"text/markdown\"));\n# Ok::<(), Box<dyn std::error::Error>>(())\n```")]
            pub fn with_mime_type(mut self, mime_type: impl Into<String>) -> Self {
                self.mime_type = Some(mime_type.into());
                self
            }

            #[doc = concat!("Sets `annotations`.\n\n```\n# use rfc6570::mcp::*;\nlet x = ", $make, ".with_annotations(Annotations::new().with_priority(0.2));\nassert_eq!(x.annotations.unwrap().priority, Some(0.2));\n# Ok::<(), Box<dyn std::error::Error>>(())\n```")]
            pub fn with_annotations(mut self, annotations: Annotations) -> Self {
                self.annotations = Some(annotations);
                self
            }

            #[doc = concat!("Adds an icon.\n\n```\n# use rfc6570::mcp::*;\nlet x = ", $make, ".with_icon(Icon::new(\"https://example.com/a.png\"));\nassert_eq!(x.icons.unwrap()[0].src, \"https://example.com/a.png\");\n# Ok::<(), Box<dyn std::error::Error>>(())\n```")]
            pub fn with_icon(mut self, icon: Icon) -> Self {
                self.icons.get_or_insert_with(Vec::new).push(icon);
                self
            }

            #[doc = concat!("Sets `_meta`.\n\n```\n# use rfc6570::mcp::*;\nlet mut meta = serde_json::Map::new();\nmeta.insert(\"com.example/owner\".into(), \"ci\".into());\nlet x = ", $make, ".with_meta(meta);\nassert_eq!(serde_json::to_value(&x)?[\"_meta\"][\"com.example/owner\"], \"ci\");\n# Ok::<(), Box<dyn std::error::Error>>(())\n```")]
            pub fn with_meta(mut self, meta: Meta) -> Self {
                self.meta = Some(meta);
                self
            }
        }
    };
}

shared_builders!(
    ResourceTemplate,
    r#"ResourceTemplate::parse("notes://{id}", "note")?"#
);
shared_builders!(Resource, r#"Resource::new("config://app", "app")"#);

/// What a registry entry is listed as.
#[derive(Debug)]
enum Listing {
    Template(ResourceTemplate),
    Resource(Resource),
}

struct Entry<H> {
    listing: Listing,
    handler: H,
}

impl Listing {
    /// The key cursors name an entry by: its template text or URI.
    fn key(&self) -> &str {
        match self {
            Self::Template(t) => t.uri_template.as_str(),
            Self::Resource(r) => &r.uri,
        }
    }
}

/// One page of `resources/templates/list`: `{"resourceTemplates": [...], "nextCursor": ...}`.
///
/// Only the page's own fields: the fields of the result envelope that depend on the negotiated
/// revision (`resultType`, `ttlMs`, `cacheScope`, `_meta`) are the SDK's or the server's.
///
/// ```
/// use rfc6570::mcp::{ResourceTemplate, Resources};
/// use serde_json::json;
///
/// let mut resources = Resources::new();
/// resources.insert(ResourceTemplate::parse("notes://{id}", "note")?, ())?;
/// let page = resources.list_templates(None)?;
/// assert_eq!(
///     serde_json::to_value(&page)?,
///     json!({"resourceTemplates": [{"uriTemplate": "notes://{id}", "name": "note"}]})
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TemplatePage<'a> {
    /// The templates on this page, in insertion order.
    pub resource_templates: Vec<&'a ResourceTemplate>,
    /// The cursor of the next page, if there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// One page of `resources/list`: `{"resources": [...], "nextCursor": ...}`; see
/// [`TemplatePage`] about the envelope.
///
/// ```
/// use rfc6570::mcp::{Resource, Resources};
/// use serde_json::json;
///
/// let mut resources = Resources::new();
/// resources.insert_resource(Resource::new("config://app", "app"), ())?;
/// let page = resources.list_resources(None)?;
/// assert_eq!(serde_json::to_value(&page)?, json!({"resources": [{"uri": "config://app", "name": "app"}]}));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourcePage<'a> {
    /// The resources on this page, in insertion order.
    pub resources: Vec<&'a Resource>,
    /// The cursor of the next page, if there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// A cursor that names no page of this list: malformed, from the other list, or naming an
/// entry that has since been removed.
///
/// ```
/// use rfc6570::mcp::Resources;
///
/// let resources: Resources<()> = Resources::new();
/// let err = resources.list_templates(Some("nonsense")).unwrap_err();
/// assert_eq!(err.to_string(), "invalid cursor \"nonsense\"");
/// assert_eq!(err.to_json_rpc().code, -32602);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid cursor {cursor:?}")]
pub struct InvalidCursor {
    /// The cursor received.
    pub cursor: String,
}

impl InvalidCursor {
    /// The JSON-RPC error the MCP schema gives an invalid cursor: -32602, "Invalid cursor".
    ///
    /// ```
    /// use rfc6570::mcp::InvalidCursor;
    /// let err = InvalidCursor { cursor: "x".into() }.to_json_rpc();
    /// assert_eq!((err.code, err.message.as_str()), (-32602, "Invalid cursor"));
    /// ```
    pub fn to_json_rpc(&self) -> JsonRpcError {
        JsonRpcError::new(INVALID_PARAMS, "Invalid cursor")
    }
}

impl From<InvalidCursor> for JsonRpcError {
    fn from(e: InvalidCursor) -> Self {
        e.to_json_rpc()
    }
}

/// Why a `resources/read` URI has no resource. [`to_json_rpc`](Self::to_json_rpc) turns it into
/// the error to answer with.
///
/// `Display` is for the server's logs: it may quote the offending value.
///
/// ```
/// use rfc6570::mcp::{ReadError, ResourceTemplate, Resources};
/// use rfc6570::{RouteError, Rule};
///
/// let mut resources = Resources::new();
/// resources.insert(ResourceTemplate::parse("file:///{+path}", "file")?, ())?;
/// let err = resources.route("file:///a/../../etc/passwd").unwrap_err();
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
    #[error("{uri}: {error}")]
    Route {
        /// The URI read.
        uri: String,
        /// Why the router refused it.
        error: RouteError,
    },
    /// The URI matched, but its captures do not fit the handler's parameter type.
    #[error("{uri}: {error}")]
    Params {
        /// The URI read.
        uri: String,
        /// Which variable does not fit, and why.
        error: ExtractError,
    },
}

impl ReadError {
    /// The URI that was read.
    ///
    /// ```
    /// use rfc6570::mcp::Resources;
    /// let resources: Resources<()> = Resources::new();
    /// assert_eq!(resources.route("x://y").unwrap_err().uri(), "x://y");
    /// ```
    pub fn uri(&self) -> &str {
        match self {
            Self::Route { uri, .. } | Self::Params { uri, .. } => uri,
        }
    }

    /// The JSON-RPC error for a peer on `protocol_version`: "resource not found" with the code
    /// of that revision ([`resource_not_found_code`]) and `{"uri": ...}` as data.
    ///
    /// Every refusal is a resource that does not exist, so each gets that code; the message
    /// says why, and never repeats a decoded value (a path-safety refusal names the template,
    /// the variable and the rule). A router whose templates cannot be compiled is the server's
    /// fault: [`INTERNAL_ERROR`].
    ///
    /// ```
    /// use rfc6570::mcp::{ResourceTemplate, Resources};
    /// use serde_json::json;
    ///
    /// let mut resources = Resources::new();
    /// resources.insert(ResourceTemplate::parse("file:///{+path}", "file")?, ())?;
    /// let err = resources.route("file:///..%2F..%2Fetc%2Fpasswd").unwrap_err().to_json_rpc("2026-07-28");
    /// assert_eq!(err.code, -32602);
    /// assert_eq!(
    ///     err.message,
    ///     "Resource not found: variable `path` of `file:///{+path}` holds \
    ///      a percent-triplet left after decoding (double encoding)"
    /// );
    /// assert!(!err.message.contains("passwd"));
    /// assert_eq!(err.data, Some(json!({"uri": "file:///..%2F..%2Fetc%2Fpasswd"})));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_json_rpc(&self, protocol_version: &str) -> JsonRpcError {
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
                    .with_data(json!({ "uri": uri }));
            }
            // These messages name templates, variables, rules, byte offsets and parameter
            // names, never a decoded value.
            Self::Route { error, .. } => Some(error.to_string()),
            Self::Params { error, .. } => Some(match error.variable() {
                Some(var) => format!("variable `{var}` does not have the expected form"),
                None => "the URI's variables do not have the expected form".to_owned(),
            }),
        };
        let mut err = JsonRpcError::resource_not_found(self.uri(), protocol_version);
        if let Some(detail) = detail {
            err.message = format!("Resource not found: {detail}");
        }
        err
    }
}

/// A `resources/read` URI routed to its entry; see [`Resources::route`].
#[derive(Debug)]
#[non_exhaustive]
pub struct ResourceMatch<'r, H> {
    /// The handler registered with the entry.
    pub handler: &'r H,
    /// The template that matched (for a static resource, its URI as a template).
    pub template: &'r UriTemplate,
    /// The template's variables, decoded and checked for path safety.
    pub captures: Captures<'r>,
    /// The URI read.
    pub uri: &'r str,
    listing: &'r Listing,
}

impl<'r, H> ResourceMatch<'r, H> {
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
    /// let log: Log = resources.route("log://build/7")?.params()?;
    /// assert_eq!(log.job_id, 7);
    ///
    /// let err = resources.route("log://build/seven")?.params::<Log>().unwrap_err();
    /// assert_eq!(
    ///     err.to_json_rpc("2025-11-25").message,
    ///     "Resource not found: variable `job_id` does not have the expected form"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ReadError::Params`] naming the variable that does not fit.
    pub fn params<T: Deserialize<'r>>(&self) -> Result<T, ReadError> {
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
    /// assert_eq!(resources.route("notes://7")?.resource_template().unwrap().name, "note");
    /// assert!(resources.route("notes://index")?.resource_template().is_none());
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
    /// assert_eq!(resources.route("config://app")?.resource().unwrap().name, "app");
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
    /// resources.insert(ResourceTemplate::parse("notes://{id}", "note")?.with_mime_type("text/markdown"), ())?;
    /// assert_eq!(resources.route("notes://7")?.mime_type(), Some("text/markdown"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn mime_type(&self) -> Option<&'r str> {
        match self.listing {
            Listing::Template(t) => t.mime_type.as_deref(),
            Listing::Resource(r) => r.mime_type.as_deref(),
        }
    }
}

/// A reference in a `completion/complete` request: the schema's `ResourceTemplateReference`
/// (`ref/resource`) or `PromptReference` (`ref/prompt`).
///
/// ```
/// use rfc6570::mcp::Reference;
/// use serde_json::json;
///
/// let r: Reference = serde_json::from_value(json!({"type": "ref/resource", "uri": "notes://{id}"}))?;
/// assert_eq!(r, Reference::Resource { uri: "notes://{id}".into() });
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
#[non_exhaustive]
pub enum Reference {
    /// A resource template (or resource), by its exact text.
    #[serde(rename = "ref/resource")]
    Resource {
        /// The template's text.
        uri: String,
    },
    /// A prompt, by name.
    #[serde(rename = "ref/prompt")]
    Prompt {
        /// The prompt's name.
        name: String,
        /// Its display name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
    },
}

/// The argument being completed, with what the user typed so far.
///
/// ```
/// use rfc6570::mcp::CompletionArgument;
/// let a = CompletionArgument { name: "id".into(), value: "no".into() };
/// assert_eq!(serde_json::to_value(&a)?, serde_json::json!({"name": "id", "value": "no"}));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompletionArgument {
    /// The argument's (variable's) name.
    pub name: String,
    /// The partial value to complete.
    pub value: String,
}

/// `context` of a completion request: variables already chosen.
///
/// ```
/// use rfc6570::mcp::CompletionContext;
/// let c: CompletionContext = serde_json::from_str(r#"{"arguments": {"lang": "en"}}"#)?;
/// assert_eq!(c.arguments.unwrap()["lang"], "en");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CompletionContext {
    /// Previously resolved variables, by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<BTreeMap<String, String>>,
}

/// The parameters of `completion/complete`: the schema's `CompleteRequestParams`.
///
/// ```
/// use rfc6570::mcp::CompleteRequest;
/// use serde_json::json;
///
/// let request = CompleteRequest::resource("search://docs{?q,lang}", "q", "ur")
///     .with_arguments([("lang", "en")]);
/// assert_eq!(
///     serde_json::to_value(&request)?,
///     json!({
///         "ref": {"type": "ref/resource", "uri": "search://docs{?q,lang}"},
///         "argument": {"name": "q", "value": "ur"},
///         "context": {"arguments": {"lang": "en"}}
///     })
/// );
/// let back: CompleteRequest = serde_json::from_value(serde_json::to_value(&request)?)?;
/// assert_eq!(back, request);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CompleteRequest {
    /// What is being completed.
    #[serde(rename = "ref")]
    pub reference: Reference,
    /// The argument and its partial value.
    pub argument: CompletionArgument,
    /// Variables already chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<CompletionContext>,
    /// Request metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl CompleteRequest {
    /// A request to complete `argument` of the resource template `template`, from `value`.
    ///
    /// ```
    /// use rfc6570::mcp::{CompleteRequest, Reference};
    /// let r = CompleteRequest::resource("notes://{id}", "id", "a");
    /// assert_eq!(r.reference, Reference::Resource { uri: "notes://{id}".into() });
    /// assert_eq!(r.argument.value, "a");
    /// ```
    pub fn resource(
        template: impl Into<String>,
        argument: impl Into<String>,
        value: impl Into<String>,
    ) -> Self {
        Self {
            reference: Reference::Resource {
                uri: template.into(),
            },
            argument: CompletionArgument {
                name: argument.into(),
                value: value.into(),
            },
            context: None,
            meta: None,
        }
    }

    /// Adds already chosen variables to `context.arguments`.
    ///
    /// ```
    /// use rfc6570::mcp::CompleteRequest;
    /// let r = CompleteRequest::resource("search://docs{?q,lang}", "q", "").with_arguments([("lang", "de")]);
    /// assert_eq!(r.context.unwrap().arguments.unwrap()["lang"], "de");
    /// ```
    pub fn with_arguments<K, V>(mut self, arguments: impl IntoIterator<Item = (K, V)>) -> Self
    where
        K: Into<String>,
        V: Into<String>,
    {
        let context = self.context.get_or_insert_with(Default::default);
        let map = context.arguments.get_or_insert_with(Default::default);
        map.extend(arguments.into_iter().map(|(k, v)| (k.into(), v.into())));
        self
    }
}

/// Why a completion request names nothing this registry can complete. All are answered with
/// [`INVALID_PARAMS`].
///
/// ```
/// use rfc6570::mcp::{CompleteRequest, CompletionError, ResourceTemplate, Resources};
///
/// let mut resources = Resources::new();
/// resources.insert(ResourceTemplate::parse("notes://{id}", "note")?, ())?;
/// let request = CompleteRequest::resource("notes://{id}", "name", "");
/// let err = resources.complete(&request).unwrap_err();
/// assert_eq!(err.to_string(), "`name` is not a variable of `notes://{id}`");
/// assert_eq!(err.to_json_rpc().code, -32602);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CompletionError {
    /// The request is about a prompt, which a resource registry does not know.
    #[error("completion for prompt `{name}` is not handled by the resource registry")]
    Prompt {
        /// The prompt's name.
        name: String,
    },
    /// No template (or resource) has this exact text.
    #[error("no resource template `{uri}`")]
    UnknownTemplate {
        /// The text given.
        uri: String,
    },
    /// The template has no variable of this name.
    #[error("`{argument}` is not a variable of `{template}`")]
    UnknownArgument {
        /// The template.
        template: String,
        /// The argument given.
        argument: String,
    },
}

impl CompletionError {
    /// The JSON-RPC error to answer with: [`INVALID_PARAMS`], with this error as the message.
    ///
    /// ```
    /// use rfc6570::mcp::CompletionError;
    /// let err = CompletionError::UnknownTemplate { uri: "x://{y}".into() }.to_json_rpc();
    /// assert_eq!((err.code, err.message.as_str()), (-32602, "no resource template `x://{y}`"));
    /// ```
    pub fn to_json_rpc(&self) -> JsonRpcError {
        JsonRpcError::new(INVALID_PARAMS, self.to_string())
    }
}

impl From<CompletionError> for JsonRpcError {
    fn from(e: CompletionError) -> Self {
        e.to_json_rpc()
    }
}

/// A checked completion request: the template, the variable to complete, what was typed, and
/// the variables already chosen. The server produces candidates from it; [`complete_from`]
/// filters them into the result.
///
/// [`complete_from`]: Self::complete_from
///
/// ```
/// use rfc6570::mcp::{CompleteRequest, ResourceTemplate, Resources};
///
/// let mut resources = Resources::new();
/// resources.insert(ResourceTemplate::parse("search://docs{?q,lang}", "search")?, "search")?;
///
/// let request = CompleteRequest::resource("search://docs{?q,lang}", "q", "ro")
///     .with_arguments([("lang", "en"), ("unrelated", "x")]);
/// let completion = resources.complete(&request)?;
/// assert_eq!(*completion.handler, "search");
/// assert_eq!(completion.argument, "q");
/// assert_eq!(completion.value, "ro");
/// assert_eq!(completion.chosen("lang"), Some("en"));
/// assert_eq!(completion.chosen("unrelated"), None); // not a variable of the template
///
/// let result = completion.complete_from(["router", "rfc", "routing"]);
/// assert_eq!(result.completion.values, ["router", "routing"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub struct Completion<'r, H> {
    /// The handler registered with the template.
    pub handler: &'r H,
    /// The template.
    pub template: &'r ResourceTemplate,
    /// The variable to complete.
    pub argument: &'r str,
    /// What the user typed so far.
    pub value: &'r str,
    /// The already chosen values of the template's variables (others are dropped).
    pub chosen: Vec<(&'r str, &'r str)>,
}

impl<H> Completion<'_, H> {
    /// The already chosen value of the variable `name`.
    ///
    /// ```
    /// use rfc6570::mcp::{CompleteRequest, ResourceTemplate, Resources};
    ///
    /// let mut resources = Resources::new();
    /// resources.insert(ResourceTemplate::parse("db://{table}/{id}", "row")?, ())?;
    /// let request = CompleteRequest::resource("db://{table}/{id}", "id", "").with_arguments([("table", "users")]);
    /// assert_eq!(resources.complete(&request)?.chosen("table"), Some("users"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn chosen(&self, name: &str) -> Option<&str> {
        self.chosen
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, v)| v)
    }

    /// The result for these candidates: those that start with [`value`](Self::value), in order,
    /// at most [`MAX_COMPLETION_VALUES`] of them, with `total` and `hasMore` set.
    ///
    /// ```
    /// use rfc6570::mcp::{CompleteRequest, ResourceTemplate, Resources};
    /// use serde_json::json;
    ///
    /// let mut resources = Resources::new();
    /// resources.insert(ResourceTemplate::parse("notes://{id}", "note")?, ())?;
    /// let request = CompleteRequest::resource("notes://{id}", "id", "");
    /// let completion = resources.complete(&request)?;
    /// let result = completion.complete_from((0..150).map(|n| n.to_string()));
    /// assert_eq!(result.completion.values.len(), 100);
    /// assert_eq!(result.completion.total, Some(150));
    /// assert_eq!(result.completion.has_more, Some(true));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn complete_from<I>(&self, candidates: I) -> CompleteResult
    where
        I: IntoIterator,
        I::Item: Into<String> + AsRef<str>,
    {
        let mut values = Vec::new();
        let mut total = 0u64;
        for candidate in candidates {
            if !candidate.as_ref().starts_with(self.value) {
                continue;
            }
            total += 1;
            if values.len() < MAX_COMPLETION_VALUES {
                values.push(candidate.into());
            }
        }
        CompleteResult::new(values, Some(total))
    }
}

/// The `completion` object of a `completion/complete` result.
///
/// ```
/// use rfc6570::mcp::CompletionValues;
/// let v = CompletionValues { values: vec!["a".into()], total: None, has_more: None };
/// assert_eq!(serde_json::to_value(&v)?, serde_json::json!({"values": ["a"]}));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompletionValues {
    /// The candidates, at most [`MAX_COMPLETION_VALUES`].
    pub values: Vec<String>,
    /// How many candidates there are in all, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// Whether there are more candidates than `values` holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub has_more: Option<bool>,
}

/// The result of `completion/complete`: the schema's `CompleteResult`, without the envelope
/// fields (`resultType`, `_meta`) that depend on the negotiated revision.
///
/// ```
/// use rfc6570::mcp::CompleteResult;
/// use serde_json::json;
///
/// let result = CompleteResult::new(vec!["42".into(), "43".into()], Some(2));
/// assert_eq!(
///     serde_json::to_value(&result)?,
///     json!({"completion": {"values": ["42", "43"], "total": 2, "hasMore": false}})
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompleteResult {
    /// The candidates.
    pub completion: CompletionValues,
}

impl CompleteResult {
    /// A result with these values (cut to [`MAX_COMPLETION_VALUES`]) out of `total`; `hasMore`
    /// is set when `total` is known.
    ///
    /// ```
    /// use rfc6570::mcp::CompleteResult;
    /// let r = CompleteResult::new(vec!["a".into()], None);
    /// assert_eq!((r.completion.total, r.completion.has_more), (None, None));
    /// let r = CompleteResult::new(vec!["a".into()], Some(5));
    /// assert_eq!(r.completion.has_more, Some(true));
    /// ```
    pub fn new(mut values: Vec<String>, total: Option<u64>) -> Self {
        values.truncate(MAX_COMPLETION_VALUES);
        let has_more = total.map(|t| t > values.len() as u64);
        Self {
            completion: CompletionValues {
                values,
                total,
                has_more,
            },
        }
    }
}

/// A registry of MCP resources: resource templates and static resources, each with a handler
/// of type `H`, routed by one [`Router`].
///
/// * **Listing.** [`list_templates`](Self::list_templates) and
///   [`list_resources`](Self::list_resources) return pages in insertion order, of
///   [`page_size`](Self::page_size) entries (100 by default). The next page's cursor is opaque;
///   it names the entry the page starts at, so entries added meanwhile (at the end) are still
///   listed and none is listed twice; a cursor whose entry was removed is an [`InvalidCursor`].
/// * **Reading.** [`route`](Self::route) routes a URI with the router's precedence and path
///   safety, and gives the handler with the captures, which
///   [`ResourceMatch::params`] extracts into a typed value. A refusal is a [`ReadError`], whose
///   [`to_json_rpc`](ReadError::to_json_rpc) is the "resource not found" error of the
///   negotiated revision.
/// * **Completion.** [`complete`](Self::complete) checks a `completion/complete` request against
///   the template it names.
///
/// ```
/// use rfc6570::mcp::{Resource, ResourceTemplate, Resources};
///
/// enum Handler { File, Readme }
///
/// let mut resources = Resources::new().page_size(10);
/// resources.insert(ResourceTemplate::parse("file:///{+path}", "file")?, Handler::File)?;
/// resources.insert_resource(Resource::new("file:///README.md", "readme"), Handler::Readme)?;
///
/// // The static resource wins over the template for its own URI.
/// assert!(matches!(resources.route("file:///README.md")?.handler, Handler::Readme));
/// let read = resources.route("file:///docs/guide.md")?;
/// assert!(matches!(read.handler, Handler::File));
/// assert_eq!(read.captures.get("path").unwrap().decoded(), "docs/guide.md");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Resources<H> {
    router: Router<Entry<H>>,
    page_size: usize,
}

impl<H> Default for Resources<H> {
    fn default() -> Self {
        Self::with_router(Router::builder())
    }
}

impl<H> fmt::Debug for Resources<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Resources")
            .field(
                "entries",
                &self
                    .router
                    .iter()
                    .map(|(_, e)| e.listing.key())
                    .collect::<Vec<_>>(),
            )
            .field("page_size", &self.page_size)
            .finish()
    }
}

impl<H> Resources<H> {
    /// The default page size of the lists.
    pub const DEFAULT_PAGE_SIZE: usize = 100;

    /// An empty registry with the router's default options.
    ///
    /// ```
    /// let resources: rfc6570::mcp::Resources<()> = rfc6570::mcp::Resources::new();
    /// assert!(resources.is_empty());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty registry whose router has the options of `builder`.
    ///
    /// ```
    /// use rfc6570::{mcp::{ResourceTemplate, Resources}, Router};
    ///
    /// let mut resources = Resources::with_router(Router::builder().strict_query(true));
    /// resources.insert(ResourceTemplate::parse("search://docs{?q}", "search")?, ())?;
    /// assert!(resources.route("search://docs?q=x&utm=y").is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_router(builder: RouterBuilder) -> Self {
        Self {
            router: builder.build(),
            page_size: Self::DEFAULT_PAGE_SIZE,
        }
    }

    /// Sets the number of entries per listed page (at least 1).
    ///
    /// ```
    /// use rfc6570::mcp::{ResourceTemplate, Resources};
    ///
    /// let mut resources = Resources::new().page_size(1);
    /// resources.insert(ResourceTemplate::parse("a://{x}", "a")?, ())?;
    /// resources.insert(ResourceTemplate::parse("b://{x}", "b")?, ())?;
    /// let first = resources.list_templates(None)?;
    /// assert_eq!(first.resource_templates.len(), 1);
    /// let second = resources.list_templates(first.next_cursor.as_deref())?;
    /// assert_eq!(second.resource_templates[0].name, "b");
    /// assert_eq!(second.next_cursor, None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn page_size(mut self, page_size: usize) -> Self {
        self.page_size = page_size.max(1);
        self
    }

    /// Registers a resource template with its handler.
    ///
    /// ```
    /// use rfc6570::mcp::{ResourceTemplate, Resources};
    ///
    /// let mut resources = Resources::new();
    /// resources.insert(ResourceTemplate::parse("notes://{id}", "note")?, 1)?;
    /// assert!(resources.insert(ResourceTemplate::parse("notes://{name}", "other")?, 2).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Router::insert`]: a template that matches the same URIs as another.
    pub fn insert(&mut self, template: ResourceTemplate, handler: H) -> Result<(), InsertError> {
        self.insert_with(template, handler, RouteOptions::default())
    }

    /// Registers a resource template with its handler and its own route options (path
    /// safety per template or variable).
    ///
    /// ```
    /// use rfc6570::{mcp::{ResourceTemplate, Resources}, RouteOptions, SafetyPolicy};
    ///
    /// let mut resources = Resources::new();
    /// let any_text = RouteOptions::default().var_safety("text", SafetyPolicy::OFF);
    /// resources.insert_with(ResourceTemplate::parse("echo://{+text}", "echo")?, (), any_text)?;
    /// assert!(resources.route("echo://../x").is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Router::insert_with`].
    pub fn insert_with(
        &mut self,
        template: ResourceTemplate,
        handler: H,
        options: RouteOptions,
    ) -> Result<(), InsertError> {
        let uri_template = template.uri_template.clone();
        let entry = Entry {
            listing: Listing::Template(template),
            handler,
        };
        self.router.insert_with(uri_template, entry, options)
    }

    /// Registers a static resource with its handler. Its URI is routed as a template without
    /// expressions, which wins over every template for that URI.
    ///
    /// ```
    /// use rfc6570::mcp::{Resource, Resources};
    ///
    /// let mut resources = Resources::new();
    /// resources.insert_resource(Resource::new("config://app", "app"), ())?;
    /// assert!(resources.route("config://app").is_ok());
    /// assert!(resources.insert_resource(Resource::new("config://{x}", "x"), ()).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`InsertError::Parse`] for a URI that is not a valid template literal: one with a
    /// character that a URI does not allow raw either (space, `"`, `<`, `>`, `\`, `^`, `` ` ``,
    /// `{`, `|`, `}`, a control character), or a `%` without two hex digits; and the errors of
    /// [`Router::insert`].
    pub fn insert_resource(&mut self, resource: Resource, handler: H) -> Result<(), InsertError> {
        let template = UriTemplate::parse(&resource.uri)?;
        if let Some(e) = template.expressions().next() {
            let at = Some(e.offset());
            return Err(Error::new(ErrorKind::InvalidLiteral, at, &resource.uri).into());
        }
        let entry = Entry {
            listing: Listing::Resource(resource),
            handler,
        };
        self.router.insert(template, entry)
    }

    /// Removes an entry by its template text or URI, and returns its handler.
    ///
    /// ```
    /// use rfc6570::mcp::{ResourceTemplate, Resources};
    ///
    /// let mut resources = Resources::new();
    /// resources.insert(ResourceTemplate::parse("notes://{id}", "note")?, 5)?;
    /// assert_eq!(resources.remove("notes://{id}"), Some(5));
    /// assert!(resources.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn remove(&mut self, key: &str) -> Option<H> {
        self.router.remove(key).map(|e| e.handler)
    }

    /// The number of entries, templates and resources.
    ///
    /// ```
    /// let resources: rfc6570::mcp::Resources<()> = rfc6570::mcp::Resources::new();
    /// assert_eq!(resources.len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.router.len()
    }

    /// Whether there are no entries.
    ///
    /// ```
    /// let resources: rfc6570::mcp::Resources<()> = rfc6570::mcp::Resources::new();
    /// assert!(resources.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.router.is_empty()
    }

    /// The resource templates with their handlers, in insertion order.
    ///
    /// ```
    /// use rfc6570::mcp::{Resource, ResourceTemplate, Resources};
    ///
    /// let mut resources = Resources::new();
    /// resources.insert(ResourceTemplate::parse("notes://{id}", "note")?, 'n')?;
    /// resources.insert_resource(Resource::new("config://app", "app"), 'c')?;
    /// let names: Vec<_> = resources.templates().map(|(t, h)| (t.name.as_str(), *h)).collect();
    /// assert_eq!(names, [("note", 'n')]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn templates(&self) -> impl Iterator<Item = (&ResourceTemplate, &H)> + '_ {
        self.router.iter().filter_map(|(_, e)| match &e.listing {
            Listing::Template(t) => Some((t, &e.handler)),
            Listing::Resource(_) => None,
        })
    }

    /// The static resources with their handlers, in insertion order.
    ///
    /// ```
    /// use rfc6570::mcp::{Resource, Resources};
    ///
    /// let mut resources = Resources::new();
    /// resources.insert_resource(Resource::new("config://app", "app"), ())?;
    /// assert_eq!(resources.resources().count(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resources(&self) -> impl Iterator<Item = (&Resource, &H)> + '_ {
        self.router.iter().filter_map(|(_, e)| match &e.listing {
            Listing::Resource(r) => Some((r, &e.handler)),
            Listing::Template(_) => None,
        })
    }

    /// The resource template with this exact text, and its handler.
    ///
    /// ```
    /// use rfc6570::mcp::{ResourceTemplate, Resources};
    ///
    /// let mut resources = Resources::new();
    /// resources.insert(ResourceTemplate::parse("notes://{id}", "note")?, ())?;
    /// assert_eq!(resources.template("notes://{id}").unwrap().0.name, "note");
    /// assert!(resources.template("notes://{ id}").is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn template(&self, text: &str) -> Option<(&ResourceTemplate, &H)> {
        match self.router.get(text) {
            Some((
                _,
                Entry {
                    listing: Listing::Template(t),
                    handler,
                },
            )) => Some((t, handler)),
            _ => None,
        }
    }

    /// One page of `resources/templates/list`: the first page for `None`, else the page that
    /// `cursor` (a `nextCursor` from an earlier page) names.
    ///
    /// ```
    /// use rfc6570::mcp::{ResourceTemplate, Resources};
    ///
    /// let mut resources = Resources::new().page_size(2);
    /// for scheme in ["a", "b", "c"] {
    ///     resources.insert(ResourceTemplate::parse(&format!("{scheme}://{{x}}"), scheme)?, ())?;
    /// }
    /// let mut names = Vec::new();
    /// let mut cursor = None;
    /// loop {
    ///     let page = resources.list_templates(cursor.as_deref())?;
    ///     names.extend(page.resource_templates.iter().map(|t| t.name.clone()));
    ///     match page.next_cursor {
    ///         Some(next) => cursor = Some(next),
    ///         None => break,
    ///     }
    /// }
    /// assert_eq!(names, ["a", "b", "c"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`InvalidCursor`] for a cursor that names no page of this list.
    pub fn list_templates(&self, cursor: Option<&str>) -> Result<TemplatePage<'_>, InvalidCursor> {
        let (items, next_cursor) = self.page(cursor, CURSOR_TEMPLATES, |l| match l {
            Listing::Template(t) => Some(t),
            Listing::Resource(_) => None,
        })?;
        Ok(TemplatePage {
            resource_templates: items,
            next_cursor,
        })
    }

    /// One page of `resources/list`; see [`list_templates`](Self::list_templates).
    ///
    /// ```
    /// use rfc6570::mcp::{Resource, Resources};
    ///
    /// let mut resources = Resources::new().page_size(1);
    /// resources.insert_resource(Resource::new("config://a", "a"), ())?;
    /// resources.insert_resource(Resource::new("config://b", "b"), ())?;
    /// let first = resources.list_resources(None)?;
    /// let second = resources.list_resources(first.next_cursor.as_deref())?;
    /// assert_eq!(second.resources[0].uri, "config://b");
    /// // A cursor of one list is no cursor of the other.
    /// assert!(resources.list_templates(first.next_cursor.as_deref()).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`InvalidCursor`] for a cursor that names no page of this list.
    pub fn list_resources(&self, cursor: Option<&str>) -> Result<ResourcePage<'_>, InvalidCursor> {
        let (items, next_cursor) = self.page(cursor, CURSOR_RESOURCES, |l| match l {
            Listing::Resource(r) => Some(r),
            Listing::Template(_) => None,
        })?;
        Ok(ResourcePage {
            resources: items,
            next_cursor,
        })
    }

    fn page<'a, T>(
        &'a self,
        cursor: Option<&str>,
        tag: char,
        pick: impl Fn(&'a Listing) -> Option<&'a T>,
    ) -> Result<(Vec<&'a T>, Option<String>), InvalidCursor> {
        let mut entries = self
            .router
            .iter()
            .filter_map(|(_, e)| pick(&e.listing).map(|item| (e.listing.key(), item)))
            .peekable();
        if let Some(cursor) = cursor {
            let invalid = || InvalidCursor {
                cursor: cursor.to_owned(),
            };
            let key = decode_cursor(cursor, tag).ok_or_else(invalid)?;
            while entries.next_if(|(k, _)| *k != key).is_some() {}
            if entries.peek().is_none() {
                return Err(invalid());
            }
        }
        let items = entries
            .by_ref()
            .take(self.page_size)
            .map(|(_, item)| item)
            .collect();
        let next = entries.next().map(|(key, _)| encode_cursor(key, tag));
        Ok((items, next))
    }

    /// Routes a `resources/read` URI to its entry, with the router's precedence and path
    /// safety.
    ///
    /// ```
    /// use rfc6570::mcp::{ResourceTemplate, Resources};
    ///
    /// let mut resources = Resources::new();
    /// resources.insert(ResourceTemplate::parse("search://docs{?q,lang}", "search")?, "search")?;
    /// let read = resources.route("search://docs?q=uri%20templates&lang=en")?;
    /// assert_eq!(*read.handler, "search");
    /// assert_eq!(read.captures.get("q").unwrap().decoded(), "uri templates");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ReadError::Route`] with the router's [`RouteError`].
    pub fn route<'r>(&'r self, uri: &'r str) -> Result<ResourceMatch<'r, H>, ReadError> {
        let routed = self.router.at(uri).map_err(|error| ReadError::Route {
            uri: uri.to_owned(),
            error,
        })?;
        Ok(ResourceMatch {
            handler: &routed.value.handler,
            template: routed.template,
            captures: routed.captures,
            uri,
            listing: &routed.value.listing,
        })
    }

    /// Checks a `completion/complete` request: it must name a template of this registry by its
    /// exact text, and an argument that is one of the template's variables. The variables in
    /// `context.arguments` that the template has are kept as already chosen.
    ///
    /// ```
    /// use rfc6570::mcp::{CompleteRequest, CompletionError, ResourceTemplate, Resources};
    ///
    /// let mut resources = Resources::new();
    /// resources.insert(ResourceTemplate::parse("log://build/{job_id}{?lines}", "log")?, ["41", "42"])?;
    ///
    /// let request = CompleteRequest::resource("log://build/{job_id}{?lines}", "job_id", "4");
    /// let completion = resources.complete(&request)?;
    /// let result = completion.complete_from(completion.handler.iter().copied());
    /// assert_eq!(result.completion.values, ["41", "42"]);
    ///
    /// let unknown = CompleteRequest::resource("log://{id}", "id", "");
    /// assert!(matches!(resources.complete(&unknown), Err(CompletionError::UnknownTemplate { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`CompletionError`]: a prompt reference, an unknown template, or an argument that is not
    /// one of its variables.
    pub fn complete<'r>(
        &'r self,
        request: &'r CompleteRequest,
    ) -> Result<Completion<'r, H>, CompletionError> {
        let uri = match &request.reference {
            Reference::Resource { uri } => uri,
            Reference::Prompt { name, .. } => {
                return Err(CompletionError::Prompt { name: name.clone() })
            }
        };
        let Some((_, entry)) = self.router.get(uri) else {
            return Err(CompletionError::UnknownTemplate { uri: uri.clone() });
        };
        let argument = request.argument.name.as_str();
        let unknown_argument = || CompletionError::UnknownArgument {
            template: uri.clone(),
            argument: argument.to_owned(),
        };
        let Listing::Template(template) = &entry.listing else {
            return Err(unknown_argument());
        };
        let is_variable = |name: &str| template.uri_template.variables().any(|v| v.name() == name);
        if !is_variable(argument) {
            return Err(unknown_argument());
        }
        let chosen = request
            .context
            .iter()
            .flat_map(|c| c.arguments.iter().flatten())
            .filter(|(name, _)| is_variable(name))
            .map(|(name, value)| (name.as_str(), value.as_str()))
            .collect();
        Ok(Completion {
            handler: &entry.handler,
            template,
            argument,
            value: &request.argument.value,
            chosen,
        })
    }
}

const CURSOR_TEMPLATES: char = 't';
const CURSOR_RESOURCES: char = 'r';

/// A cursor is the list's tag and the hex of the key of the entry the page starts at.
fn encode_cursor(key: &str, tag: char) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut cursor = String::with_capacity(1 + 2 * key.len());
    cursor.push(tag);
    for b in key.bytes() {
        cursor.push(char::from(HEX[usize::from(b >> 4)]));
        cursor.push(char::from(HEX[usize::from(b & 0xf)]));
    }
    cursor
}

fn decode_cursor(cursor: &str, tag: char) -> Option<String> {
    let hex = cursor.strip_prefix(tag)?.as_bytes();
    if hex.len() % 2 != 0 {
        return None;
    }
    let digit = |b: u8| match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        _ => None,
    };
    let bytes = hex
        .chunks_exact(2)
        .map(|pair| Some(digit(pair[0])? << 4 | digit(pair[1])?))
        .collect::<Option<Vec<u8>>>()?;
    String::from_utf8(bytes).ok()
}
