//! A process that serves nothing and tells the example server's subscribers that resources
//! changed: a worker, a webhook handler or a cron job that wrote something the server serves.
//! It publishes to the Redis hub that the replicas of `http_server` share (feature `redis`),
//! and every replica tells its own subscribers.
//!
//! ```sh
//! cargo run -p rfc6570-rmcp --features redis --example publish -- redis://127.0.0.1:6379/ notes://todo
//! ```
//!
//! Each URI after the Redis URL is published as `notifications/resources/updated`; `--list`
//! publishes `notifications/resources/list_changed`.

use rfc6570_rmcp::{Hub, Notice, RedisHub};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let url = args
        .next()
        .ok_or("usage: publish REDIS_URL (URI | --list)...")?;
    let channel = RedisHub::channel("rfc6570", "rfc6570-example");
    let hub = RedisHub::connect(&url, &channel).await?;
    for arg in args {
        let notice = match arg.as_str() {
            "--list" => Notice::ListChanged,
            uri => Notice::updated(uri),
        };
        hub.publish(notice).await?;
    }
    Ok(())
}
