//! What the client tests share: a read that must fail, a completion, the text or blob of one
//! contents, a client that passes on the notifications it hears, a bounded wait, and a
//! `redis-server` of the test's own.

// Each test binary uses some of these.
#![allow(dead_code)]

pub mod redis_server;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use rmcp::model::ResourceUpdatedNotificationParam;
use rmcp::model::{
    ArgumentInfo, CompleteRequestParams, CompletionContext, ReadResourceRequestParams, Reference,
    ResourceContents,
};
use rmcp::service::NotificationContext;
use rmcp::{ClientHandler, ErrorData, Peer, RoleClient, ServiceError};
use tokio::sync::mpsc;

/// The MCP error that reading `uri` answers.
pub async fn read_error(client: &Peer<RoleClient>, uri: &str) -> ErrorData {
    match client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
    {
        Err(ServiceError::McpError(e)) => e,
        other => panic!("{uri}: expected an MCP error, got {other:?}"),
    }
}

/// The values `completion/complete` offers for `argument` of `template`, with the values
/// already `chosen`.
pub async fn complete(
    client: &Peer<RoleClient>,
    template: &str,
    argument: &str,
    value: &str,
    chosen: &[(&str, &str)],
) -> Result<Vec<String>, ServiceError> {
    let mut params = CompleteRequestParams::new(
        Reference::for_resource(template),
        ArgumentInfo::new(argument, value),
    );
    if !chosen.is_empty() {
        let args: HashMap<String, String> = chosen
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        params = params.with_context(CompletionContext::with_arguments(args));
    }
    Ok(client.complete(params).await?.completion.values)
}

/// The text and MIME type of text contents.
pub fn text_of(contents: &ResourceContents) -> (&str, Option<&str>) {
    match contents {
        ResourceContents::TextResourceContents {
            text, mime_type, ..
        } => (text, mime_type.as_deref()),
        other => panic!("not text: {other:?}"),
    }
}

/// The base64 text and MIME type of blob contents.
pub fn blob_of(contents: &ResourceContents) -> (&str, Option<&str>) {
    match contents {
        ResourceContents::BlobResourceContents {
            blob, mime_type, ..
        } => (blob, mime_type.as_deref()),
        other => panic!("not a blob: {other:?}"),
    }
}

/// Waits (at most 10 s, polling) until `condition` holds. rmcp acknowledges a
/// `subscriptions/listen` before the handler registers the stream, so a test that counts streams
/// right after `listen` returns waits for the count.
pub async fn eventually(what: &str, condition: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !condition() {
        assert!(Instant::now() < deadline, "not within 10 s: {what}");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// A client that passes on every `notifications/resources/updated` it hears outside a listen
/// stream (as its URI) and every `notifications/resources/list_changed` (as `*`).
#[derive(Clone)]
pub struct Heard(pub mpsc::UnboundedSender<String>);

impl Heard {
    /// A client handler, and what it hears.
    pub fn channel() -> (Self, mpsc::UnboundedReceiver<String>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (Self(tx), rx)
    }
}

impl ClientHandler for Heard {
    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let _ = self.0.send(params.uri);
    }

    async fn on_resource_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.0.send("*".into());
    }
}
