//! Resource subscriptions of one session: the 2026-07-28 `subscriptions/listen` streams and the
//! legacy `resources/subscribe` set, bounded, and [`Subscriptions::notify_updated`], which
//! reaches the subscribers of a URI and of every resource it lies under.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, MutexGuard};

use rmcp::model::{
    ResourceUpdatedNotificationParam, SubscribeRequestParams, SubscriptionFilter,
    UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, SubscriptionContext, SubscriptionSink};
use rmcp::{ErrorData, Peer, RoleServer};

use crate::router::{protocol_version, ResourceRouter};

/// The resource subscriptions of a session, shared by its clones.
///
/// Give a handler one with `#[resource_handler(subscriptions = self.subscriptions)]` and it
/// answers `subscriptions/listen` (revision 2026-07-28) and the legacy `resources/subscribe` and
/// `resources/unsubscribe`, and declares `resources.subscribe`. A subscription is accepted only
/// for a URI the router serves (path safety included), and at most [`limit`](Self::limit) of
/// them at once. rmcp makes one handler per session, so one `Subscriptions` in the handler's
/// state is one session's; a clone shares the set.
///
/// [`notify_updated(uri)`](Self::notify_updated) tells every subscriber of `uri`, and of any
/// resource `uri` lies under: `file:///docs/` and `file:///docs` both cover
/// `file:///docs/a.md`; a subscribed URI with a query or fragment covers only itself. A legacy
/// subscriber gets the update as `uri` (the schema lets it name a sub-resource of the one
/// subscribed). A `subscriptions/listen` stream gets it as the subscribed URI that covers it,
/// the closest one: clients may refuse, on a stream, any URI they did not subscribe to (rmcp's
/// client ends the stream), so the stream hears "what you subscribed to changed".
///
/// ```
/// use rfc6570_rmcp::Subscriptions;
///
/// let subscriptions = Subscriptions::new().limit(10);
/// assert_eq!(subscriptions.len(), 0);
/// ```
#[derive(Debug, Clone)]
pub struct Subscriptions {
    limit: usize,
    state: Arc<Mutex<State>>,
}

#[derive(Debug, Default)]
struct State {
    /// The legacy set, and the peer that made it.
    legacy: Option<(Peer<RoleServer>, BTreeSet<String>)>,
    streams: Vec<Stream>,
    next_stream: u64,
}

#[derive(Debug)]
struct Stream {
    key: u64,
    sink: SubscriptionSink,
    uris: Vec<String>,
}

impl State {
    fn count(&self) -> usize {
        let legacy = self.legacy.as_ref().map_or(0, |(_, uris)| uris.len());
        legacy + self.streams.iter().map(|s| s.uris.len()).sum::<usize>()
    }
}

/// Whether a subscription to `subscribed` covers an update of `uri`.
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
    /// No subscriptions, at most 100 at once.
    ///
    /// ```
    /// let subscriptions = rfc6570_rmcp::Subscriptions::new();
    /// ```
    pub fn new() -> Self {
        Self {
            limit: 100,
            state: Arc::default(),
        }
    }

    /// At most `limit` subscribed URIs at once, over every stream and the legacy set.
    ///
    /// ```
    /// let subscriptions = rfc6570_rmcp::Subscriptions::new().limit(20);
    /// ```
    pub fn limit(mut self, limit: usize) -> Self {
        self.limit = limit;
        self
    }

    /// How many URIs are subscribed now.
    ///
    /// ```
    /// assert_eq!(rfc6570_rmcp::Subscriptions::new().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.lock().count()
    }

    /// Whether nothing is subscribed.
    ///
    /// ```
    /// assert!(rfc6570_rmcp::Subscriptions::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves the set as it was: still usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends `notifications/resources/updated` for `uri` to every subscriber of it or of a
    /// resource it lies under, and says how many got it. Subscribers whose connection has
    /// closed are forgotten.
    ///
    /// ```
    /// # async fn f() {
    /// let subscriptions = rfc6570_rmcp::Subscriptions::new();
    /// assert_eq!(subscriptions.notify_updated("file:///docs/a.md").await, 0);
    /// # }
    /// ```
    pub async fn notify_updated(&self, uri: &str) -> usize {
        let deliveries = self.deliveries(uri);
        let mut delivered = 0;
        for delivery in deliveries {
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

    fn deliveries(&self, uri: &str) -> Vec<Delivery> {
        let mut state = self.lock();
        if state
            .legacy
            .as_ref()
            .is_some_and(|(peer, _)| peer.is_transport_closed())
        {
            state.legacy = None;
        }
        let mut out = Vec::new();
        if let Some((peer, uris)) = &state.legacy {
            if uris.iter().any(|s| covers(s, uri)) {
                out.push(Delivery::Legacy(peer.clone()));
            }
        }
        for stream in &state.streams {
            let closest = stream
                .uris
                .iter()
                .filter(|s| covers(s, uri))
                .max_by_key(|s| s.len());
            if let Some(subscribed) = closest {
                out.push(Delivery::Stream(stream.sink.clone(), subscribed.clone()));
            }
        }
        out
    }

    /// The legacy `resources/subscribe`: adds the URI to the session's set.
    ///
    /// # Errors
    ///
    /// The router's "resource not found" for a URI it does not serve; `-32602` when the set is
    /// full.
    #[doc(hidden)]
    pub async fn subscribe<S>(
        &self,
        router: &ResourceRouter<S>,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let version = protocol_version(&context);
        router
            .check(&request.uri)
            .map_err(|e| e.to_error_data(&request.uri, &version))?;
        let mut state = self.lock();
        let full = state.count() >= self.limit;
        let (peer, uris) = state
            .legacy
            .get_or_insert_with(|| (context.peer.clone(), BTreeSet::new()));
        *peer = context.peer;
        if uris.contains(&request.uri) {
            return Ok(());
        }
        if full {
            return Err(self.full());
        }
        uris.insert(request.uri);
        Ok(())
    }

    fn full(&self) -> ErrorData {
        ErrorData::invalid_params(
            format!(
                "too many resource subscriptions on this session (at most {})",
                self.limit
            ),
            None,
        )
    }

    /// The legacy `resources/unsubscribe`: removes the URI; unknown URIs are fine.
    ///
    /// # Errors
    ///
    /// None today; the `Result` is what rmcp's handler returns.
    #[doc(hidden)]
    pub fn unsubscribe(&self, request: UnsubscribeRequestParams) -> Result<(), ErrorData> {
        if let Some((_, uris)) = &mut self.lock().legacy {
            uris.remove(&request.uri);
        }
        Ok(())
    }

    /// For `subscriptions/listen`: the requested resource URIs that the router serves, at most
    /// the limit; list-change notifications are not offered (the router's lists are fixed).
    #[doc(hidden)]
    pub fn accept<S>(
        &self,
        router: &ResourceRouter<S>,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let uris: Vec<String> = requested
            .resource_subscriptions
            .iter()
            .flatten()
            .filter(|uri| router.check(uri).is_ok())
            .take(self.limit)
            .cloned()
            .collect();
        let mut accepted = SubscriptionFilter::default();
        accepted.resource_subscriptions = (!uris.is_empty()).then_some(uris);
        Some(accepted)
    }

    /// For `subscriptions/listen`: holds the stream until the client cancels it.
    ///
    /// # Errors
    ///
    /// `-32602` when the stream's URIs would take the session over the limit.
    #[doc(hidden)]
    pub async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let uris = context
            .accepted()
            .resource_subscriptions
            .clone()
            .unwrap_or_default();
        let key = {
            let mut state = self.lock();
            if state.count() + uris.len() > self.limit {
                return Err(self.full());
            }
            let key = state.next_stream;
            state.next_stream += 1;
            state.streams.push(Stream {
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
    use super::covers;

    #[test]
    fn a_subscription_covers_the_resources_under_it() {
        assert!(covers("file:///docs/a.md", "file:///docs/a.md"));
        assert!(covers("file:///docs", "file:///docs/a.md"));
        assert!(covers("file:///docs/", "file:///docs/a.md"));
        assert!(covers("file:///", "file:///docs/a.md"));
        assert!(!covers("file:///do", "file:///docs/a.md"));
        assert!(!covers("file:///docs/a.md", "file:///docs"));
        assert!(!covers("search://docs?q=a", "search://docs?q=a/b"));
        assert!(!covers("notes://a", "notes://a?x"));
    }
}
