//! The Redis hub against a real `redis-server` (Debian's package; `.ci` installs it), started
//! by the test on a free loopback port and stopped at the end. Two replicas of one server, each
//! with its own `RedisHub` and `Subscriptions`, and a publisher that serves nothing:
//! - a change published on replica B, and one from the publisher, reach a client of replica A;
//! - redis-server killed mid-run: a publish is refused (the replica's own client still hears
//!   of it), reads go on; restarted: every subscribed URI is heard again, and updates flow.
//!
//! Without `redis-server` on PATH the tests say so and pass, unless `REDIS_REQUIRED=1` (as
//! `.ci/run` sets it), where that is a failure. Every wait is bounded.

use std::time::{Duration, Instant};

use rfc6570_rmcp::{Hub, HubError, Notice, RedisHub, Subscriptions};
use rmcp::model::{ReadResourceRequestParams, SubscribeRequestParams};
use tokio::sync::mpsc;
use tokio::time::timeout;

use crate::common::redis_server::RedisServer;
use crate::common::{Notes, Revision, listener};

type Outcome<T = ()> = Result<T, Box<dyn std::error::Error>>;

/// How long a notification may take across Redis on loopback.
const BOUND: Duration = Duration::from_secs(10);

const CHANNEL_SERVER: &str = "notes-test";

async fn replica(redis: &RedisServer) -> Outcome<Notes> {
    let channel = RedisHub::channel("rfc6570-test", CHANNEL_SERVER);
    let hub = RedisHub::connect(&redis.url(), &channel).await?;
    Ok(Notes::new(Subscriptions::new().hub(hub)?))
}

async fn next(heard: &mut mpsc::UnboundedReceiver<String>) -> Outcome<String> {
    Ok(timeout(BOUND, heard.recv())
        .await?
        .ok_or("the client is gone")?)
}

#[tokio::test]
#[allow(deprecated)]
async fn notices_cross_replicas_through_redis_and_survive_a_restart() -> Outcome {
    let Some(mut redis) = RedisServer::start()? else {
        return Ok(());
    };
    let (a, b) = (replica(&redis).await?, replica(&redis).await?);
    let publisher = RedisHub::connect(
        &redis.url(),
        &RedisHub::channel("rfc6570-test", CHANNEL_SERVER),
    )
    .await?;
    let (client, mut heard) = listener(a.clone(), Revision::Legacy).await?;
    for uri in ["notes://todo", "notes://plan"] {
        client.subscribe(SubscribeRequestParams::new(uri)).await?;
    }

    // From the other replica, and from a process that serves nothing.
    let started = Instant::now();
    b.subscriptions.notify_updated("notes://todo").await?;
    assert_eq!(next(&mut heard).await?, "notes://todo");
    eprintln!(
        "replica B to a client of replica A: {:?}",
        started.elapsed()
    );
    publisher.publish(Notice::updated("notes://plan")).await?;
    assert_eq!(next(&mut heard).await?, "notes://plan");

    // Redis goes away: a publish is refused, the publishing replica's own client hears of it,
    // and reads go on.
    redis.kill();
    let refused = a.subscriptions.notify_updated("notes://todo").await;
    assert!(
        matches!(refused, Err(HubError::Unavailable { .. })),
        "{refused:?}"
    );
    assert_eq!(next(&mut heard).await?, "notes://todo");
    let read = client
        .read_resource(ReadResourceRequestParams::new("notes://todo"))
        .await?;
    assert_eq!(read.contents.len(), 1);

    // Back: the client hears of every URI it subscribed to, and that the lists may have
    // changed; then updates flow again.
    redis.restarted().await?;
    let mut again = std::collections::BTreeSet::new();
    while again.len() < 3 {
        again.insert(next(&mut heard).await?);
    }
    assert_eq!(
        again,
        ["*", "notes://plan", "notes://todo"]
            .map(String::from)
            .into()
    );
    // B's connection may come back after A's: retry its publish until Redis takes it. It names
    // a note under one subscribed (`notes://plan/1`), which no staleness notice ever names.
    let deadline = Instant::now() + BOUND;
    while b
        .subscriptions
        .notify_updated("notes://plan/1")
        .await
        .is_err()
    {
        assert!(
            Instant::now() < deadline,
            "replica B never reached Redis again"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Staleness notices may still come (A's hub owed one for its refused publish).
    while next(&mut heard).await? != "notes://plan/1" {}
    client.cancel().await?;
    Ok(())
}

#[tokio::test]
#[allow(deprecated)]
async fn a_redis_that_stops_answering_refuses_publishes_promptly_and_everyone_hears_after()
-> Outcome {
    let Some(redis) = RedisServer::start()? else {
        return Ok(());
    };
    let (a, b) = (replica(&redis).await?, replica(&redis).await?);
    let (client, mut heard) = listener(a.clone(), Revision::Legacy).await?;
    for uri in ["notes://todo", "notes://plan"] {
        client.subscribe(SubscribeRequestParams::new(uri)).await?;
    }

    // Stopped, not killed: the connections stay open, and nothing answers on them.
    redis.pause()?;
    let started = Instant::now();
    let refused = b.subscriptions.notify_updated("notes://todo").await;
    assert!(
        matches!(refused, Err(HubError::Unavailable { .. })),
        "{refused:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "refused after {:?}",
        started.elapsed()
    );
    redis.resume()?;

    // Nobody publishes `notes://plan`: hearing it is a staleness notice. B's hub owes one to
    // every replica and pays it at its next ping, without another publish (A's hub, if its own
    // ping fell in the pause, also finds that it may have missed notices).
    while next(&mut heard).await? != "notes://plan" {}
    client.cancel().await?;
    Ok(())
}
