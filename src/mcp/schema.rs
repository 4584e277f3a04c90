//! The MCP schema's resource types: [`ResourceTemplate`], [`Resource`], [`Annotations`] and
//! [`Icon`]s, with the JSON the schema gives them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{Error, UriTemplate};

/// The `_meta` object of MCP types: a JSON object of extension metadata.
pub type Meta = serde_json::Map<String, Value>;

/// Who an object is meant for: the schema's `Role`.
///
/// ```
/// use rfc6570::mcp::Role;
/// assert_eq!(serde_json::to_value(Role::Assistant)?, "assistant");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
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
///     .audience([Role::User, Role::Assistant])
///     .priority(0.5)
///     .last_modified("2025-01-12T15:00:58Z");
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
    /// assert_eq!(Annotations::new().audience([Role::User]).audience, Some(vec![Role::User]));
    /// ```
    pub fn audience(mut self, audience: impl IntoIterator<Item = Role>) -> Self {
        self.audience = Some(audience.into_iter().collect());
        self
    }

    /// Sets `priority`, which the schema bounds to 0..=1 (values outside are clamped).
    ///
    /// ```
    /// use rfc6570::mcp::Annotations;
    /// assert_eq!(Annotations::new().priority(0.8).priority, Some(0.8));
    /// assert_eq!(Annotations::new().priority(7.0).priority, Some(1.0));
    /// ```
    pub fn priority(mut self, priority: f64) -> Self {
        self.priority = Some(priority.clamp(0.0, 1.0));
        self
    }

    /// Sets `lastModified`.
    ///
    /// ```
    /// use rfc6570::mcp::Annotations;
    /// let a = Annotations::new().last_modified("2025-01-12T15:00:58Z");
    /// assert_eq!(a.last_modified.as_deref(), Some("2025-01-12T15:00:58Z"));
    /// ```
    pub fn last_modified(mut self, when: impl Into<String>) -> Self {
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
#[non_exhaustive]
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
///     .mime_type("image/svg+xml")
///     .sizes(["any"])
///     .theme(Theme::Light);
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
    /// let icon = rfc6570::mcp::Icon::new("https://x/i.png").mime_type("image/png");
    /// assert_eq!(icon.mime_type.as_deref(), Some("image/png"));
    /// ```
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// Sets `sizes`.
    ///
    /// ```
    /// let icon = rfc6570::mcp::Icon::new("https://x/i.png").sizes(["48x48", "96x96"]);
    /// assert_eq!(icon.sizes.unwrap(), ["48x48", "96x96"]);
    /// ```
    pub fn sizes<S: Into<String>>(mut self, sizes: impl IntoIterator<Item = S>) -> Self {
        self.sizes = Some(sizes.into_iter().map(Into::into).collect());
        self
    }

    /// Sets `theme`.
    ///
    /// ```
    /// use rfc6570::mcp::{Icon, Theme};
    /// assert_eq!(Icon::new("https://x/i.png").theme(Theme::Dark).theme, Some(Theme::Dark));
    /// ```
    pub fn theme(mut self, theme: Theme) -> Self {
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
///     .title("Build log")
///     .description("The log of a CI job, optionally a range of lines")
///     .mime_type("text/plain")
///     .annotations(Annotations::new().audience([Role::Assistant]));
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
    /// use rfc6570::{UriTemplate, mcp::ResourceTemplate};
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
/// let r = Resource::new("config://app", "app-config").mime_type("application/json").size(120);
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
    /// assert_eq!(rfc6570::mcp::Resource::new("config://app", "app").size(42).size, Some(42));
    /// ```
    pub fn size(mut self, size: u64) -> Self {
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
            #[doc = concat!("Sets `title`.\n\n```\n# use rfc6570::mcp::*;\nlet x = ", $make, ".title(\"Notes\");\nassert_eq!(x.title.as_deref(), Some(\"Notes\"));\n# Ok::<(), Box<dyn std::error::Error>>(())\n```")]
            pub fn title(mut self, title: impl Into<String>) -> Self {
                self.title = Some(title.into());
                self
            }

            #[doc = concat!("Sets `description`.\n\n```\n# use rfc6570::mcp::*;\nlet x = ", $make, ".description(\"By id\");\nassert_eq!(x.description.as_deref(), Some(\"By id\"));\n# Ok::<(), Box<dyn std::error::Error>>(())\n```")]
            pub fn description(mut self, description: impl Into<String>) -> Self {
                self.description = Some(description.into());
                self
            }

            #[doc = concat!("Sets `mimeType`.\n\n```\n# use rfc6570::mcp::*;\nlet x = ", $make, ".mime_type(\"text/markdown\");\nassert_eq!(x.mime_type.as_deref(), Some(\"text/markdown\"));\n# Ok::<(), Box<dyn std::error::Error>>(())\n```")]
            pub fn mime_type(mut self, mime_type: impl Into<String>) -> Self {
                self.mime_type = Some(mime_type.into());
                self
            }

            #[doc = concat!("Sets `annotations`.\n\n```\n# use rfc6570::mcp::*;\nlet x = ", $make, ".annotations(Annotations::new().priority(0.2));\nassert_eq!(x.annotations.unwrap().priority, Some(0.2));\n# Ok::<(), Box<dyn std::error::Error>>(())\n```")]
            pub fn annotations(mut self, annotations: Annotations) -> Self {
                self.annotations = Some(annotations);
                self
            }

            #[doc = concat!("Adds an icon.\n\n```\n# use rfc6570::mcp::*;\nlet x = ", $make, ".icon(Icon::new(\"https://example.com/a.png\"));\nassert_eq!(x.icons.unwrap()[0].src, \"https://example.com/a.png\");\n# Ok::<(), Box<dyn std::error::Error>>(())\n```")]
            pub fn icon(mut self, icon: Icon) -> Self {
                self.icons.get_or_insert_with(Vec::new).push(icon);
                self
            }

            #[doc = concat!("Sets `_meta`.\n\n```\n# use rfc6570::mcp::*;\nlet mut meta = serde_json::Map::new();\nmeta.insert(\"com.example/owner\".into(), \"ci\".into());\nlet x = ", $make, ".meta(meta);\nassert_eq!(serde_json::to_value(&x)?[\"_meta\"][\"com.example/owner\"], \"ci\");\n# Ok::<(), Box<dyn std::error::Error>>(())\n```")]
            pub fn meta(mut self, meta: Meta) -> Self {
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
pub(super) enum Listing {
    Template(ResourceTemplate),
    Resource(Resource),
}

impl Listing {
    /// The key cursors name an entry by: its template text or URI.
    pub(super) fn key(&self) -> &str {
        match self {
            Self::Template(t) => t.uri_template.as_str(),
            Self::Resource(r) => &r.uri,
        }
    }
}
