//! One subscriber's way out: its bounded queue of notifications ([`Outbox`]), the staleness
//! notice that waits beside it ([`Stale`]), and the task that drains both to a legacy session
//! or a listen stream ([`Target`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::model::ResourceUpdatedNotificationParam;
use rmcp::service::SubscriptionSink;
use rmcp::{Peer, RoleServer};
use tokio::sync::mpsc;

use super::uris::Subscribed;

/// A notification on its way to one subscriber.
#[derive(Debug)]
pub(super) enum Outgoing {
    /// `notifications/resources/updated`, with the URI it is sent as.
    Updated(String),
    /// `notifications/resources/list_changed`.
    ListChanged,
    /// The subscriber's view may be stale: send what its [`Stale`] slot holds.
    Stale,
}

/// What tells one subscriber that its view may be stale: an update for each URI it
/// subscribed to, and a list change if it hears those.
#[derive(Debug, Default)]
pub(super) struct Stale {
    updates: Vec<String>,
    list_changed: bool,
}

impl Stale {
    /// The notice for a subscriber of `uris`, as it subscribed to them.
    pub(super) fn of<'a>(
        uris: impl IntoIterator<Item = &'a Subscribed>,
        list_changed: bool,
    ) -> Self {
        let updates = uris.into_iter().map(|u| u.sent.clone()).collect();
        Self {
            updates,
            list_changed,
        }
    }
}

/// Where one subscriber's notifications go: a legacy session's connection, or a
/// `subscriptions/listen` stream.
pub(super) enum Target {
    Session(Peer<RoleServer>),
    Stream(SubscriptionSink),
}

impl Target {
    async fn send(&self, outgoing: Outgoing) -> Result<(), ()> {
        match (self, outgoing) {
            (_, Outgoing::Stale) => Ok(()),
            (Self::Session(peer), Outgoing::Updated(uri)) => {
                let param = ResourceUpdatedNotificationParam::new(uri);
                peer.notify_resource_updated(param).await.map_err(drop)
            }
            (Self::Session(peer), Outgoing::ListChanged) => {
                peer.notify_resource_list_changed().await.map_err(drop)
            }
            (Self::Stream(sink), Outgoing::Updated(uri)) => {
                sink.notify_resource_updated(uri).await.map_err(drop)
            }
            (Self::Stream(sink), Outgoing::ListChanged) => {
                sink.notify_resource_list_changed().await.map_err(drop)
            }
        }
    }
}

/// The queue of one subscriber's notifications, drained by a task of its own that sends them
/// in order. A client that does not read its connection holds up no one else, and costs at
/// most the queue's length; what does not fit is dropped and counted
/// ([`Subscriptions::dropped`]). A staleness notice waits beside the queue, not in it, so that
/// a full queue cannot lose it. The task ends with the queue (its subscriber is forgotten) or
/// with the connection.
#[derive(Debug)]
pub(super) struct Outbox {
    queue: mpsc::Sender<Outgoing>,
    stale: Arc<Mutex<Option<Stale>>>,
    /// The queue was full at the last offer: a drop was logged, and is not logged again until a
    /// notification fits.
    full: AtomicBool,
}

/// What became of a notification offered to an [`Outbox`].
pub(super) enum Offer {
    Queued,
    /// Dropped: the queue is full. `first` when it was not full before.
    Dropped {
        first: bool,
    },
    /// The subscriber's task ended with its connection: it is forgotten soon.
    Closed,
}

impl Outbox {
    pub(super) fn new(target: Target, length: usize) -> Self {
        let (queue, receiver) = mpsc::channel(length.max(1));
        let stale = Arc::new(Mutex::new(None));
        tokio::spawn(drain(target, receiver, Arc::clone(&stale)));
        Self {
            queue,
            stale,
            full: AtomicBool::new(false),
        }
    }

    pub(super) fn offer(&self, outgoing: Outgoing) -> Offer {
        match self.queue.try_send(outgoing) {
            Ok(()) => {
                self.full.store(false, Ordering::Relaxed);
                Offer::Queued
            }
            Err(mpsc::error::TrySendError::Full(_)) => Offer::Dropped {
                first: !self.full.swap(true, Ordering::Relaxed),
            },
            Err(mpsc::error::TrySendError::Closed(_)) => Offer::Closed,
        }
    }

    /// Tells the subscriber that its view may be stale, replacing a notice not yet sent. If
    /// the queue is full, the task finds the notice after the notification it is sending.
    pub(super) fn stale(&self, stale: Stale) -> Offer {
        *self.stale.lock().unwrap_or_else(|e| e.into_inner()) = Some(stale);
        match self.queue.try_send(Outgoing::Stale) {
            Err(mpsc::error::TrySendError::Closed(_)) => Offer::Closed,
            _ => Offer::Queued,
        }
    }
}

/// Sends `queue` to `target`, in order, with a staleness notice as soon as one is set; ends
/// with the queue or the connection.
async fn drain(
    target: Target,
    mut queue: mpsc::Receiver<Outgoing>,
    stale: Arc<Mutex<Option<Stale>>>,
) {
    while let Some(outgoing) = queue.recv().await {
        if target.send(outgoing).await.is_err() {
            return;
        }
        let pending = stale.lock().unwrap_or_else(|e| e.into_inner()).take();
        let Some(pending) = pending else { continue };
        let list_changed = pending.list_changed.then_some(Outgoing::ListChanged);
        let updates = pending.updates.into_iter().map(Outgoing::Updated);
        for outgoing in updates.chain(list_changed) {
            if target.send(outgoing).await.is_err() {
                return;
            }
        }
    }
}
