//! A `redis-server` of our own (Debian's package; `.ci/install-redis` installs it), on a free
//! loopback port, killed when dropped: for the Redis hub's tests and its fan-out bench, which
//! includes this file by path.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

type Outcome<T = ()> = Result<T, Box<dyn std::error::Error>>;

/// How often a restart looks for the server listening.
const POLL: Duration = Duration::from_millis(20);

/// A `redis-server` of our own, on a loopback port, killed when dropped.
pub struct RedisServer {
    port: u16,
    child: Option<Child>,
}

impl RedisServer {
    /// Starts one on a free port, or `None` (with the reason printed) without `redis-server`.
    pub fn start() -> Outcome<Option<Self>> {
        if Command::new("redis-server")
            .arg("--version")
            .output()
            .is_err()
        {
            let why = "redis-server is not on PATH (on Debian: apt-get install redis-server)";
            if std::env::var("REDIS_REQUIRED").as_deref() == Ok("1") {
                return Err(format!("{why}; REDIS_REQUIRED=1").into());
            }
            eprintln!("skipped: {why}");
            return Ok(None);
        }
        let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let mut server = Self { port, child: None };
        server.restart()?;
        Ok(Some(server))
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// (Re)starts it on its port, and waits (at most 10 s) until it takes connections.
    pub fn restart(&mut self) -> Outcome {
        let deadline = self.spawn()?;
        while !self.listening(deadline)? {
            std::thread::sleep(POLL);
        }
        Ok(())
    }

    /// [`restart`](Self::restart) for async tests: the wait yields to the runtime, so that the
    /// hub's tasks on the same thread go on meanwhile.
    pub async fn restarted(&mut self) -> Outcome {
        let deadline = self.spawn()?;
        while !self.listening(deadline)? {
            tokio::time::sleep(POLL).await;
        }
        Ok(())
    }

    /// Starts the process; answers when it must be listening by.
    fn spawn(&mut self) -> Outcome<Instant> {
        self.kill();
        let child = Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", &self.port.to_string()])
            .args([
                "--save",
                "",
                "--appendonly",
                "no",
                "--protected-mode",
                "yes",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        self.child = Some(child);
        Ok(Instant::now() + Duration::from_secs(10))
    }

    /// Whether it takes connections; an error past `deadline`.
    fn listening(&self, deadline: Instant) -> Outcome<bool> {
        if std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
            return Ok(true);
        }
        if Instant::now() > deadline {
            return Err("redis-server did not listen within 10 s".into());
        }
        Ok(false)
    }

    /// Stops it (SIGSTOP): its connections stay open, and nothing answers on them.
    pub fn pause(&self) -> Outcome {
        self.signal("-STOP")
    }

    /// Lets a paused server go on (SIGCONT).
    pub fn resume(&self) -> Outcome {
        self.signal("-CONT")
    }

    fn signal(&self, signal: &str) -> Outcome {
        let child = self.child.as_ref().ok_or("redis-server is not running")?;
        let status = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()?;
        if !status.success() {
            return Err(format!("kill {signal} failed: {status}").into());
        }
        Ok(())
    }

    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.kill();
    }
}
