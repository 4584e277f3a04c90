//! The notification hub: what carries a change from the process that saw it to every replica
//! of a server, each of which tells its own subscribers. Without one, [`Subscriptions`] is its
//! own hub, in-process. With one ([`Subscriptions::hub`]), `notify_updated` and
//! `notify_list_changed` publish to it, and every replica (this one included) delivers what it
//! hears. [`RedisHub`](crate::RedisHub) (feature `redis`) is one over Redis pub/sub.
//!
//! [`Subscriptions`]: crate::Subscriptions
//! [`Subscriptions::hub`]: crate::Subscriptions::hub

use std::fmt;

use tokio::sync::mpsc;

use crate::read::BoxFuture;

/// A change that every replica's subscribers must hear of.
///
/// ```
/// use rfc6570_rmcp::Notice;
///
/// let notice = Notice::updated("file:///docs/a.md");
/// assert_eq!(notice, Notice::Updated("file:///docs/a.md".into()));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Notice {
    /// A resource changed: its subscribers, and those of the resources it lies under, hear of
    /// it (`notifications/resources/updated`).
    Updated(String),
    /// The lists of resources or templates changed (`notifications/resources/list_changed`).
    ListChanged,
    /// Notices were lost on the way (a replica could not publish): every subscriber's view may
    /// be stale, and each hears of every URI it subscribed to.
    Stale,
}

impl Notice {
    /// A change of the resource `uri`.
    ///
    /// ```
    /// let notice = rfc6570_rmcp::Notice::updated("notes://todo");
    /// ```
    pub fn updated(uri: impl Into<String>) -> Self {
        Self::Updated(uri.into())
    }
}

/// What a hub tells a replica: a notice published anywhere, or that this replica may have
/// missed some (its connection to the hub dropped, or it fell behind), after which it tells
/// each of its subscribers of every URI it subscribed to.
///
/// ```
/// use rfc6570_rmcp::{HubEvent, Notice};
///
/// let event = HubEvent::Notice(Notice::ListChanged);
/// assert_ne!(event, HubEvent::Missed);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HubEvent {
    /// A notice, as published.
    Notice(Notice),
    /// Notices may have been missed since the last event.
    Missed,
}

/// Why a hub could not take a notice, or could not start.
///
/// ```
/// let error = rfc6570_rmcp::HubError::unavailable("connection refused");
/// assert_eq!(error.to_string(), "the notification hub is unavailable: connection refused");
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum HubError {
    /// The hub cannot be reached now.
    Unavailable {
        /// What failed, as the hub's client said it.
        reason: String,
        /// The client's own error, where there is one.
        source: Option<Box<dyn std::error::Error + Send + Sync>>,
    },
    /// The events of this hub are already taken: a hub serves one [`Subscriptions`] (share
    /// that one by cloning it).
    ///
    /// [`Subscriptions`]: crate::Subscriptions
    EventsTaken,
}

impl HubError {
    /// An unreachable hub, for `reason`.
    ///
    /// ```
    /// let error = rfc6570_rmcp::HubError::unavailable("timed out");
    /// ```
    pub fn unavailable(reason: impl Into<String>) -> Self {
        Self::Unavailable {
            reason: reason.into(),
            source: None,
        }
    }
}

impl fmt::Display for HubError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unavailable { reason, .. } => {
                write!(f, "the notification hub is unavailable: {reason}")
            }
            Self::EventsTaken => f.write_str("the hub's events are already taken"),
        }
    }
}

impl std::error::Error for HubError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Unavailable {
                source: Some(source),
                ..
            } => Some(source.as_ref()),
            _ => None,
        }
    }
}

impl fmt::Debug for dyn Hub {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<Hub>")
    }
}

/// A hub that carries notices between the replicas of a server.
///
/// A replica hands one to [`Subscriptions::hub`](crate::Subscriptions::hub); a process that only
/// publishes (a worker, a webhook handler) calls [`publish`](Self::publish) on its own.
///
/// ```
/// use rfc6570_rmcp::{BoxFuture, Hub, HubError, HubEvent, Notice};
/// use tokio::sync::mpsc;
///
/// /// A hub that drops every notice (a real one sends it on, to every replica).
/// struct Nowhere;
///
/// impl Hub for Nowhere {
///     fn publish(&self, _notice: Notice) -> BoxFuture<'_, Result<(), HubError>> {
///         Box::pin(async { Ok(()) })
///     }
///     fn events(&self) -> Result<mpsc::Receiver<HubEvent>, HubError> {
///         Ok(mpsc::channel(1).1)
///     }
/// }
/// ```
pub trait Hub: Send + Sync + 'static {
    /// Sends `notice` to every replica, this one included.
    ///
    /// # Errors
    ///
    /// The hub cannot take it now.
    fn publish(&self, notice: Notice) -> BoxFuture<'_, Result<(), HubError>>;

    /// What this replica hears from now on, in order: taken once.
    ///
    /// # Errors
    ///
    /// [`HubError::EventsTaken`] the second time.
    fn events(&self) -> Result<mpsc::Receiver<HubEvent>, HubError>;
}
