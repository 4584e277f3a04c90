//! Subscriptions over a hub: two replicas of one server, each with its own `Subscriptions`,
//! joined by an in-memory hub that stands for Redis. A notice published on either replica (or
//! by a process that serves nothing) reaches the subscribers of both; a hub that cannot take a
//! notice still lets the publishing replica's own subscribers hear of it; missed notices make
//! every subscriber hear of every URI it subscribed to; list changes reach the streams that
//! asked for them.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rfc6570_rmcp::{BoxFuture, Hub, HubError, HubEvent, Notice, Subscriptions};
use rmcp::model::{ServerNotification, SubscribeRequestParams, SubscriptionFilter};
use tokio::sync::mpsc;
use tokio::time::timeout;

use crate::common::{Notes, Revision, listener};

type Outcome<T = ()> = Result<T, Box<dyn std::error::Error>>;

const BOUND: Duration = Duration::from_secs(10);

/// An in-memory hub: every replica's handle hears what any handle publishes.
#[derive(Default)]
struct Relay {
    replicas: Mutex<Vec<mpsc::Sender<HubEvent>>>,
    down: AtomicBool,
}

/// One replica's (or one publisher's) handle on a relay.
struct Handle {
    relay: Arc<Relay>,
    events: Mutex<Option<mpsc::Receiver<HubEvent>>>,
}

impl Relay {
    fn handle(self: &Arc<Self>) -> Handle {
        let (sender, events) = mpsc::channel(64);
        self.replicas.lock().unwrap().push(sender);
        Handle {
            relay: Arc::clone(self),
            events: Mutex::new(Some(events)),
        }
    }

    /// Tells every replica that notices were missed, as a hub does once it is back.
    async fn missed(&self) {
        let replicas = self.replicas.lock().unwrap().clone();
        for replica in replicas {
            let _ = replica.send(HubEvent::Missed).await;
        }
    }
}

impl Hub for Handle {
    fn publish(&self, notice: Notice) -> BoxFuture<'_, Result<(), HubError>> {
        Box::pin(async move {
            if self.relay.down.load(Ordering::SeqCst) {
                return Err(HubError::unavailable("the relay is down"));
            }
            let replicas = self.relay.replicas.lock().unwrap().clone();
            for replica in replicas {
                let _ = replica.send(HubEvent::Notice(notice.clone())).await;
            }
            Ok(())
        })
    }

    fn events(&self) -> Result<mpsc::Receiver<HubEvent>, HubError> {
        self.events
            .lock()
            .unwrap()
            .take()
            .ok_or(HubError::EventsTaken)
    }
}

/// A replica of the server, on `relay`.
fn replica(relay: &Arc<Relay>) -> Outcome<Notes> {
    Ok(Notes::new(Subscriptions::new().hub(relay.handle())?))
}

async fn next(heard: &mut mpsc::UnboundedReceiver<String>) -> Outcome<String> {
    Ok(timeout(BOUND, heard.recv())
        .await?
        .ok_or("the client is gone")?)
}

#[tokio::test]
// `resources/subscribe` is the legacy revision's way, which the client speaks.
#[allow(deprecated)]
async fn a_notice_published_anywhere_reaches_the_subscribers_of_every_replica() -> Outcome {
    let relay = Arc::new(Relay::default());
    let (a, b) = (replica(&relay)?, replica(&relay)?);
    let (client, mut heard) = listener(a.clone(), Revision::Legacy).await?;
    client
        .subscribe(SubscribeRequestParams::new("notes://todo"))
        .await?;

    // Published on the other replica: heard through replica A.
    b.subscriptions.notify_updated("notes://todo").await?;
    assert_eq!(next(&mut heard).await?, "notes://todo");
    // Published by a process that serves nothing, with a handle of its own.
    let worker = relay.handle();
    worker.publish(Notice::updated("notes://todo")).await?;
    assert_eq!(next(&mut heard).await?, "notes://todo");
    // A note the client did not subscribe to is not heard; the next one is.
    b.subscriptions.notify_updated("notes://other").await?;
    a.subscriptions.notify_updated("notes://todo").await?;
    assert_eq!(next(&mut heard).await?, "notes://todo");
    client.cancel().await?;
    Ok(())
}

#[tokio::test]
#[allow(deprecated)]
async fn without_the_hub_a_replica_tells_its_own_and_missed_notices_make_everyone_read_again()
-> Outcome {
    let relay = Arc::new(Relay::default());
    let (a, b) = (replica(&relay)?, replica(&relay)?);
    let (client, mut heard) = listener(a.clone(), Revision::Legacy).await?;
    for uri in ["notes://todo", "notes://plan"] {
        client.subscribe(SubscribeRequestParams::new(uri)).await?;
    }
    relay.down.store(true, Ordering::SeqCst);
    // Replica A cannot publish: its own subscriber is told directly, and it says so.
    let refused = a.subscriptions.notify_updated("notes://todo").await;
    assert!(
        matches!(refused, Err(HubError::Unavailable { .. })),
        "{refused:?}"
    );
    assert_eq!(next(&mut heard).await?, "notes://todo");
    // Replica B's change is lost on the way...
    assert!(
        b.subscriptions
            .notify_updated("notes://plan")
            .await
            .is_err()
    );
    // ...until the hub, back, says notices were missed: every subscribed URI is heard again.
    relay.down.store(false, Ordering::SeqCst);
    relay.missed().await;
    // A legacy session hears that the lists may have changed too.
    let mut again = Vec::new();
    for _ in 0..3 {
        again.push(next(&mut heard).await?);
    }
    again.sort();
    assert_eq!(again, ["*", "notes://plan", "notes://todo"]);
    client.cancel().await?;
    Ok(())
}

#[tokio::test]
#[allow(deprecated)]
async fn a_full_queue_does_not_lose_the_staleness_notice() -> Outcome {
    // A queue of 2 for 10 URIs, already full of updates when the notice comes.
    let notes = Notes::new(Subscriptions::new().queue(2));
    let (client, mut heard) = listener(notes.clone(), Revision::Legacy).await?;
    let uris: Vec<String> = (0..10).map(|i| format!("notes://{i}")).collect();
    for uri in &uris {
        client.subscribe(SubscribeRequestParams::new(uri)).await?;
    }
    for _ in 0..5 {
        notes.subscriptions.deliver_updated("notes://0");
    }
    assert!(notes.subscriptions.dropped() > 0, "the queue never filled");
    assert_eq!(notes.subscriptions.deliver_stale(), 1);

    let mut stale = std::collections::BTreeSet::new();
    while stale.len() < uris.len() + 1 {
        stale.insert(next(&mut heard).await?);
    }
    let mut expected: std::collections::BTreeSet<String> = uris.into_iter().collect();
    expected.insert("*".into());
    assert_eq!(stale, expected);
    client.cancel().await?;
    Ok(())
}

#[tokio::test]
async fn list_changes_reach_the_streams_that_asked_for_them() -> Outcome {
    let relay = Arc::new(Relay::default());
    let (a, b) = (replica(&relay)?, replica(&relay)?);
    let (client, _) = listener(a.clone(), Revision::Modern).await?;
    let mut asked = SubscriptionFilter::default();
    asked.resources_list_changed = Some(true);
    let mut listing = client.peer().listen(asked).await?;
    assert_eq!(listing.acknowledged().resources_list_changed, Some(true));
    let mut other = SubscriptionFilter::default();
    other.resource_subscriptions = Some(vec!["notes://todo".into()]);
    let mut updates = client.peer().listen(other).await?;
    // rmcp acknowledges a listen before the handler registers it.
    let deadline = std::time::Instant::now() + BOUND;
    while a.subscriptions.subscribers() < 2 {
        assert!(
            std::time::Instant::now() < deadline,
            "the streams never registered"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }

    b.subscriptions.notify_list_changed().await?;
    b.subscriptions.notify_updated("notes://todo").await?;
    match timeout(BOUND, listing.next()).await?? {
        Some(ServerNotification::ResourceListChangedNotification(_)) => {}
        other => panic!("the listing stream: {other:?}"),
    }
    // The stream that asked for the note hears of the note, and not of the list.
    match timeout(BOUND, updates.next()).await?? {
        Some(ServerNotification::ResourceUpdatedNotification(n)) => {
            assert_eq!(n.params.uri, "notes://todo")
        }
        other => panic!("the note's stream: {other:?}"),
    }
    listing.cancel().await?;
    updates.cancel().await?;
    client.cancel().await?;
    Ok(())
}

#[tokio::test]
async fn a_hub_serves_one_subscriptions() -> Outcome {
    let relay = Arc::new(Relay::default());
    let handle = relay.handle();
    let _first = handle.events()?;
    let second = Subscriptions::new().hub(handle);
    assert!(matches!(second, Err(HubError::EventsTaken)));
    Ok(())
}
