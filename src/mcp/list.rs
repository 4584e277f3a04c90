//! Listing: the pages of `resources/templates/list` and `resources/list`, and their opaque
//! cursors.

use super::jsonrpc::{INVALID_PARAMS, JsonRpcError};
use super::schema::{Resource, ResourceTemplate};
use serde::Serialize;

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
#[non_exhaustive]
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
#[non_exhaustive]
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
#[non_exhaustive]
pub struct InvalidCursor {
    /// The cursor received.
    pub cursor: String,
}

impl InvalidCursor {
    /// The JSON-RPC error the MCP schema gives an invalid cursor: -32602, "Invalid cursor".
    ///
    /// ```
    /// use rfc6570::mcp::Resources;
    /// let resources: Resources<()> = Resources::new();
    /// let err = resources.list_templates(Some("x")).unwrap_err().to_json_rpc();
    /// assert_eq!((err.code, err.message.as_str()), (-32602, "Invalid cursor"));
    /// ```
    pub fn to_json_rpc(&self) -> JsonRpcError {
        JsonRpcError::new(INVALID_PARAMS, "Invalid cursor")
    }
}

pub(super) const CURSOR_TEMPLATES: char = 't';
pub(super) const CURSOR_RESOURCES: char = 'r';

/// A cursor is the list's tag and the hex of the key of the entry the page starts at.
pub(super) fn encode_cursor(key: &str, tag: char) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut cursor = String::with_capacity(1 + 2 * key.len());
    cursor.push(tag);
    for b in key.bytes() {
        cursor.push(char::from(HEX[usize::from(b >> 4)]));
        cursor.push(char::from(HEX[usize::from(b & 0xf)]));
    }
    cursor
}

pub(super) fn decode_cursor(cursor: &str, tag: char) -> Option<String> {
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
