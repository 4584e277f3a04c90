//! [`RedisHub`] (feature `redis`): the notification hub over Redis pub/sub, so that the
//! subscribers of every replica of a server hear of a change made anywhere.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{AsyncCommands, PushInfo, PushKind, Value};
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use crate::hub::{Hub, HubError, HubEvent, Notice};
use crate::read::BoxFuture;

/// How many events may wait for a replica's delivery task; past that, the replica is told
/// that it missed some ([`HubEvent::Missed`]) rather than holding more.
const EVENTS: usize = 1024;
/// The wait between attempts to reach Redis again: doubling from the first to the last.
const BACKOFF: (Duration, Duration) = (Duration::from_millis(50), Duration::from_secs(2));
/// How long a command (a publish, a ping) may take before it fails.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(2);
/// How often an idle reader pings Redis: a connection that died without closing (a partition,
/// a proxy that dropped it) shows within about this plus `COMMAND_TIMEOUT`.
const HEARTBEAT: Duration = Duration::from_secs(5);

/// A notification hub on Redis pub/sub: the replicas of a server, and the processes that
/// publish for it, share one channel; each notice is a message that carries its kind and its
/// URI, and nothing else of the process.
///
/// `connect` subscribes to the channel over a RESP3 connection kept by redis-rs's
/// `ConnectionManager`, which reconnects a dropped connection with backoff. The hub pings an
/// idle connection every 5 s, with TCP keepalive and (on Linux) a TCP user timeout, so that a
/// connection that died without closing is found too; each time Redis is reached again, the
/// hub subscribes again before it says so. What is delivered:
///
/// - While connected, every notice published by any replica or publisher reaches every
///   replica, this one included, in the order Redis received them: so, per URI, in the order
///   they were published from one process. Order across processes is Redis's order of arrival.
/// - A notice published while this hub cannot reach Redis is refused within about 2 s
///   ([`HubError::Unavailable`]; the replica's own subscribers are told directly); once the hub
///   reaches Redis again (at its next publish or ping) it publishes [`Notice::Stale`], so that
///   every replica tells its subscribers to read again. A publish that timed out may yet have
///   reached Redis: the replica's own subscribers then hear of it twice.
/// - After its connection is lost and found again, the hub tells its own replica that notices
///   may have been missed ([`HubEvent::Missed`]): every subscriber hears of every URI it
///   subscribed to. A replica that falls more than 1,024 events behind is told the same.
///
/// `connect` fails if Redis cannot be reached then: a replica does not start without its hub.
///
/// The example of the README (feature `redis`), compiled here:
///
/// ```no_run
/// use rfc6570_rmcp::{Hub, Notice, RedisHub, Subscriptions};
///
/// # async fn f() -> Result<(), rfc6570_rmcp::HubError> {
/// let channel = RedisHub::channel("mcp", "docs-server"); // one per server, shared by its replicas
/// let subscriptions = Subscriptions::new().hub(RedisHub::connect("redis://127.0.0.1/", &channel).await?)?;
/// subscriptions.notify_updated("docs://guide/intro.md").await?; // every replica's subscribers
///
/// // A worker that serves nothing publishes the same way.
/// let worker = RedisHub::connect("redis://127.0.0.1/", &channel).await?;
/// worker.publish(Notice::updated("docs://guide/intro.md")).await?;
/// # Ok(()) }
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub struct RedisHub {
    connection: ConnectionManager,
    channel: String,
    events: Mutex<Option<mpsc::Receiver<HubEvent>>>,
    /// A publish failed since Redis was last reached: owed to every replica as `stale`.
    owed: Arc<AtomicBool>,
    /// Ends the task that reads the channel when the hub is dropped.
    _reader: AbortOnDrop,
}

impl std::fmt::Debug for RedisHub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisHub")
            .field("channel", &self.channel)
            .finish_non_exhaustive()
    }
}

struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// A notice as it travels: `{"kind":"updated","uri":"notes://a"}`, `{"kind":"list_changed"}`,
/// `{"kind":"stale"}`.
#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Message {
    Updated { uri: String },
    ListChanged,
    Stale,
}

impl Message {
    fn of(notice: Notice) -> Self {
        match notice {
            Notice::Updated(uri) => Self::Updated { uri },
            Notice::ListChanged => Self::ListChanged,
            Notice::Stale => Self::Stale,
        }
    }

    fn notice(self) -> Notice {
        match self {
            Self::Updated { uri } => Notice::Updated(uri),
            Self::ListChanged => Notice::ListChanged,
            Self::Stale => Notice::Stale,
        }
    }
}

/// The hub is unavailable because `doing` failed with `e`.
fn unavailable(doing: &'static str) -> impl FnOnce(redis::RedisError) -> HubError {
    move |e| HubError::Unavailable {
        reason: doing.into(),
        source: Some(Box::new(e)),
    }
}

/// A message's JSON text: serializing an enum of strings cannot fail.
fn payload(message: &Message) -> String {
    serde_json::to_string(message).unwrap_or_default()
}

impl RedisHub {
    /// The channel of `server`'s notices under `prefix`: `{prefix}:{server}:resources`. Every
    /// replica of one server, and every process that publishes for it, uses the same.
    ///
    /// ```
    /// assert_eq!(rfc6570_rmcp::RedisHub::channel("mcp", "docs"), "mcp:docs:resources");
    /// ```
    pub fn channel(prefix: &str, server: &str) -> String {
        format!("{prefix}:{server}:resources")
    }

    /// Connects to the Redis at `url` (`redis://host:port/db`; RESP3 is asked for, which Redis
    /// 6 and later speak) and subscribes to `channel`. Must be called inside a tokio runtime:
    /// it starts the task that reads the channel, which ends when the hub is dropped.
    ///
    /// ```no_run
    /// # async fn f() -> Result<(), rfc6570_rmcp::HubError> {
    /// let hub = rfc6570_rmcp::RedisHub::connect("redis://127.0.0.1/", "mcp:docs:resources").await?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// The URL does not parse, or Redis cannot be reached or subscribed to now.
    pub async fn connect(url: &str, channel: &str) -> Result<Self, HubError> {
        let info = redis::IntoConnectionInfo::into_connection_info(url)
            .map_err(unavailable("the Redis URL does not parse"))?;
        let settings = info.redis_settings().clone();
        let info = info
            .set_redis_settings(settings.set_protocol(redis::ProtocolVersion::RESP3))
            .set_tcp_settings(tcp_settings());
        let client =
            redis::Client::open(info).map_err(unavailable("the Redis URL is not usable"))?;
        let (pushes, pushed) = mpsc::unbounded_channel();
        let config = ConnectionManagerConfig::new()
            .set_push_sender(pushes)
            .set_automatic_resubscription()
            .set_connection_timeout(Some(COMMAND_TIMEOUT))
            .set_response_timeout(Some(COMMAND_TIMEOUT))
            .set_number_of_retries(2)
            .set_max_delay(BACKOFF.1);
        let mut connection = ConnectionManager::new_with_config(client, config)
            .await
            .map_err(unavailable("cannot connect to Redis"))?;
        connection
            .subscribe(channel)
            .await
            .map_err(unavailable("cannot subscribe to the hub's channel"))?;
        let (events, heard) = mpsc::channel(EVENTS);
        let owed = Arc::new(AtomicBool::new(false));
        let reader = Reader {
            connection: connection.clone(),
            channel: channel.to_owned(),
            events,
            owed: Arc::clone(&owed),
            behind: false,
        };
        let task = tokio::spawn(reader.run(pushed));
        Ok(Self {
            connection,
            channel: channel.to_owned(),
            events: Mutex::new(Some(heard)),
            owed,
            _reader: AbortOnDrop(task),
        })
    }
}

impl Hub for RedisHub {
    fn publish(&self, notice: Notice) -> BoxFuture<'_, Result<(), HubError>> {
        Box::pin(async move {
            let mut connection = self.connection.clone();
            let published = publish(&mut connection, &self.channel, &Message::of(notice)).await;
            if let Err(e) = published {
                self.owed.store(true, Ordering::SeqCst);
                return Err(e);
            }
            // A failure that no lost connection followed (a timeout) is owed here, once Redis
            // takes a publish again (or at the reader's next ping).
            pay_owed(&mut connection, &self.channel, &self.owed).await;
            Ok(())
        })
    }

    fn events(&self) -> Result<mpsc::Receiver<HubEvent>, HubError> {
        let mut events = self.events.lock().unwrap_or_else(|e| e.into_inner());
        events.take().ok_or(HubError::EventsTaken)
    }
}

/// TCP settings that find a dead connection: keepalive probes, and on Linux a user timeout
/// that closes a connection whose data (a ping) goes unacknowledged.
fn tcp_settings() -> redis::io::tcp::TcpSettings {
    use redis::io::tcp::socket2::TcpKeepalive;
    let keepalive = TcpKeepalive::new()
        .with_time(HEARTBEAT)
        .with_interval(COMMAND_TIMEOUT);
    let settings = redis::io::tcp::TcpSettings::default()
        .set_nodelay(true)
        .set_keepalive(keepalive);
    #[cfg(any(target_os = "android", target_os = "fuchsia", target_os = "linux"))]
    let settings = settings.set_user_timeout(HEARTBEAT);
    settings
}

/// Publishes `message` on `channel`, within `COMMAND_TIMEOUT` (the connection manager may be
/// reconnecting, which could take longer).
async fn publish(
    connection: &mut ConnectionManager,
    channel: &str,
    message: &Message,
) -> Result<(), HubError> {
    let published = connection.publish::<_, _, i64>(channel, payload(message));
    match tokio::time::timeout(COMMAND_TIMEOUT, published).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(e)) => Err(unavailable("cannot publish to Redis")(e)),
        Err(_) => Err(HubError::unavailable("publishing to Redis timed out")),
    }
}

/// Publishes the `stale` owed to every replica since a publish failed, if one is owed.
async fn pay_owed(connection: &mut ConnectionManager, channel: &str, owed: &AtomicBool) {
    if owed.swap(false, Ordering::SeqCst)
        && publish(connection, channel, &Message::Stale).await.is_err()
    {
        owed.store(true, Ordering::SeqCst);
    }
}

/// The task that reads the channel, and finds Redis again when the connection drops.
struct Reader {
    connection: ConnectionManager,
    channel: String,
    events: mpsc::Sender<HubEvent>,
    owed: Arc<AtomicBool>,
    /// Events were dropped because the replica's task fell behind.
    behind: bool,
}

/// What woke the reader.
enum Wake {
    Push(PushInfo),
    /// The replica's task has room again for the `Missed` owed to it.
    Room(mpsc::OwnedPermit<HubEvent>),
    Heartbeat,
    /// The connection manager, or the replica, is gone.
    End,
}

impl Reader {
    async fn run(mut self, mut pushed: mpsc::UnboundedReceiver<PushInfo>) {
        let mut heartbeat = tokio::time::interval(HEARTBEAT);
        heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let behind = self.behind;
            let wake = tokio::select! {
                push = pushed.recv() => push.map_or(Wake::End, Wake::Push),
                room = self.events.clone().reserve_owned(), if behind => {
                    room.map_or(Wake::End, Wake::Room)
                }
                _ = heartbeat.tick() => Wake::Heartbeat,
            };
            match wake {
                Wake::Push(push) => self.heard(push).await,
                Wake::Room(permit) => {
                    permit.send(HubEvent::Missed);
                    self.behind = false;
                }
                Wake::Heartbeat => self.check().await,
                Wake::End => return,
            }
            if self.events.is_closed() {
                return;
            }
        }
    }

    async fn heard(&mut self, push: PushInfo) {
        match push.kind {
            PushKind::Message => {
                if let Some(event) = self.event(&push.data) {
                    self.send(event);
                }
            }
            PushKind::Disconnection => {
                tracing::warn!(
                    channel = self.channel,
                    "lost the Redis connection of the notification hub"
                );
                self.recover().await;
            }
            _ => {}
        }
    }

    /// Pings Redis; a connection that does not answer may have missed notices. Pays a `stale`
    /// owed since a publish failed.
    async fn check(&mut self) {
        if self.ping().await {
            pay_owed(&mut self.connection, &self.channel, &self.owed).await;
        } else {
            tracing::warn!(
                channel = self.channel,
                "the Redis connection of the notification hub does not answer"
            );
            self.recover().await;
        }
    }

    /// Finds Redis again, subscribes again, and tells the replica that it may have missed
    /// notices, and every replica what this one could not publish.
    async fn recover(&mut self) {
        self.reach_again().await;
        tracing::info!(
            channel = self.channel,
            "the notification hub reached Redis again"
        );
        self.send(HubEvent::Missed);
        pay_owed(&mut self.connection, &self.channel, &self.owed).await;
    }

    /// The event a message of our channel carries; a message that does not parse means
    /// something was lost.
    fn event(&self, data: &[Value]) -> Option<HubEvent> {
        let [channel, payload, ..] = data else {
            return None;
        };
        let text = |value: &Value| match value {
            Value::BulkString(bytes) => String::from_utf8(bytes.clone()).ok(),
            Value::SimpleString(s) => Some(s.clone()),
            _ => None,
        };
        if text(channel).as_deref() != Some(self.channel.as_str()) {
            return None;
        }
        match text(payload).and_then(|p| serde_json::from_str::<Message>(&p).ok()) {
            Some(message) => Some(HubEvent::Notice(message.notice())),
            None => {
                tracing::warn!(
                    channel = self.channel,
                    "a notice on the hub's channel does not parse"
                );
                Some(HubEvent::Missed)
            }
        }
    }

    /// Hands `event` to the replica, or, if it is behind, drops it and owes it a `Missed`.
    fn send(&mut self, event: HubEvent) {
        if self.behind && self.events.try_send(HubEvent::Missed).is_ok() {
            self.behind = false;
        }
        if self.events.try_send(event).is_err() {
            self.behind = true;
        }
    }

    /// Pings Redis and subscribes to the channel, waiting longer after each failure, until both
    /// succeed (the connection manager reconnects on the way) or the replica is gone.
    async fn reach_again(&mut self) {
        let mut wait = BACKOFF.0;
        loop {
            if self.events.is_closed() || (self.ping().await && self.subscribe().await) {
                return;
            }
            tokio::time::sleep(wait).await;
            wait = (wait * 2).min(BACKOFF.1);
        }
    }

    async fn ping(&mut self) -> bool {
        let command = redis::cmd("PING");
        let ping = command.query_async::<String>(&mut self.connection);
        matches!(tokio::time::timeout(COMMAND_TIMEOUT, ping).await, Ok(Ok(_)))
    }

    /// Subscribes again: the manager resubscribes a new connection by itself, but does not say
    /// whether that worked. Subscribing twice is harmless.
    async fn subscribe(&mut self) -> bool {
        let subscribe = self.connection.subscribe(&self.channel);
        matches!(
            tokio::time::timeout(COMMAND_TIMEOUT, subscribe).await,
            Ok(Ok(()))
        )
    }
}
