//! Resource subscriptions: the legacy `resources/subscribe` sets of each session and the
//! 2026-07-28 `subscriptions/listen` streams, bounded, each with its own queue of
//! notifications; and [`Subscriptions::notify_updated`], which reaches, through the hub if there
//! is one, the subscribers of a URI and of every resource it lies under.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, MutexGuard, Weak};

use tokio::sync::mpsc;

use rmcp::model::{
    InitializeRequestParams, SubscribeRequestParams, SubscriptionFilter, UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::{ErrorData, Peer, RoleServer};

mod outbox;
mod uris;

use outbox::{Offer, Outbox, Outgoing, Stale, Target};
use uris::{Subscribed, covers, normalize};

use crate::hub::{Hub, HubError, HubEvent, Notice};
use crate::router::{ResourceRouter, revision};

/// The resource subscriptions of a server, shared by its clones.
///
/// Give a handler one with `#[resource_handler(subscriptions = self.subscriptions)]` and it
/// answers `subscriptions/listen` (revision 2026-07-28) and the legacy `resources/subscribe` and
/// `resources/unsubscribe`, and declares `resources.subscribe` and `resources.listChanged`. A
/// subscription is accepted only for a URI the router serves (path safety included). Each
/// legacy session, and each listen stream, holds at most [`limit`](Self::limit) distinct URIs;
/// at most
/// [`max_streams`](Self::max_streams) streams are open at once. One `Subscriptions` may serve
/// every session of a server: legacy sessions are told apart by their handshake.
///
/// Each subscriber's notifications wait in a bounded queue of its own ([`queue`](Self::queue)):
/// one that does not read its connection delays no one, and what does not fit is dropped and
/// counted ([`dropped`](Self::dropped)). With a [`hub`](Self::hub), notices reach the
/// subscribers of every replica of the server, not only this process's.
///
/// [`notify_updated(uri)`](Self::notify_updated) tells every subscriber of `uri`, and of any
/// resource `uri` lies under: `file:///docs/` and `file:///docs` both cover
/// `file:///docs/a.md`; a subscribed URI with a query or fragment covers only itself. URIs are
/// compared with their percent-encoding normalized (`a+b.md` is `a%2Bb.md`), as the router reads
/// them. A legacy subscriber gets the update as `uri` (the schema lets it name a sub-resource of
/// the one subscribed). A `subscriptions/listen` stream gets it as the closest subscribed URI that
/// covers it: clients may refuse, on a stream, any URI they did not subscribe to (rmcp's client
/// ends the stream), so the stream hears "what you subscribed to changed".
///
/// ```
/// use rfc6570_rmcp::Subscriptions;
///
/// let subscriptions = Subscriptions::new().limit(10).max_streams(4);
/// assert_eq!(subscriptions.len(), 0);
/// ```
#[derive(Debug, Clone)]
pub struct Subscriptions {
    shared: Arc<Mutex<Shared>>,
}

#[derive(Debug)]
struct Shared {
    limit: usize,
    max_streams: usize,
    /// How many notifications may wait for one subscriber.
    queue: usize,
    /// Notifications dropped because their subscriber's queue was full.
    dropped: u64,
    sessions: Vec<Session>,
    streams: Vec<Stream>,
    next_stream: u64,
    /// Where `notify_*` publish; none: they deliver here directly.
    hub: Option<Arc<dyn Hub>>,
    /// What the hub tells this replica, until the task that delivers it starts (at the first
    /// subscriber, inside the runtime that serves it).
    events: Option<mpsc::Receiver<HubEvent>>,
}

/// A legacy session: its peer, the handshake that tells it apart, the URIs it subscribed to,
/// as sent and as compared, and the queue its notifications wait in.
#[derive(Debug)]
struct Session {
    peer: Peer<RoleServer>,
    handshake: Option<Arc<InitializeRequestParams>>,
    uris: BTreeSet<Subscribed>,
    outbox: Outbox,
}

#[derive(Debug)]
struct Stream {
    key: u64,
    uris: Vec<Subscribed>,
    outbox: Outbox,
    /// Whether the stream asked for list changes.
    list_changed: bool,
}

impl Default for Subscriptions {
    fn default() -> Self {
        Self::new()
    }
}

impl Subscriptions {
    /// No subscriptions; at most 100 URIs a session or stream, at most 100 streams.
    ///
    /// ```
    /// let subscriptions = rfc6570_rmcp::Subscriptions::new();
    /// ```
    pub fn new() -> Self {
        Self {
            shared: Arc::new(Mutex::new(Shared {
                limit: 100,
                max_streams: 100,
                queue: 64,
                dropped: 0,
                sessions: Vec::new(),
                streams: Vec::new(),
                next_stream: 0,
                hub: None,
                events: None,
            })),
        }
    }

    /// At most `limit` distinct URIs in each legacy session's set and each listen stream. The
    /// setting is shared by the clones.
    ///
    /// ```
    /// let subscriptions = rfc6570_rmcp::Subscriptions::new().limit(20);
    /// ```
    pub fn limit(self, limit: usize) -> Self {
        self.lock().limit = limit;
        self
    }

    /// At most `streams` listen streams open at once. The setting is shared by the clones.
    ///
    /// ```
    /// let subscriptions = rfc6570_rmcp::Subscriptions::new().max_streams(8);
    /// ```
    pub fn max_streams(self, streams: usize) -> Self {
        self.lock().max_streams = streams;
        self
    }

    /// At most `length` notifications wait to be sent to one subscriber (a legacy session or a
    /// listen stream); 64 by default. Each subscriber's are sent in order by a task of its own,
    /// so a client that does not read its connection delays no one else; a notification that
    /// finds its subscriber's queue full is dropped for that subscriber and counted in
    /// [`dropped`](Self::dropped). Applies to subscribers that come after the call; shared by
    /// the clones.
    ///
    /// ```
    /// let subscriptions = rfc6570_rmcp::Subscriptions::new().queue(16);
    /// ```
    pub fn queue(self, length: usize) -> Self {
        self.lock().queue = length.max(1);
        self
    }

    /// How many notifications were dropped, over all subscribers, because a subscriber's queue
    /// was full: its client was not reading (see [`queue`](Self::queue)).
    ///
    /// ```
    /// assert_eq!(rfc6570_rmcp::Subscriptions::new().dropped(), 0);
    /// ```
    pub fn dropped(&self) -> u64 {
        self.lock().dropped
    }

    /// How many URIs are subscribed now, over every session and stream.
    ///
    /// ```
    /// assert_eq!(rfc6570_rmcp::Subscriptions::new().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        let shared = self.lock();
        let legacy: usize = shared.sessions.iter().map(|s| s.uris.len()).sum();
        legacy + shared.streams.iter().map(|s| s.uris.len()).sum::<usize>()
    }

    /// How many subscribers there are now: legacy sessions that subscribed to something, and
    /// open listen streams (a stream that asked only for list changes counts, and holds no URI).
    ///
    /// ```
    /// assert_eq!(rfc6570_rmcp::Subscriptions::new().subscribers(), 0);
    /// ```
    pub fn subscribers(&self) -> usize {
        let shared = self.lock();
        shared.sessions.len() + shared.streams.len()
    }

    /// Whether nothing is subscribed.
    ///
    /// ```
    /// assert!(rfc6570_rmcp::Subscriptions::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> MutexGuard<'_, Shared> {
        // A panic while holding the lock leaves the set as it was: still usable.
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Publishes to every replica's subscribers that `uri` changed: each subscriber of `uri`,
    /// or of a resource it lies under, gets `notifications/resources/updated`.
    ///
    /// Without a [`hub`](Self::hub), this process is the only replica: the notification is
    /// queued to its subscribers before this returns, and it never fails. With one, the notice
    /// goes through the hub, and each replica, this one included, delivers it when the hub
    /// brings it back.
    ///
    /// ```
    /// # async fn f() -> Result<(), rfc6570_rmcp::HubError> {
    /// let subscriptions = rfc6570_rmcp::Subscriptions::new();
    /// subscriptions.notify_updated("file:///docs/a.md").await?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// The hub cannot take the notice now. This process's own subscribers are told directly
    /// then; the hub is to tell every replica, once it is back, that notices were missed
    /// ([`HubEvent::Missed`]).
    pub async fn notify_updated(&self, uri: &str) -> Result<(), HubError> {
        self.notify(Notice::updated(uri)).await
    }

    /// Publishes to every replica's subscribers that the lists of resources or templates
    /// changed (`notifications/resources/list_changed`), as
    /// [`notify_updated`](Self::notify_updated) does for one resource. It reaches the legacy
    /// sessions that subscribed to something, and the listen streams that asked for list
    /// changes.
    ///
    /// ```
    /// # async fn f() -> Result<(), rfc6570_rmcp::HubError> {
    /// rfc6570_rmcp::Subscriptions::new().notify_list_changed().await?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// As [`notify_updated`](Self::notify_updated).
    pub async fn notify_list_changed(&self) -> Result<(), HubError> {
        self.notify(Notice::ListChanged).await
    }

    async fn notify(&self, notice: Notice) -> Result<(), HubError> {
        let hub = self.lock().hub.clone();
        let Some(hub) = hub else {
            self.deliver(&notice);
            return Ok(());
        };
        hub.publish(notice.clone()).await.inspect_err(|_| {
            self.deliver(&notice);
        })
    }

    /// Makes `hub` carry this server's notices: `notify_updated` and `notify_list_changed`
    /// publish to it, and a task delivers to this process's subscribers what it hears, from
    /// the first subscriber on. One hub serves one `Subscriptions` (and all its clones).
    ///
    /// ```
    /// # use rfc6570_rmcp::{BoxFuture, Hub, HubError, HubEvent, Notice};
    /// # struct MyHub;
    /// # impl Hub for MyHub {
    /// #     fn publish(&self, _: Notice) -> BoxFuture<'_, Result<(), HubError>> { Box::pin(async { Ok(()) }) }
    /// #     fn events(&self) -> Result<tokio::sync::mpsc::Receiver<HubEvent>, HubError> { Ok(tokio::sync::mpsc::channel(1).1) }
    /// # }
    /// let subscriptions = rfc6570_rmcp::Subscriptions::new().hub(MyHub)?;
    /// # Ok::<(), HubError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`HubError::EventsTaken`]: the hub's events went to another `Subscriptions`.
    pub fn hub(self, hub: impl Hub) -> Result<Self, HubError> {
        let events = hub.events()?;
        {
            let mut shared = self.lock();
            shared.hub = Some(Arc::new(hub));
            shared.events = Some(events);
        }
        Ok(self)
    }

    /// Starts delivering what the hub says, once, from inside the runtime that serves.
    fn start_listening(&self, shared: &mut Shared) {
        if let Some(mut events) = shared.events.take() {
            // What the hub said before anyone subscribed here concerned no one.
            while events.try_recv().is_ok() {}
            tokio::spawn(deliver_events(Arc::downgrade(&self.shared), events));
        }
    }

    /// Queues `notice` to this process's subscribers, and says for how many.
    fn deliver(&self, notice: &Notice) -> usize {
        match notice {
            Notice::Updated(uri) => self.deliver_updated(uri),
            Notice::ListChanged => self.deliver_list_changed(),
            Notice::Stale => self.deliver_stale(),
        }
    }

    /// Queues `notifications/resources/updated` for `uri` to this process's subscribers of it
    /// (or of a resource it lies under), and says for how many. This is what the hub's task
    /// calls for a notice from any replica; called directly, it bypasses the hub and reaches
    /// this process alone. Sessions whose connection has closed are forgotten.
    ///
    /// ```
    /// let subscriptions = rfc6570_rmcp::Subscriptions::new();
    /// assert_eq!(subscriptions.deliver_updated("file:///docs/a.md"), 0);
    /// ```
    pub fn deliver_updated(&self, uri: &str) -> usize {
        let normal = normalize(uri);
        let mut shared = self.lock();
        shared.forget_closed();
        let mut offers = Vec::new();
        for session in &shared.sessions {
            if session.uris.iter().any(|s| covers(&s.normal, &normal)) {
                offers.push(session.outbox.offer(Outgoing::Updated(uri.to_owned())));
            }
        }
        for stream in &shared.streams {
            let closest = stream
                .uris
                .iter()
                .filter(|s| covers(&s.normal, &normal))
                .max_by_key(|s| s.normal.len());
            if let Some(subscribed) = closest {
                offers.push(
                    stream
                        .outbox
                        .offer(Outgoing::Updated(subscribed.sent.clone())),
                );
            }
        }
        let tally = shared.tally(offers);
        drop(shared);
        tally.report()
    }

    /// Queues `notifications/resources/list_changed` to this process's legacy sessions and to
    /// the listen streams that asked for list changes, and says for how many; like
    /// [`deliver_updated`](Self::deliver_updated), it bypasses the hub.
    ///
    /// ```
    /// assert_eq!(rfc6570_rmcp::Subscriptions::new().deliver_list_changed(), 0);
    /// ```
    pub fn deliver_list_changed(&self) -> usize {
        let mut shared = self.lock();
        shared.forget_closed();
        let sessions = shared.sessions.iter().map(|s| &s.outbox);
        let streams = shared
            .streams
            .iter()
            .filter(|s| s.list_changed)
            .map(|s| &s.outbox);
        let offers = sessions
            .chain(streams)
            .map(|outbox| outbox.offer(Outgoing::ListChanged))
            .collect();
        let tally = shared.tally(offers);
        drop(shared);
        tally.report()
    }

    /// Tells every subscriber of this process that its view may be stale: an update for each
    /// URI it subscribed to, and a list change to the legacy sessions and to the streams that
    /// asked for them. What the hub's task does once notices were missed; it bypasses the hub.
    /// The notice waits beside each subscriber's queue, not in it, so a full queue does not
    /// lose it. Says how many subscribers were told.
    ///
    /// ```
    /// assert_eq!(rfc6570_rmcp::Subscriptions::new().deliver_stale(), 0);
    /// ```
    pub fn deliver_stale(&self) -> usize {
        let mut shared = self.lock();
        shared.forget_closed();
        let sessions = shared
            .sessions
            .iter()
            .map(|session| session.outbox.stale(Stale::of(&session.uris, true)));
        let streams = shared.streams.iter().map(|stream| {
            stream
                .outbox
                .stale(Stale::of(&stream.uris, stream.list_changed))
        });
        let offers = sessions.chain(streams).collect();
        let tally = shared.tally(offers);
        drop(shared);
        tally.report()
    }

    /// The legacy `resources/subscribe`.
    pub(crate) async fn subscribe<S>(
        &self,
        router: &ResourceRouter<S>,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let revision = revision(&context);
        router
            .check(&request.uri)
            .map_err(|e| e.to_error_data(&request.uri, revision))?;
        let handshake = context.peer.peer_info();
        let mut shared = self.lock();
        shared.forget_closed();
        self.start_listening(&mut shared);
        let limit = shared.limit;
        let at = match shared
            .sessions
            .iter()
            .position(|s| same(&s.handshake, &handshake))
        {
            Some(at) => at,
            None => {
                let outbox = Outbox::new(Target::Session(context.peer.clone()), shared.queue);
                shared.sessions.push(Session {
                    peer: context.peer.clone(),
                    handshake,
                    uris: BTreeSet::new(),
                    outbox,
                });
                shared.sessions.len() - 1
            }
        };
        let session = &mut shared.sessions[at];
        let subscribed = Subscribed::new(&request.uri);
        if session.uris.iter().any(|s| s.normal == subscribed.normal) {
            return Ok(());
        }
        if session.uris.len() >= limit {
            return Err(too_many(limit));
        }
        session.uris.insert(subscribed);
        Ok(())
    }

    /// The legacy `resources/unsubscribe`: URIs not subscribed are fine.
    pub(crate) fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let handshake = context.peer.peer_info();
        let normal = normalize(&request.uri);
        let mut shared = self.lock();
        if let Some(session) = shared
            .sessions
            .iter_mut()
            .find(|s| same(&s.handshake, &handshake))
        {
            session.uris.retain(|s| s.normal != normal);
        }
        Ok(())
    }

    /// For `subscriptions/listen`: the requested resource URIs that the router serves, each
    /// once, at most the limit, and resource list changes if asked for
    /// ([`notify_list_changed`](Self::notify_list_changed)).
    pub(crate) fn accept<S>(
        &self,
        router: &ResourceRouter<S>,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let limit = self.lock().limit;
        let mut seen = BTreeSet::new();
        let uris: Vec<String> = requested
            .resource_subscriptions
            .iter()
            .flatten()
            .filter(|uri| router.check(uri).is_ok() && seen.insert(normalize(uri)))
            .take(limit)
            .cloned()
            .collect();
        let mut accepted = SubscriptionFilter::default();
        accepted.resource_subscriptions = (!uris.is_empty()).then_some(uris);
        accepted.resources_list_changed = requested.resources_list_changed.filter(|asked| *asked);
        Some(accepted)
    }

    /// For `subscriptions/listen`: holds the stream until the client cancels it.
    pub(crate) async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let mut uris: Vec<Subscribed> = Vec::new();
        for uri in context.accepted().resource_subscriptions.iter().flatten() {
            let subscribed = Subscribed::new(uri);
            if !uris.iter().any(|s| s.normal == subscribed.normal) {
                uris.push(subscribed);
            }
        }
        let key = {
            let mut shared = self.lock();
            if uris.len() > shared.limit {
                return Err(too_many(shared.limit));
            }
            if shared.streams.len() >= shared.max_streams {
                return Err(ErrorData::invalid_params(
                    format!(
                        "too many subscription streams (at most {})",
                        shared.max_streams
                    ),
                    None,
                ));
            }
            self.start_listening(&mut shared);
            let key = shared.next_stream;
            shared.next_stream += 1;
            let outbox = Outbox::new(Target::Stream(context.sink().clone()), shared.queue);
            let list_changed = context.accepted().resources_list_changed == Some(true);
            shared.streams.push(Stream {
                key,
                uris,
                outbox,
                list_changed,
            });
            key
        };
        // Forgotten when the stream ends, and also when rmcp drops this future.
        let _registered = Registered {
            subscriptions: self,
            key,
        };
        context.cancelled().await;
        Ok(())
    }
}

/// Delivers what a hub says to the subscriptions behind `shared`, for as long as they exist.
async fn deliver_events(shared: Weak<Mutex<Shared>>, mut events: mpsc::Receiver<HubEvent>) {
    while let Some(event) = events.recv().await {
        let Some(shared) = shared.upgrade() else {
            return;
        };
        let subscriptions = Subscriptions { shared };
        match event {
            HubEvent::Notice(notice) => subscriptions.deliver(&notice),
            // Missed notices, or a kind of event newer than this crate: assume the worst.
            _ => subscriptions.deliver_stale(),
        };
    }
}

/// Whether two legacy handshakes are one session's: rmcp keeps one per connection.
fn same(
    a: &Option<Arc<InitializeRequestParams>>,
    b: &Option<Arc<InitializeRequestParams>>,
) -> bool {
    matches!((a, b), (Some(a), Some(b)) if Arc::ptr_eq(a, b))
}

impl Shared {
    /// Forgets the legacy sessions whose connection has closed, before a delivery.
    fn forget_closed(&mut self) {
        self.sessions.retain(|s| !s.peer.is_transport_closed());
    }

    /// How many of `offers` were queued; the dropped ones are counted.
    fn tally(&mut self, offers: Vec<Offer>) -> Tally {
        let mut tally = Tally::default();
        for offer in offers {
            match offer {
                Offer::Queued => tally.queued += 1,
                Offer::Dropped { first } => {
                    self.dropped += 1;
                    tally.newly_full += usize::from(first);
                }
                Offer::Closed => {}
            }
        }
        tally.dropped = self.dropped;
        tally
    }
}

/// What became of one delivery's notifications.
#[derive(Default)]
#[must_use]
struct Tally {
    queued: usize,
    /// Subscribers whose queue has just filled up.
    newly_full: usize,
    /// Dropped so far, over all subscribers.
    dropped: u64,
}

impl Tally {
    /// Logs, once per subscriber each time its queue fills up, and says how many were queued.
    /// Called with the lock released: a flood of drops does not hold up the others.
    fn report(self) -> usize {
        if self.newly_full > 0 {
            tracing::warn!(
                subscribers = self.newly_full,
                dropped = self.dropped,
                "subscribers' queues are full: notifications to them are dropped until they read"
            );
        }
        self.queued
    }
}

fn too_many(limit: usize) -> ErrorData {
    ErrorData::invalid_params(
        format!("too many resource subscriptions (at most {limit})"),
        None,
    )
}

/// A listen stream in the set, for as long as it lives.
struct Registered<'a> {
    subscriptions: &'a Subscriptions,
    key: u64,
}

impl Drop for Registered<'_> {
    fn drop(&mut self) {
        self.subscriptions
            .lock()
            .streams
            .retain(|s| s.key != self.key);
    }
}
