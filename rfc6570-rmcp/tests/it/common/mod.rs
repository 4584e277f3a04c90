//! What the client tests share: a client of a server over an in-memory pipe, a server of notes,
//! a read that must fail, a completion, the text or blob of one contents, a client that passes
//! on the notifications it hears, a bounded wait, and a `redis-server` of the test's own.

// The fan-out bench uses some of these, and the tests without the feature `redis` others.
#![allow(dead_code)]

pub mod redis_server;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rfc6570_rmcp::{ResourceRouter, Subscriptions, resource, resource_handler, resource_router};

use rmcp::model::ProtocolVersion;
use rmcp::model::ResourceUpdatedNotificationParam;
use rmcp::model::{
    ArgumentInfo, CompleteRequestParams, CompletionContext, ReadResourceRequestParams, Reference,
    ResourceContents,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, NotificationContext, RunningService};
use rmcp::{ClientHandler, ErrorData, Peer, RoleClient, ServerHandler, ServiceError, ServiceExt};
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

/// The protocol revision a test client speaks.
#[derive(Clone, Copy, Debug)]
pub enum Revision {
    /// `initialize`, 2025-11-25.
    Legacy,
    /// `server/discover`, 2026-07-28.
    Modern,
}

/// `handler` as a client of `server` on `revision`, over an in-memory pipe; the server runs on
/// a task of its own until the client leaves.
pub async fn connect<S, C>(
    server: S,
    handler: C,
    revision: Revision,
) -> Result<RunningService<RoleClient, C>, Box<dyn std::error::Error>>
where
    S: ServerHandler,
    C: ClientHandler,
{
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let lifecycle = match revision {
        Revision::Legacy => ClientLifecycleMode::Initialize,
        Revision::Modern => ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        },
    };
    Ok(handler.serve_with_lifecycle(client_io, lifecycle).await?)
}

/// A client of `server` on `revision` that passes on what it hears ([`Heard`]).
pub async fn listener<S: ServerHandler>(
    server: S,
    revision: Revision,
) -> Result<
    (
        RunningService<RoleClient, Heard>,
        mpsc::UnboundedReceiver<String>,
    ),
    Box<dyn std::error::Error>,
> {
    let (heard, rx) = Heard::channel();
    Ok((connect(server, heard, revision).await?, rx))
}

/// A server of notes (`notes://{id}`, read as `note {id}`) with subscriptions: a replica, when
/// its subscriptions have a hub.
#[derive(Clone)]
pub struct Notes {
    router: Arc<ResourceRouter<Notes>>,
    pub subscriptions: Subscriptions,
}

#[resource_router]
impl Notes {
    #[resource("notes://{id}")]
    async fn note(&self, id: String) -> String {
        format!("note {id}")
    }
}

#[resource_handler(router = self.router, subscriptions = self.subscriptions)]
impl ServerHandler for Notes {}

impl Notes {
    pub fn new(subscriptions: Subscriptions) -> Self {
        Notes {
            router: Arc::new(Notes::resource_router()),
            subscriptions,
        }
    }
}
