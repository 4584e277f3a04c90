//! A subscriber that stops reading its connection: the notifications queued for it are bounded
//! (`Subscriptions::queue`), the rest are dropped and counted (`Subscriptions::dropped`), and a
//! subscriber that reads gets every notification meanwhile, without waiting on the slow one.

use std::sync::Arc;
use std::time::Duration;

use crate::common::Heard;
use rfc6570_rmcp::{ResourceRouter, Subscriptions, resource, resource_handler, resource_router};
use rmcp::model::SubscribeRequestParams;
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServerHandler, ServiceExt};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::time::timeout;

#[derive(Clone)]
struct Feed {
    router: Arc<ResourceRouter<Feed>>,
    subscriptions: Subscriptions,
}

#[resource_router]
impl Feed {
    #[resource("feed://news")]
    async fn news(&self) -> &'static str {
        "today's news"
    }
}

#[resource_handler(router = self.router, subscriptions = self.subscriptions)]
impl ServerHandler for Feed {}

/// Notifications sent in the test: many more than one queue holds.
const SENT: usize = 2_000;
/// The queue of each subscriber.
const QUEUE: usize = 8;
/// How long a notification may take to reach a reading client.
const BOUND: Duration = Duration::from_secs(10);

/// A legacy client that subscribes to `feed://news` over a raw pipe of 1 KiB, then never reads
/// again: the server's writes to it block as soon as the pipe is full.
async fn stalled_subscriber(
    feed: Feed,
) -> Result<tokio::io::DuplexStream, Box<dyn std::error::Error>> {
    let (server_io, client_io) = tokio::io::duplex(1024);
    tokio::spawn(async move {
        if let Ok(running) = feed.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let (read, mut write) = tokio::io::split(client_io);
    let mut lines = BufReader::new(read).lines();
    let send = |line: &str| format!("{line}\n");
    write
        .write_all(send(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"stalled","version":"0"}}}"#).as_bytes())
        .await?;
    timeout(BOUND, lines.next_line()).await??;
    write
        .write_all(send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).as_bytes())
        .await?;
    write
        .write_all(send(r#"{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"feed://news"}}"#).as_bytes())
        .await?;
    let answer = timeout(BOUND, lines.next_line())
        .await??
        .unwrap_or_default();
    assert!(
        answer.contains(r#""id":2"#) && answer.contains("result"),
        "{answer}"
    );
    // From here on nothing reads: keep both halves alive, unread.
    Ok(lines.into_inner().into_inner().unsplit(write))
}

#[tokio::test]
// `resources/subscribe` is the legacy revision's way, which both clients speak.
#[allow(deprecated)]
async fn a_client_that_does_not_read_costs_a_bounded_queue_and_delays_no_one()
-> Result<(), Box<dyn std::error::Error>> {
    let feed = Feed {
        router: Arc::new(Feed::resource_router()),
        subscriptions: Subscriptions::new().queue(QUEUE),
    };
    let _stalled = stalled_subscriber(feed.clone()).await?;

    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let server = feed.clone();
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let (handler, mut heard) = Heard::channel();
    let reader: RunningService<RoleClient, Heard> = handler.serve(client_io).await?;
    reader
        .subscribe(SubscribeRequestParams::new("feed://news"))
        .await?;
    assert_eq!(feed.subscriptions.len(), 2);

    let mut queued = 0;
    for i in 0..SENT {
        queued += feed.subscriptions.deliver_updated("feed://news");
        // The reader keeps up, one notification at a time.
        let uri = timeout(BOUND, heard.recv()).await?;
        assert_eq!(uri.as_deref(), Some("feed://news"), "notification {i}");
    }
    // The reader got every one; the stalled client's queue took what fit, and the rest were
    // dropped: what it holds is bounded by its queue and the pipe, not by what was sent.
    let dropped = feed.subscriptions.dropped() as usize;
    assert_eq!(queued + dropped, 2 * SENT);
    assert!(dropped >= SENT - QUEUE - 64, "dropped {dropped} of {SENT}");
    reader.cancel().await?;
    Ok(())
}
