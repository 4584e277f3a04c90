//! The tools the suite calls, through rmcp's `#[tool_router]`: contents of every kind, errors,
//! logging, progress, sampling and elicitation (2025-11-25), and the stateless revision's probes
//! (2026-07-28). The input-required tools are in `input_required.rs`.

use std::sync::Arc;
use std::time::Duration;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, ClientCapabilities, ContentBlock, CreateMessageRequestParams,
    ElicitRequestParams, ErrorData, InputRequiredResult, JsonObject, LoggingLevel,
    LoggingMessageNotificationParam, ProgressNotificationParam, ResourceContents, SamplingMessage,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, schemars, tool, tool_router};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::Conformance;
use crate::input_required::{asking, elicitation, form};

/// The 1x1 PNG of `resources::PNG`, in base64.
const PNG_BASE64: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==";
/// Eight silent samples of 16-bit mono WAV, in base64.
const WAV_BASE64: &str =
    "UklGRjQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YRAAAAAAAAAAAAAAAAAAAAAAAAAA";

#[derive(Deserialize, schemars::JsonSchema)]
pub struct Prompt {
    /// The prompt to send to the LLM.
    prompt: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct Message {
    /// The message to show the user.
    message: String,
}

/// A JSON object, from a `json!` literal that is one.
fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

pub fn text(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

#[tool_router(router = tools, vis = "pub(crate)")]
impl Conformance {
    #[tool(name = "test_simple_text", description = "Returns simple text")]
    async fn simple_text(&self) -> CallToolResult {
        text("This is a simple text response for testing.")
    }

    #[tool(name = "test_image_content", description = "Returns an image")]
    async fn image_content(&self) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::image(PNG_BASE64, "image/png")])
    }

    #[tool(name = "test_audio_content", description = "Returns audio")]
    async fn audio_content(&self) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::audio(WAV_BASE64, "audio/wav")])
    }

    #[tool(
        name = "test_embedded_resource",
        description = "Returns an embedded resource"
    )]
    async fn embedded_resource(&self) -> CallToolResult {
        let contents = ResourceContents::text(
            "This is an embedded resource content.",
            "test://embedded-resource",
        )
        .with_mime_type("text/plain");
        CallToolResult::success(vec![ContentBlock::resource(contents)])
    }

    #[tool(
        name = "test_multiple_content_types",
        description = "Returns text, an image and a resource"
    )]
    async fn multiple_content_types(&self) -> CallToolResult {
        let json = r#"{"test":"data","value":123}"#;
        let contents = ResourceContents::text(json, "test://mixed-content-resource")
            .with_mime_type("application/json");
        CallToolResult::success(vec![
            ContentBlock::text("Multiple content types test:"),
            ContentBlock::image(PNG_BASE64, "image/png"),
            ContentBlock::resource(contents),
        ])
    }

    #[tool(
        name = "test_tool_with_logging",
        description = "Sends log messages while it runs"
    )]
    // Logging is deprecated from 2026-07-28 (SEP-2577); the 2025-11-25 suite still tests it.
    #[allow(deprecated)]
    async fn tool_with_logging(&self, context: RequestContext<RoleServer>) -> CallToolResult {
        for (i, message) in [
            "Tool execution started",
            "Tool processing data",
            "Tool execution completed",
        ]
        .into_iter()
        .enumerate()
        {
            if i > 0 {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            let param = LoggingMessageNotificationParam::new(LoggingLevel::Info, json!(message));
            let _ = context.peer.notify_logging_message(param).await;
        }
        text("Logging test completed")
    }

    #[tool(name = "test_error_handling", description = "Always fails")]
    async fn error_handling(&self) -> CallToolResult {
        CallToolResult::error(vec![ContentBlock::text(
            "This tool intentionally returns an error for testing",
        )])
    }

    #[tool(
        name = "test_tool_with_progress",
        description = "Reports progress while it runs"
    )]
    async fn tool_with_progress(&self, context: RequestContext<RoleServer>) -> CallToolResult {
        let token = context.meta.get_progress_token();
        for (i, progress) in [0.0, 50.0, 100.0].into_iter().enumerate() {
            if i > 0 {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            if let Some(token) = &token {
                let param =
                    ProgressNotificationParam::new(token.clone(), progress).with_total(100.0);
                let _ = context.peer.notify_progress(param).await;
            }
        }
        text("Progress test completed")
    }

    #[tool(name = "test_sampling", description = "Asks the client's LLM")]
    async fn sampling(
        &self,
        Parameters(Prompt { prompt }): Parameters<Prompt>,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let params = CreateMessageRequestParams::new(vec![SamplingMessage::user_text(prompt)], 100);
        match context.peer.create_message(params).await {
            Ok(result) => {
                let answer = result
                    .message
                    .content
                    .first()
                    .and_then(|c| c.as_text())
                    .map(|t| t.text.clone());
                text(format!("LLM response: {}", answer.unwrap_or_default()))
            }
            Err(e) => {
                CallToolResult::error(vec![ContentBlock::text(format!("Sampling failed: {e}"))])
            }
        }
    }

    #[tool(name = "test_elicitation", description = "Asks the user")]
    async fn elicitation(
        &self,
        Parameters(Message { message }): Parameters<Message>,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let properties = json!({
            "username": { "type": "string", "description": "User's response" },
            "email": { "type": "string", "description": "User's email address" },
        });
        elicit(
            &context,
            form(&message, properties, &["username", "email"]),
            "User response",
        )
        .await
    }

    #[tool(
        name = "test_elicitation_sep1034_defaults",
        description = "Asks with a default for every primitive type"
    )]
    async fn elicitation_defaults(&self, context: RequestContext<RoleServer>) -> CallToolResult {
        let properties = json!({
            "name": { "type": "string", "description": "User's name", "default": "John Doe" },
            "age": { "type": "integer", "description": "User's age", "default": 30 },
            "score": { "type": "number", "description": "User's score", "default": 95.5 },
            "status": { "type": "string", "description": "User's status",
                        "enum": ["active", "inactive", "pending"], "default": "active" },
            "verified": { "type": "boolean", "description": "Whether user is verified", "default": true },
        });
        let params = form("Please provide values (all have defaults)", properties, &[]);
        elicit(&context, params, "Elicitation completed").await
    }

    #[tool(
        name = "test_elicitation_sep1330_enums",
        description = "Asks with every kind of enum"
    )]
    async fn elicitation_enums(&self, context: RequestContext<RoleServer>) -> CallToolResult {
        let choices = |titles: [&str; 3]| {
            let values = ["value1", "value2", "value3"];
            values
                .iter()
                .zip(titles)
                .map(|(v, t)| json!({ "const": v, "title": t }))
                .collect::<Vec<_>>()
        };
        let properties = json!({
            "untitledSingle": { "type": "string", "enum": ["option1", "option2", "option3"] },
            "titledSingle": { "type": "string", "oneOf": choices(["First Option", "Second Option", "Third Option"]) },
            "legacyEnum": { "type": "string", "enum": ["opt1", "opt2", "opt3"],
                            "enumNames": ["Option One", "Option Two", "Option Three"] },
            "untitledMulti": { "type": "array", "items": { "type": "string", "enum": ["option1", "option2", "option3"] } },
            "titledMulti": { "type": "array", "items": { "anyOf": choices(["First Choice", "Second Choice", "Third Choice"]) } },
        });
        elicit(
            &context,
            form("Test enum schema improvements", properties, &[]),
            "Elicitation completed",
        )
        .await
    }

    #[tool(name = "json_schema_2020_12_tool", description = "Takes a JSON Schema 2020-12 input",
           input_schema = Arc::new(schema_2020_12()))]
    async fn json_schema_2020_12(&self, arguments: JsonObject) -> CallToolResult {
        let name = arguments
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("world");
        text(format!("Hello, {name}!"))
    }

    #[tool(
        name = "test_reconnection",
        description = "Runs long enough for its stream to be resumed"
    )]
    async fn reconnection(&self) -> CallToolResult {
        tokio::time::sleep(Duration::from_millis(100)).await;
        text("Reconnection test completed")
    }

    #[tool(name = "test_custom_header", description = "Takes a value also sent as a custom header (SEP-2243)",
           input_schema = Arc::new(object(json!({
               "type": "object",
               "properties": { "value": { "type": "string", "x-mcp-header": "Value" } },
               "required": ["value"],
           }))))]
    async fn custom_header(&self, arguments: JsonObject) -> Result<CallToolResult, ErrorData> {
        let value = arguments.get("value").and_then(Value::as_str);
        let value = value.ok_or_else(|| ErrorData::invalid_params("`value` is a string", None))?;
        Ok(text(value))
    }
}

/// Sends `params` as `elicitation/create`, and says what the user answered after `label`.
async fn elicit(
    context: &RequestContext<RoleServer>,
    params: ElicitRequestParams,
    label: &str,
) -> CallToolResult {
    match context.peer.create_elicitation(params).await {
        Ok(result) => {
            let action = serde_json::to_value(&result.action).unwrap_or_default();
            let action = action.as_str().unwrap_or("unknown").to_owned();
            let content = result.content.unwrap_or(Value::Null);
            text(format!("{label}: action={action}, content={content}"))
        }
        Err(e) => {
            CallToolResult::error(vec![ContentBlock::text(format!("Elicitation failed: {e}"))])
        }
    }
}

/// An input schema with JSON Schema 2020-12's vocabulary (SEP-1613, SEP-2106).
fn schema_2020_12() -> JsonObject {
    object(json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "address": {
                "$anchor": "address",
                "type": "object",
                "properties": { "street": { "type": "string" }, "city": { "type": "string" } },
            },
        },
        "properties": { "name": { "type": "string" }, "address": { "$ref": "#/$defs/address" } },
        "allOf": [{ "anyOf": [{ "required": ["name"] }, { "required": ["address"] }] }],
        "if": { "required": ["address"] },
        "then": { "properties": { "address": { "required": ["street"] } } },
        "else": { "required": ["name"] },
        "additionalProperties": false,
    }))
}

/// The stateless revision's probes (SEP-2575, 2026-07-28).
#[tool_router(router = stateless_probes, vis = "pub(crate)")]
impl Conformance {
    #[tool(
        name = "test_missing_capability",
        description = "Needs the client's sampling capability"
    )]
    async fn needs_sampling(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let declared = context.meta.client_capabilities().unwrap_or_default();
        if declared.sampling.is_none() {
            let needed = ClientCapabilities::builder().enable_sampling().build();
            return Err(ErrorData::missing_required_client_capability(needed));
        }
        Ok(text("The sampling capability is declared"))
    }

    #[tool(
        name = "test_streaming_elicitation",
        description = "Asks for a value in its result, not on the stream"
    )]
    async fn asks_in_its_result(&self) -> InputRequiredResult {
        let form = elicitation(
            "Provide a value",
            json!({ "value": { "type": "string" } }),
            &["value"],
        );
        asking("streaming_elicitation", form)
    }

    #[tool(
        name = "test_logging_tool",
        description = "Logs only when the request asks for a log level"
    )]
    async fn logs_when_asked(&self, context: RequestContext<RoleServer>) -> CallToolResult {
        if let Some(level) = context.meta.log_level() {
            let param =
                LoggingMessageNotificationParam::new(level, json!("the request asked for logs"));
            let _ = context.peer.notify_logging_message(param).await;
        }
        text("Logging tool completed")
    }
}
