//! Resource subscriptions: the legacy `resources/subscribe` sets of each session and the
//! 2026-07-28 `subscriptions/listen` streams, bounded, and [`Subscriptions::notify_updated`],
//! which reaches the subscribers of a URI and of every resource it lies under.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, MutexGuard};

use rmcp::model::{
    InitializeRequestParams, ResourceUpdatedNotificationParam, SubscribeRequestParams,
    SubscriptionFilter, UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, SubscriptionContext, SubscriptionSink};
use rmcp::{ErrorData, Peer, RoleServer};

use crate::router::{revision, ResourceRouter};

/// The resource subscriptions of a server, shared by its clones.
///
/// Give a handler one with `#[resource_handler(subscriptions = self.subscriptions)]` and it
/// answers `subscriptions/listen` (revision 2026-07-28) and the legacy `resources/subscribe` and
/// `resources/unsubscribe`, and declares `resources.subscribe`. A subscription is accepted only
/// for a URI the router serves (path safety included). Each legacy session, and each listen
/// stream, holds at most [`limit`](Self::limit) distinct URIs; at most
/// [`max_streams`](Self::max_streams) streams are open at once. One `Subscriptions` may serve
/// every session of a server: legacy sessions are told apart by their handshake.
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
    sessions: Vec<Session>,
    streams: Vec<Stream>,
    next_stream: u64,
}

/// A legacy session: its peer, the handshake that tells it apart, and the URIs it subscribed
/// to, as sent and as compared.
#[derive(Debug)]
struct Session {
    peer: Peer<RoleServer>,
    handshake: Option<Arc<InitializeRequestParams>>,
    uris: BTreeSet<Subscribed>,
}

#[derive(Debug)]
struct Stream {
    key: u64,
    sink: SubscriptionSink,
    uris: Vec<Subscribed>,
}

/// A subscribed URI: as the client sent it, and normalized for comparison.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Subscribed {
    normal: String,
    sent: String,
}

impl Subscribed {
    fn new(uri: &str) -> Self {
        Self {
            normal: normalize(uri),
            sent: uri.to_owned(),
        }
    }
}

/// `uri` with every triplet of an ASCII character decoded but those of `/`, `?`, `#` and `%`
/// (which would change its structure), and the others uppercased: two spellings of one resource
/// compare equal.
fn normalize(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let triplet = bytes.get(i + 1..i + 3).and_then(|hex| {
            let hex = std::str::from_utf8(hex).ok()?;
            u8::from_str_radix(hex, 16).ok()
        });
        match (bytes[i], triplet) {
            (b'%', Some(byte)) if byte.is_ascii() && !b"/?#%".contains(&byte) => {
                out.push(byte);
                i += 3;
            }
            (b'%', Some(_)) => {
                out.extend_from_slice(&bytes[i..i + 3].to_ascii_uppercase());
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether a subscription to `subscribed` covers an update of `uri` (both normalized).
fn covers(subscribed: &str, uri: &str) -> bool {
    if subscribed == uri {
        return true;
    }
    if subscribed.contains(['?', '#']) {
        return false;
    }
    match uri.strip_prefix(subscribed) {
        Some(rest) => subscribed.ends_with('/') || rest.starts_with('/'),
        None => false,
    }
}

/// Where one update goes.
enum Delivery {
    Legacy(Peer<RoleServer>),
    /// A stream, and the URI it subscribed to that covers the update.
    Stream(SubscriptionSink, String),
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
                sessions: Vec::new(),
                streams: Vec::new(),
                next_stream: 0,
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

    /// Sends `notifications/resources/updated` for `uri` to every subscriber of it or of a
    /// resource it lies under, and says how many got it. Sessions whose connection has closed
    /// are forgotten.
    ///
    /// ```
    /// # async fn f() {
    /// let subscriptions = rfc6570_rmcp::Subscriptions::new();
    /// assert_eq!(subscriptions.notify_updated("file:///docs/a.md").await, 0);
    /// # }
    /// ```
    pub async fn notify_updated(&self, uri: &str) -> usize {
        let mut delivered = 0;
        for delivery in self.deliveries(&normalize(uri)) {
            let sent = match delivery {
                Delivery::Legacy(peer) => peer
                    .notify_resource_updated(ResourceUpdatedNotificationParam::new(uri))
                    .await
                    .is_ok(),
                Delivery::Stream(sink, subscribed) => {
                    sink.notify_resource_updated(subscribed).await.is_ok()
                }
            };
            delivered += usize::from(sent);
        }
        delivered
    }

    fn deliveries(&self, normal: &str) -> Vec<Delivery> {
        let mut shared = self.lock();
        shared.sessions.retain(|s| !s.peer.is_transport_closed());
        let mut out = Vec::new();
        for session in &shared.sessions {
            if session.uris.iter().any(|s| covers(&s.normal, normal)) {
                out.push(Delivery::Legacy(session.peer.clone()));
            }
        }
        for stream in &shared.streams {
            let closest = stream
                .uris
                .iter()
                .filter(|s| covers(&s.normal, normal))
                .max_by_key(|s| s.normal.len());
            if let Some(subscribed) = closest {
                out.push(Delivery::Stream(
                    stream.sink.clone(),
                    subscribed.sent.clone(),
                ));
            }
        }
        out
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
        let limit = shared.limit;
        let at = match shared
            .sessions
            .iter()
            .position(|s| same(&s.handshake, &handshake))
        {
            Some(at) => at,
            None => {
                shared.sessions.push(Session {
                    peer: context.peer.clone(),
                    handshake,
                    uris: BTreeSet::new(),
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
    /// once, at most the limit; list-change notifications are not offered (the router's lists
    /// are fixed).
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
            let key = shared.next_stream;
            shared.next_stream += 1;
            shared.streams.push(Stream {
                key,
                sink: context.sink().clone(),
                uris,
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

/// Whether two legacy handshakes are one session's: rmcp keeps one per connection.
fn same(
    a: &Option<Arc<InitializeRequestParams>>,
    b: &Option<Arc<InitializeRequestParams>>,
) -> bool {
    matches!((a, b), (Some(a), Some(b)) if Arc::ptr_eq(a, b))
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

#[cfg(test)]
mod tests {
    use super::{covers, normalize};

    fn covered(subscribed: &str, uri: &str) -> bool {
        covers(&normalize(subscribed), &normalize(uri))
    }

    #[test]
    fn a_subscription_covers_the_resources_under_it() {
        assert!(covered("file:///docs/a.md", "file:///docs/a.md"));
        assert!(covered("file:///docs", "file:///docs/a.md"));
        assert!(covered("file:///docs/", "file:///docs/a.md"));
        assert!(covered("file:///", "file:///docs/a.md"));
        assert!(!covered("file:///do", "file:///docs/a.md"));
        assert!(!covered("file:///docs/a.md", "file:///docs"));
        assert!(!covered("search://docs?q=a", "search://docs?q=a/b"));
        assert!(!covered("notes://a", "notes://a?x"));
    }

    #[test]
    fn spellings_of_one_resource_compare_equal() {
        assert!(covered("file:///docs/a+b.md", "file:///docs/a%2Bb.md"));
        assert!(covered("file:///docs/a%2emd", "file:///docs/a.md"));
        assert!(covered("file:///docs/%7euser", "file:///docs/~user"));
        // An encoded separator stays one: it is a different path.
        assert!(!covered("file:///docs", "file:///docs%2Fa.md"));
        assert_eq!(normalize("x://a%2fb%25"), "x://a%2Fb%25");
        assert_eq!(normalize("x://%"), "x://%");
        assert_eq!(normalize("x://%c3%a9"), "x://%C3%A9");
    }
}
