//! Fan-out of `notifications/resources/updated`: 1,000 subscribers spread over 2 replicas that
//! share a [`RedisHub`] on a real `redis-server`, against the same 1,000 on one replica that
//! delivers in process (no hub, the default), in one run.
//!
//! For each setup it reports:
//! - the latency from `notify_updated` on replica A to the client's handler, p50 and p99 over
//!   every subscriber of every round (one notice a round, the next once all have heard), and
//!   the medians over rounds of the first delivery (the hub's own hop) and of the last (when
//!   all 1,000 have heard);
//! - notifications delivered per second, in bursts of notices published back to back;
//! - the memory that one subscription holds: live heap bytes (a counting global allocator)
//!   after every client subscribed to one URI, then to a second, over the bytes before.
//!
//! Clients are rmcp clients on in-memory pipes (the legacy `resources/subscribe`), in the same
//! process as the replicas: the figures are the hub's and the queues' cost, not a network's.
//!
//! ```sh
//! cargo bench -p rfc6570-rmcp --features redis --bench fanout
//! FANOUT_SUBSCRIBERS=200 FANOUT_ROUNDS=50 cargo bench -p rfc6570-rmcp --features redis --bench fanout
//! ```
//!
//! Needs `redis-server` on PATH (it starts its own on a free loopback port); without it, only
//! the in-process setup runs. Bounded: every wait for deliveries fails after 30 s.

#[path = "../tests/it/common/mod.rs"]
mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::redis_server::RedisServer;
use common::{Notes, Revision};
use rfc6570_rmcp::{HubError, RedisHub, Subscriptions};
use rmcp::model::{ResourceUpdatedNotificationParam, SubscribeRequestParams};
use rmcp::service::NotificationContext;
use rmcp::{ClientHandler, RoleClient};

type Outcome<T = ()> = Result<T, Box<dyn std::error::Error>>;

/// Live heap bytes: what was allocated and not yet freed, over every thread.
static LIVE: AtomicIsize = AtomicIsize::new(0);

struct Counting;

// SAFETY: every call is forwarded unchanged to the system allocator; counting touches only an
// atomic integer, which does not allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe {
            LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
            System.alloc(layout)
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        unsafe {
            LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
            System.alloc_zeroed(layout)
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        unsafe {
            LIVE.fetch_add(
                new_size as isize - layout.size() as isize,
                Ordering::Relaxed,
            );
            System.realloc(ptr, layout, new_size)
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe {
            LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
            System.dealloc(ptr, layout)
        }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// What every client reports to: when the notice of this round was sent, how many
/// notifications were heard, and how long each took.
struct Probe {
    /// Whether latencies are recorded (in the latency rounds, not in the bursts).
    timing: AtomicBool,
    sent: Mutex<Instant>,
    heard: AtomicUsize,
    latencies: Mutex<Vec<Duration>>,
}

#[derive(Clone)]
struct Client(Arc<Probe>);

impl ClientHandler for Client {
    async fn on_resource_updated(
        &self,
        _: ResourceUpdatedNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        let took = self
            .0
            .sent
            .lock()
            .map(|sent| sent.elapsed())
            .unwrap_or_default();
        if let Ok(mut latencies) = self.0.latencies.lock() {
            latencies.push(took);
        }
        self.0.heard.fetch_add(1, Ordering::SeqCst);
    }
}

/// How a setup did.
struct Figures {
    /// The median over rounds of the first subscriber's latency: the hub's own hop.
    first: Duration,
    /// The median over rounds of the last subscriber's latency: when all have heard.
    last: Duration,
    p50: Duration,
    p99: Duration,
    per_second: f64,
    session_bytes: f64,
    first_uri_bytes: f64,
    second_uri_bytes: f64,
    dropped: u64,
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Waits until `probe` heard `count` notifications in all (at most 30 s).
async fn heard(probe: &Probe, count: usize) -> Outcome {
    let deadline = Instant::now() + Duration::from_secs(30);
    while probe.heard.load(Ordering::SeqCst) < count {
        if Instant::now() > deadline {
            let heard = probe.heard.load(Ordering::SeqCst);
            return Err(format!("{heard} of {count} notifications heard within 30 s").into());
        }
        tokio::time::sleep(Duration::from_micros(200)).await;
    }
    Ok(())
}

/// The heap bytes live now, once the runtime had a moment to settle.
async fn live() -> isize {
    tokio::time::sleep(Duration::from_millis(200)).await;
    LIVE.load(Ordering::SeqCst)
}

/// `subscribers` clients spread over `replicas`, each subscribed to `notes://news`, and timed.
/// `publish` is replica A's `notify_updated`.
// `resources/subscribe` is the legacy revision's way, which rmcp's client speaks by default.
#[allow(deprecated)]
async fn run(
    replicas: &[Notes],
    subscribers: usize,
    rounds: usize,
    bursts: usize,
) -> Outcome<Figures> {
    const BURST: usize = 50;
    let probe = Arc::new(Probe {
        timing: AtomicBool::new(true),
        sent: Mutex::new(Instant::now()),
        heard: AtomicUsize::new(0),
        latencies: Mutex::new(Vec::with_capacity(subscribers * rounds)),
    });
    let before = live().await;
    let mut clients = Vec::with_capacity(subscribers);
    for i in 0..subscribers {
        let replica = replicas[i % replicas.len()].clone();
        clients.push(common::connect(replica, Client(Arc::clone(&probe)), Revision::Legacy).await?);
    }
    let connected = live().await;
    for client in &clients {
        client
            .subscribe(SubscribeRequestParams::new("notes://news"))
            .await?;
    }
    let subscribed = live().await;
    for client in &clients {
        client
            .subscribe(SubscribeRequestParams::new("notes://weather"))
            .await?;
    }
    let subscribed_twice = live().await;
    let per_client = |bytes: isize| bytes as f64 / subscribers as f64;

    let publisher = &replicas[0].subscriptions;
    let mut expected = 0;
    let mut firsts = Vec::with_capacity(rounds);
    let mut lasts = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        *probe.sent.lock().map_err(|_| "poisoned")? = Instant::now();
        publisher.notify_updated("notes://news").await?;
        expected += subscribers;
        heard(&probe, expected).await?;
        let latencies = probe.latencies.lock().map_err(|_| "poisoned")?;
        let round = &latencies[expected - subscribers..];
        firsts.extend(round.iter().min());
        lasts.extend(round.iter().max());
    }
    let mut latencies = std::mem::take(&mut *probe.latencies.lock().map_err(|_| "poisoned")?);
    let (p50, p99) = (
        quantile(&mut latencies, 0.50),
        quantile(&mut latencies, 0.99),
    );
    let first = quantile(&mut firsts, 0.50);
    let last = quantile(&mut lasts, 0.50);
    probe.timing.store(false, Ordering::SeqCst);

    let start = Instant::now();
    for _ in 0..bursts {
        for _ in 0..BURST {
            publisher.notify_updated("notes://news").await?;
        }
        expected += BURST * subscribers;
        heard(&probe, expected).await?;
    }
    let per_second = (bursts * BURST * subscribers) as f64 / start.elapsed().as_secs_f64();

    let dropped = replicas.iter().map(|r| r.subscriptions.dropped()).sum();
    for client in clients {
        let _ = client.cancel().await;
    }
    Ok(Figures {
        first,
        last,
        p50,
        p99,
        per_second,
        session_bytes: per_client(connected - before),
        first_uri_bytes: per_client(subscribed - connected),
        second_uri_bytes: per_client(subscribed_twice - subscribed),
        dropped,
    })
}

/// The `q` quantile of `samples` (zero if there are none).
fn quantile(samples: &mut [Duration], q: f64) -> Duration {
    samples.sort_unstable();
    let last = samples.len().saturating_sub(1);
    samples
        .get((last as f64 * q) as usize)
        .copied()
        .unwrap_or_default()
}

/// Two replicas, each with its own connection to the Redis at `url`, on one channel.
async fn redis_replicas(url: &str) -> Result<Vec<Notes>, HubError> {
    let channel = RedisHub::channel("rfc6570-bench", "fanout");
    let mut replicas = Vec::new();
    for _ in 0..2 {
        let hub = RedisHub::connect(url, &channel).await?;
        replicas.push(Notes::new(Subscriptions::new().hub(hub)?));
    }
    Ok(replicas)
}

fn row(setup: &str, f: &Figures) {
    println!(
        "| {setup} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} | {} |",
        f.first.as_secs_f64() * 1e6,
        f.p50.as_secs_f64() * 1e6,
        f.p99.as_secs_f64() * 1e6,
        f.last.as_secs_f64() * 1e6,
        f.per_second,
        f.session_bytes,
        f.first_uri_bytes,
        f.second_uri_bytes,
        f.dropped,
    );
}

#[tokio::main]
async fn main() -> Outcome {
    let subscribers = env("FANOUT_SUBSCRIBERS", 1_000);
    let rounds = env("FANOUT_ROUNDS", 200);
    let bursts = env("FANOUT_BURSTS", 10);
    println!(
        "{subscribers} subscribers; latency over {rounds} notices one at a time; throughput over {bursts} bursts of 50 notices\n"
    );
    println!(
        "| setup | first µs | p50 µs | p99 µs | last µs | delivered/s | bytes a session | bytes, first URI | bytes, second URI | dropped |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");

    let in_process = [Notes::new(Subscriptions::new())];
    row(
        "1 replica, in process",
        &run(&in_process, subscribers, rounds, bursts).await?,
    );

    match RedisServer::start()? {
        Some(redis) => {
            let replicas = redis_replicas(&redis.url()).await?;
            row(
                "2 replicas over Redis",
                &run(&replicas, subscribers, rounds, bursts).await?,
            );
        }
        None => println!("(no redis-server: the Redis setup did not run)"),
    }
    Ok(())
}
