//! JSON-RPC error objects and the codes MCP answers with, by negotiated protocol revision.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

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
/// let err = err.data(json!({"cursor": "x"}));
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
    /// let err = JsonRpcError::new(-32602, "Resource not found").data(serde_json::json!({"uri": "x:"}));
    /// assert_eq!(err.data.unwrap()["uri"], "x:");
    /// ```
    pub fn data(mut self, data: Value) -> Self {
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
        .data(json!({ "uri": uri }))
    }
}
