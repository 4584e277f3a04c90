//! One connection to the server under test: started over stdio in the sandbox, or reached over
//! streamable HTTP; requests sent raw (no client cache), each bounded in time, and answers
//! told apart as the judge needs them (a result, an error code, a timeout, a closed transport).

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine as _;
use rfc6570::mcp::Revision;
use rmcp::model::{
    CacheScope, ClientConfig, ClientRequest, ListResourceTemplatesRequest, ListResourcesRequest,
    PaginatedRequestParams, ProtocolVersion, ReadResourceRequest, ReadResourceRequestParams,
    ResourceContents, ServerResult,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, PeerRequestOptions, RunningService, ServiceError,
};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, Peer, RoleClient};
use tokio::io::AsyncReadExt;
use tokio::process::{Child, Command};

/// What to probe.
#[derive(Debug, Clone)]
pub enum Target {
    /// A command that serves MCP over its stdin and stdout, started in `work`.
    Stdio { command: Vec<String>, work: PathBuf },
    /// A streamable HTTP endpoint, with headers for every request.
    Http {
        url: String,
        headers: Vec<(String, String)>,
    },
}

impl Target {
    /// The target as the report names it.
    pub fn describe(&self) -> String {
        match self {
            Self::Stdio { command, .. } => command.join(" "),
            Self::Http { url, .. } => url.clone(),
        }
    }
}

/// The revision asked for with `--revision`.
#[derive(Debug, Clone)]
pub enum Wanted {
    /// `server/discover` first, the `initialize` handshake if the server is older.
    Auto,
    /// This revision exactly.
    Exactly(Revision),
}

impl Wanted {
    pub fn parse(text: &str) -> Result<Self, String> {
        if text == "auto" {
            return Ok(Self::Auto);
        }
        text.parse::<Revision>()
            .map(Self::Exactly)
            .map_err(|e| format!("--revision {text}: {e}; `auto` or a date such as 2026-07-28"))
    }

    fn lifecycle(&self) -> ClientLifecycleMode {
        let version = |r: Revision| -> ProtocolVersion {
            serde_json::from_value(serde_json::Value::String(r.to_string()))
                .unwrap_or(ProtocolVersion::LATEST)
        };
        match self {
            Self::Auto => ClientLifecycleMode::Auto {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                legacy_version: Some(ProtocolVersion::V_2025_11_25),
            },
            Self::Exactly(r) if r.has_cache_hints() => ClientLifecycleMode::Discover {
                preferred_versions: vec![version(*r)],
            },
            Self::Exactly(_) => ClientLifecycleMode::Initialize,
        }
    }

    fn client_info(&self) -> ClientConfig {
        let mut info = ClientConfig::default();
        info.client_info =
            rmcp::model::Implementation::new("rfc6570-probe", env!("CARGO_PKG_VERSION"));
        if let Self::Exactly(r) = self
            && let Ok(v) = serde_json::from_value(serde_json::Value::String(r.to_string()))
        {
            info.protocol_version = v;
        }
        info
    }
}

/// The probe as an MCP client: it answers nothing the server asks but pings, and says who it is.
#[derive(Clone)]
struct ProbeClient(ClientConfig);

impl ClientHandler for ProbeClient {
    fn get_info(&self) -> ClientConfig {
        self.0.clone()
    }
}

/// What one request came to.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// A result.
    Read(Read),
    /// A JSON-RPC error.
    Error {
        code: i32,
        message: String,
        data: String,
    },
    /// No answer within the timeout.
    Timeout,
    /// The transport closed: the server exited, or its connection dropped.
    Closed,
    /// Anything else the client saw (a response of the wrong type, a transport error).
    Other(String),
}

/// A read's contents, as text (blobs decoded, lossily where they are not UTF-8).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Read {
    pub contents: Vec<Content>,
    pub ttl_ms: Option<u64>,
    pub cache_scope: Option<CacheScope>,
}

/// One item of a read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Content {
    pub uri: String,
    pub mime_type: Option<String>,
    pub text: String,
}

impl Read {
    fn of(result: rmcp::model::ReadResourceResult) -> Self {
        let contents = result.contents.into_iter().map(Content::of).collect();
        Self {
            contents,
            ttl_ms: result.ttl_ms,
            cache_scope: result.cache_scope,
        }
    }

    /// The texts alone, which equivalent URIs must read alike (the `uri` echoes the request).
    pub fn texts(&self) -> Vec<&str> {
        self.contents.iter().map(|c| c.text.as_str()).collect()
    }
}

impl Content {
    fn of(contents: ResourceContents) -> Self {
        match contents {
            ResourceContents::TextResourceContents {
                uri,
                mime_type,
                text,
                ..
            } => Self {
                uri,
                mime_type,
                text,
            },
            ResourceContents::BlobResourceContents {
                uri,
                mime_type,
                blob,
                ..
            } => {
                let bytes = base64::engine::general_purpose::STANDARD
                    .decode(blob.as_bytes())
                    .unwrap_or_else(|_| blob.into_bytes());
                let text = String::from_utf8_lossy(&bytes).into_owned();
                Self {
                    uri,
                    mime_type,
                    text,
                }
            }
            // A kind of contents this client does not know: its JSON is what is searched.
            other => Self {
                uri: String::new(),
                mime_type: None,
                text: serde_json::to_string(&other).unwrap_or_default(),
            },
        }
    }
}

/// An answer, with how long it took and how many bytes it held.
#[derive(Debug, Clone)]
pub struct Answer {
    pub outcome: Outcome,
    pub elapsed: Duration,
    pub bytes: u64,
}

/// A page of a listing: the items, the next cursor, and whether it had cache hints.
pub struct Page<T> {
    pub items: Vec<T>,
    pub next_cursor: Option<String>,
    pub has_cache_hints: bool,
}

impl<T> Page<T> {
    fn new(
        items: Vec<T>,
        next_cursor: Option<String>,
        ttl_ms: Option<u64>,
        cache_scope: Option<CacheScope>,
    ) -> Self {
        Self {
            items,
            next_cursor,
            has_cache_hints: ttl_ms.is_some() && cache_scope.is_some(),
        }
    }
}

/// A running client of the server under test.
pub struct Session {
    target: Target,
    wanted: Wanted,
    client: RunningService<RoleClient, ProbeClient>,
    child: Option<Child>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    revision: Revision,
    timeout: Duration,
}

/// How much of the server's stderr is kept, for the reasons the report gives.
const STDERR_KEPT: usize = 4096;

impl Session {
    /// Starts or reaches the server and completes the handshake within `timeout` (at least 15 s,
    /// since an interpreter may take a while to start).
    pub async fn open(target: Target, wanted: Wanted, timeout: Duration) -> Result<Self, String> {
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let handler = ProbeClient(wanted.client_info());
        let lifecycle = wanted.lifecycle();
        let start = timeout.max(Duration::from_secs(15));
        let (client, child) = match &target {
            Target::Stdio { command, work } => {
                let mut child = spawn(command, work)?;
                keep_stderr(&mut child, stderr.clone());
                let io = (
                    child.stdout.take().expect("piped"),
                    child.stdin.take().expect("piped"),
                );
                let started =
                    tokio::time::timeout(start, handler.serve_with_lifecycle(io, lifecycle));
                match started.await {
                    Ok(Ok(client)) => (client, Some(child)),
                    Ok(Err(e)) => {
                        return Err(why_not(
                            &format!("the handshake failed: {e}"),
                            &mut child,
                            &stderr,
                        )
                        .await);
                    }
                    Err(_) => {
                        return Err(why_not(
                            &format!("no handshake within {} s", start.as_secs()),
                            &mut child,
                            &stderr,
                        )
                        .await);
                    }
                }
            }
            Target::Http { url, headers } => {
                let transport = http_transport(url, headers)?;
                let started =
                    tokio::time::timeout(start, handler.serve_with_lifecycle(transport, lifecycle));
                match started.await {
                    Ok(Ok(client)) => (client, None),
                    Ok(Err(e)) => return Err(format!("{url}: the handshake failed: {e}")),
                    Err(_) => {
                        return Err(format!("{url}: no handshake within {} s", start.as_secs()));
                    }
                }
            }
        };
        let revision = client
            .peer_info()
            .map(|info| Revision::of_peer(&info.protocol_version.to_string()))
            .unwrap_or(Revision::LATEST);
        Ok(Self {
            target,
            wanted,
            client,
            child,
            stderr,
            revision,
            timeout,
        })
    }

    /// Stops this server and starts it again (stdio only): after a crash, or a hang that may
    /// still hold it.
    pub async fn restart(&mut self) -> Result<(), String> {
        if !self.can_restart() {
            return Err("a server reached over HTTP cannot be restarted by the probe".into());
        }
        let fresh = Self::open(self.target.clone(), self.wanted.clone(), self.timeout).await?;
        let old = std::mem::replace(self, fresh);
        old.close().await;
        Ok(())
    }

    /// Whether the probe started the server, and so can start it again.
    pub fn can_restart(&self) -> bool {
        matches!(self.target, Target::Stdio { .. })
    }

    /// The revision the server speaks.
    pub fn revision(&self) -> Revision {
        self.revision
    }

    /// Whether the server declared the resources capability.
    pub fn has_resources(&self) -> bool {
        self.client
            .peer_info()
            .is_some_and(|info| info.capabilities.resources.is_some())
    }

    /// A handle for concurrent reads.
    pub fn reader(&self) -> Reader {
        Reader {
            peer: self.client.peer().clone(),
            timeout: self.timeout,
        }
    }

    /// Why the server is gone, when it is: its exit status and the end of its stderr.
    pub async fn exit_reason(&mut self) -> Option<String> {
        let child = self.child.as_mut()?;
        let status = tokio::time::timeout(Duration::from_millis(500), child.wait())
            .await
            .ok()?
            .ok()?;
        Some(describe_exit(status, &self.stderr))
    }

    /// `resources/list`, one page.
    pub async fn list_resources(
        &self,
        cursor: Option<String>,
    ) -> Result<Page<rmcp::model::Resource>, Outcome> {
        let request = ListResourcesRequest::with_param(page(cursor));
        self.page_of(
            ClientRequest::ListResourcesRequest(request),
            "resources",
            |r| match r {
                ServerResult::ListResourcesResult(r) => Some(Page::new(
                    r.resources,
                    r.next_cursor,
                    r.ttl_ms,
                    r.cache_scope,
                )),
                _ => None,
            },
        )
        .await
    }

    /// `resources/templates/list`, one page.
    pub async fn list_templates(
        &self,
        cursor: Option<String>,
    ) -> Result<Page<rmcp::model::ResourceTemplate>, Outcome> {
        let request = ListResourceTemplatesRequest::with_param(page(cursor));
        self.page_of(
            ClientRequest::ListResourceTemplatesRequest(request),
            "templates",
            |r| match r {
                ServerResult::ListResourceTemplatesResult(r) => Some(Page::new(
                    r.resource_templates,
                    r.next_cursor,
                    r.ttl_ms,
                    r.cache_scope,
                )),
                _ => None,
            },
        )
        .await
    }

    /// One page of a listing: the request sent, and the page taken out of its result.
    async fn page_of<T>(
        &self,
        request: ClientRequest,
        what: &str,
        take: fn(ServerResult) -> Option<Page<T>>,
    ) -> Result<Page<T>, Outcome> {
        let result = self.reader().send(request).await?;
        take(result).ok_or_else(|| Outcome::Other(format!("not a list of {what}")))
    }

    /// Ends the session and the server, if the probe started it.
    pub async fn close(self) {
        let _ = tokio::time::timeout(Duration::from_secs(2), self.client.cancel()).await;
        if let Some(mut child) = self.child {
            let _ = child.start_kill();
            let _ = tokio::time::timeout(Duration::from_secs(2), child.wait()).await;
        }
    }
}

/// Sends reads; cheap to clone, one per task.
#[derive(Clone)]
pub struct Reader {
    peer: Peer<RoleClient>,
    timeout: Duration,
}

impl Reader {
    /// `resources/read` of `uri`, timed.
    pub async fn read(&self, uri: &str) -> Answer {
        let started = Instant::now();
        let request = ReadResourceRequest::new(ReadResourceRequestParams::new(uri));
        let result = self.send(ClientRequest::ReadResourceRequest(request)).await;
        let elapsed = started.elapsed();
        let (outcome, bytes) = match result {
            Ok(ServerResult::ReadResourceResult(r)) => {
                let bytes = serde_json::to_vec(&r)
                    .map(|v| v.len() as u64)
                    .unwrap_or_default();
                (Outcome::Read(Read::of(r)), bytes)
            }
            Ok(other) => (Outcome::Other(format!("not a read result: {other:?}")), 0),
            Err(outcome) => {
                let bytes = match &outcome {
                    Outcome::Error { message, data, .. } => (message.len() + data.len()) as u64,
                    _ => 0,
                };
                (outcome, bytes)
            }
        };
        Answer {
            outcome,
            elapsed,
            bytes,
        }
    }

    async fn send(&self, request: ClientRequest) -> Result<ServerResult, Outcome> {
        let mut options = PeerRequestOptions::no_options();
        options.timeout = Some(self.timeout);
        let sent = async {
            self.peer
                .send_request_with_option(request, options)
                .await?
                .await_response()
                .await
        };
        // rmcp times the request out itself; this guards the sending too.
        match tokio::time::timeout(self.timeout + Duration::from_secs(1), sent).await {
            Ok(Ok(result)) => Ok(result),
            Ok(Err(e)) => Err(outcome_of(e)),
            Err(_) => Err(Outcome::Timeout),
        }
    }
}

fn page(cursor: Option<String>) -> PaginatedRequestParams {
    PaginatedRequestParams::default().with_cursor(cursor)
}

fn outcome_of(error: ServiceError) -> Outcome {
    match error {
        ServiceError::McpError(e) => Outcome::Error {
            code: e.code.0,
            message: e.message.into_owned(),
            data: e.data.map(|d| d.to_string()).unwrap_or_default(),
        },
        ServiceError::Timeout { .. } => Outcome::Timeout,
        // A request that cannot be sent (a refused connection over HTTP) finds the server gone.
        ServiceError::TransportClosed
        | ServiceError::Cancelled { .. }
        | ServiceError::TransportSend(_) => Outcome::Closed,
        other => Outcome::Other(other.to_string()),
    }
}

fn spawn(command: &[String], work: &Path) -> Result<Child, String> {
    let (program, args) = command.split_first().ok_or("no command to start")?;
    Command::new(program)
        .args(args)
        .current_dir(work)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("cannot start `{}`: {e}", command.join(" ")))
}

/// Keeps the last [`STDERR_KEPT`] bytes of the child's stderr, read on a task of its own so that
/// a chatty server never blocks on a full pipe.
fn keep_stderr(child: &mut Child, kept: Arc<Mutex<VecDeque<u8>>>) {
    let Some(mut stderr) = child.stderr.take() else {
        return;
    };
    tokio::spawn(async move {
        let mut buf = [0u8; 4096];
        while let Ok(n @ 1..) = stderr.read(&mut buf).await {
            let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
            kept.extend(&buf[..n]);
            let excess = kept.len().saturating_sub(STDERR_KEPT);
            kept.drain(..excess);
        }
    });
}

fn describe_exit(status: std::process::ExitStatus, stderr: &Mutex<VecDeque<u8>>) -> String {
    let kept = stderr.lock().unwrap_or_else(|e| e.into_inner());
    let (front, back) = kept.as_slices();
    let text = String::from_utf8_lossy(&[front, back].concat()).into_owned();
    match telling_line(&text) {
        Some(line) => format!("the server exited ({status}); its stderr says: {line}"),
        None => format!("the server exited ({status})"),
    }
}

/// The line of a dying server's stderr that says why: the last that names an error, a panic
/// or an exception (runtimes print their version or a traceback's frames after it), else the
/// last line.
fn telling_line(stderr: &str) -> Option<&str> {
    let lines = || stderr.lines().map(str::trim).filter(|l| !l.is_empty());
    let telling = |l: &&str| {
        [
            "Error",
            "error",
            "Exception",
            "panicked",
            "Traceback",
            "fatal",
        ]
        .iter()
        .any(|w| l.contains(w))
    };
    lines().rfind(telling).or_else(|| lines().next_back())
}

async fn why_not(what: &str, child: &mut Child, stderr: &Mutex<VecDeque<u8>>) -> String {
    match tokio::time::timeout(Duration::from_millis(500), child.wait()).await {
        Ok(Ok(status)) => {
            // Let the stderr task take the last bytes.
            tokio::time::sleep(Duration::from_millis(50)).await;
            format!("{what}: {}", describe_exit(status, stderr))
        }
        _ => {
            let _ = child.start_kill();
            what.to_owned()
        }
    }
}

fn http_transport(
    url: &str,
    headers: &[(String, String)],
) -> Result<StreamableHttpClientTransport<reqwest::Client>, String> {
    if !url.starts_with("http://") {
        return Err(format!(
            "{url}: only http:// endpoints can be probed (this build has no TLS; probe the server on loopback)"
        ));
    }
    let mut map = HashMap::new();
    for (name, value) in headers {
        let name = http::HeaderName::try_from(name.as_str())
            .map_err(|e| format!("--header {name}: {e}"))?;
        let value = http::HeaderValue::try_from(value.as_str())
            .map_err(|e| format!("--header {name}: {e}"))?;
        map.insert(name, value);
    }
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| format!("cannot build the HTTP client: {e}"))?;
    let config = StreamableHttpClientTransportConfig::with_uri(url).custom_headers(map);
    Ok(StreamableHttpClientTransport::with_client(client, config))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_telling_line_of_a_dying_server() {
        let node = "file:///x/server.mjs:70\n  const label = decodeURIComponent(raw);\n\nURIError: URI malformed\n    at decodeURIComponent (<anonymous>)\n\nNode.js v20.20.2\n";
        assert_eq!(telling_line(node), Some("URIError: URI malformed"));
        assert_eq!(telling_line("starting\nbye\n"), Some("bye"));
        assert_eq!(telling_line("\n \n"), None);
    }
}
