//! JSON-RPC error objects and the codes MCP answers with.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// JSON-RPC code for a resource that does not exist, on MCP revisions up to 2025-11-25.
pub const RESOURCE_NOT_FOUND: i32 = -32002;
/// JSON-RPC "invalid params"; since MCP revision 2026-07-28 also "resource not found".
pub const INVALID_PARAMS: i32 = -32602;
/// JSON-RPC "internal error".
pub const INTERNAL_ERROR: i32 = -32603;
/// The most values a `completion/complete` result may carry.
pub const MAX_COMPLETION_VALUES: usize = 100;

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
}
