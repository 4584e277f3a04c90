//! An MCP server over stdio, on `rmcp`, whose resources are all routed by
//! `rfc6570::mcp::Resources`:
//!
//! | URI | what |
//! |---|---|
//! | `file:///{+path}` | files under a directory, read through `safe_join_resolved` |
//! | `notes://{id}` | notes kept in memory |
//! | `log://build/{job_id}{?lines}` | build logs, optionally a range of lines (`5` or `2-4`) |
//! | `search://docs{?q,lang}` | a search over the notes and files |
//! | `notes://index`, `config://server` | static resources |
//!
//! `resources/templates/list` and `resources/list` are answered page by page from the registry,
//! `resources/read` through its router (unknown or unsafe URIs get the "resource not found"
//! error of the client's protocol revision), and `completion/complete` for `job_id`, `id`,
//! `lang`, `q` and `path`.
//!
//! ```sh
//! cargo run -p rfc6570-rmcp --example mcp_server               # serves examples/data/
//! cargo run -p rfc6570-rmcp --example mcp_server -- /some/dir  # or MCP_FILES_DIR=/some/dir
//! ```
//!
//! `MCP_PAGE_SIZE` sets the page size of the lists (3 by default, so that clients page).
//! stdout is the protocol channel: nothing else is printed there.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rfc6570::mcp::{
    CompleteRequest, JsonRpcError, Resource, ResourceMatch, ResourceTemplate, Resources,
    INVALID_PARAMS,
};
use rfc6570::router::RouteOptions;
use rfc6570::safety::{safe_join_resolved, SafetyPolicy};
use rmcp::model::{
    CompleteRequestParams, CompleteResult, CompletionInfo, ErrorCode, Implementation,
    ListResourceTemplatesResult, ListResourcesResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, ResourceContents,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, ServerInitializeError};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};
use serde::Deserialize;
use serde_json::json;

/// What serves each registry entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    File,
    Note,
    NoteIndex,
    BuildLog,
    Search,
    Config,
}

/// A note: its language and its text.
const NOTES: &[(&str, &str, &str)] = &[
    (
        "welcome",
        "en",
        "# Welcome\n\nRead `notes://todo` next, or search with `search://docs?q=template`.\n",
    ),
    (
        "todo",
        "en",
        "# To do\n\n- route every template\n- complete `job_id`\n",
    ),
    (
        "vorlage",
        "de",
        "# Vorlage\n\nEine URI-Vorlage (template) nach RFC 6570.\n",
    ),
];

/// A build: its id, status and log lines.
const JOBS: &[(u64, &str, &[&str])] = &[
    (
        41,
        "passed",
        &[
            "$ cargo test",
            "running 150 tests",
            "test result: ok",
            "exit status 0",
        ],
    ),
    (
        42,
        "failed",
        &[
            "$ cargo build",
            "Compiling rfc6570 v0.1.0",
            "error[E0308]: mismatched types",
            "error: could not compile `rfc6570`",
            "exit status 101",
        ],
    ),
    (
        43,
        "running",
        &["$ cargo clippy", "Checking rfc6570 v0.1.0"],
    ),
];

struct Server {
    resources: Resources<Kind>,
    root: PathBuf,
}

type Failure = Box<dyn std::error::Error>;

impl Server {
    fn new(root: PathBuf, page_size: usize) -> Result<Self, Failure> {
        let mut resources = Resources::new().page_size(page_size);
        resources.insert(
            ResourceTemplate::parse("file:///{+path}", "file")?
                .title("Files")
                .description("A file or directory under the served directory"),
            Kind::File,
        )?;
        resources.insert(
            ResourceTemplate::parse("notes://{id}", "note")?
                .title("Note")
                .description("A note by id; `notes://index` lists them")
                .mime_type("text/markdown"),
            Kind::Note,
        )?;
        resources.insert(
            ResourceTemplate::parse("log://build/{job_id}{?lines}", "build-log")?
                .title("Build log")
                .description("The log of a build, or lines `N` or `N-M` of it")
                .mime_type("text/plain"),
            Kind::BuildLog,
        )?;
        // `q` is free text, not a path: it may hold `..` or `/`.
        resources.insert_with(
            ResourceTemplate::parse("search://docs{?q,lang}", "search")?
                .title("Search")
                .description("Notes and files that contain `q`, in language `lang`")
                .mime_type("application/json"),
            Kind::Search,
            RouteOptions::default().var_safety("q", SafetyPolicy::OFF),
        )?;
        resources.insert_resource(
            Resource::new("notes://index", "note-index")
                .title("Notes")
                .mime_type("application/json"),
            Kind::NoteIndex,
        )?;
        resources.insert_resource(
            Resource::new("config://server", "config")
                .title("Server configuration")
                .mime_type("application/json"),
            Kind::Config,
        )?;
        Ok(Self { resources, root })
    }

    /// The contents of `uri`, for a peer on `version`.
    fn read(&self, uri: &str, version: &str) -> Result<ResourceContents, JsonRpcError> {
        let read = self.resources.at(uri).map_err(|e| e.to_json_rpc(version))?;
        let not_found = || JsonRpcError::resource_not_found(uri, version);
        let text = |text: String| {
            let contents = ResourceContents::text(text, uri);
            match read.mime_type() {
                Some(mime) => contents.with_mime_type(mime),
                None => contents,
            }
        };
        match read.handler {
            Kind::File => {
                #[derive(Deserialize)]
                struct File {
                    path: String,
                }
                let File { path } = params(&read, version)?;
                self.read_file(uri, &path).ok_or_else(not_found)
            }
            Kind::Note => {
                #[derive(Deserialize)]
                struct Note<'a> {
                    id: &'a str,
                }
                let note: Note<'_> = params(&read, version)?;
                let (_, _, body) = NOTES
                    .iter()
                    .find(|(id, _, _)| *id == note.id)
                    .ok_or_else(not_found)?;
                Ok(text(body.to_string()))
            }
            Kind::NoteIndex => {
                let ids: Vec<_> = NOTES
                    .iter()
                    .map(|(id, lang, _)| json!({"uri": format!("notes://{id}"), "lang": lang}))
                    .collect();
                Ok(text(json!(ids).to_string()))
            }
            Kind::BuildLog => {
                #[derive(Deserialize)]
                struct BuildLog {
                    job_id: u64,
                    lines: Option<String>,
                }
                let log: BuildLog = params(&read, version)?;
                let (_, _, lines) = JOBS
                    .iter()
                    .find(|(id, _, _)| *id == log.job_id)
                    .ok_or_else(not_found)?;
                let range = match &log.lines {
                    None => 1..=lines.len(),
                    // The data names the argument: -32602 with the URI alone is how 2026-07-28
                    // says "resource not found", and SDKs read it so.
                    Some(spec) => line_range(spec).ok_or_else(|| {
                        JsonRpcError::new(INVALID_PARAMS, "`lines` must be `N` or `N-M`, from 1")
                            .data(json!({ "uri": uri, "argument": "lines" }))
                    })?,
                };
                let picked: Vec<&str> = lines
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| range.contains(&(i + 1)))
                    .map(|(_, line)| *line)
                    .collect();
                Ok(text(picked.join("\n")))
            }
            Kind::Search => {
                #[derive(Deserialize)]
                struct Search {
                    q: Option<String>,
                    lang: Option<String>,
                }
                let search: Search = params(&read, version)?;
                Ok(text(self.search(&search.q, &search.lang).to_string()))
            }
            Kind::Config => Ok(text(
                // Not the directory: a client has no use for the server's absolute path.
                json!({
                    "templates": self.resources.templates().count(),
                    "resources": self.resources.resources().count(),
                })
                .to_string(),
            )),
        }
    }

    /// A file's text (or base64), or a directory's listing; `None` when there is nothing there.
    fn read_file(&self, uri: &str, path: &str) -> Option<ResourceContents> {
        let full = safe_join_resolved(&self.root, path).ok()?;
        if full.is_dir() {
            let listing = list_dir(&self.root, path).join("\n");
            return Some(ResourceContents::text(listing, uri));
        }
        let bytes = std::fs::read(&full).ok()?;
        let mime = mime_type(&full);
        Some(match String::from_utf8(bytes) {
            Ok(text) => ResourceContents::text(text, uri).with_mime_type(mime),
            Err(e) => ResourceContents::blob(base64(e.as_bytes()), uri)
                .with_mime_type("application/octet-stream"),
        })
    }

    fn search(&self, q: &Option<String>, lang: &Option<String>) -> serde_json::Value {
        let q = q.as_deref().unwrap_or("").to_lowercase();
        let mut hits = Vec::new();
        for (id, note_lang, body) in NOTES {
            if lang.as_deref().is_some_and(|l| l != *note_lang) {
                continue;
            }
            if body.to_lowercase().contains(&q) {
                hits.push(json!({"uri": format!("notes://{id}"), "lang": note_lang}));
            }
        }
        if lang.as_deref().is_none_or(|l| l == "en") {
            for path in walk(&self.root, "") {
                // `walk` gave only paths that stay under the root; read where they resolve.
                let text = safe_join_resolved(&self.root, &path)
                    .ok()
                    .and_then(|full| std::fs::read_to_string(full).ok())
                    .unwrap_or_default();
                if text.to_lowercase().contains(&q) {
                    // Each segment encoded, so that any name (`what?.md`) reads back through
                    // `file:///{+path}`, which decodes its value once.
                    let segments: Vec<&str> = path.split('/').collect();
                    let uri = rfc6570::UriTemplate::parse("file://{/segments*}")
                        .and_then(|t| t.expand(&json!({ "segments": segments })))
                        .unwrap_or_default();
                    hits.push(json!({"uri": uri, "lang": "en"}));
                }
            }
        }
        json!(hits)
    }

    /// The completions of a request's argument.
    fn complete(
        &self,
        request: &CompleteRequest,
    ) -> Result<rfc6570::mcp::CompleteResult, JsonRpcError> {
        let completion = self
            .resources
            .complete(request)
            .map_err(|e| e.to_json_rpc())?;
        let candidates: Vec<String> = match (completion.handler, completion.argument) {
            (Kind::BuildLog, "job_id") => JOBS.iter().map(|(id, _, _)| id.to_string()).collect(),
            (Kind::Note, "id") => NOTES.iter().map(|(id, _, _)| id.to_string()).collect(),
            (Kind::Search, "lang") => vec!["de".into(), "en".into()],
            (Kind::Search, "q") => {
                // Words of the notes, in the language already chosen if any.
                let lang = completion.chosen("lang");
                let mut words: Vec<String> = NOTES
                    .iter()
                    .filter(|(_, l, _)| lang.is_none_or(|lang| lang == *l))
                    .flat_map(|(_, _, body)| body.split(|c: char| !c.is_alphanumeric()))
                    .filter(|w| w.len() > 2)
                    .map(str::to_lowercase)
                    .collect();
                words.sort();
                words.dedup();
                words
            }
            (Kind::File, "path") => {
                let (dir, _) = completion.value.rsplit_once('/').unwrap_or(("", ""));
                list_dir(&self.root, dir)
                    .into_iter()
                    .map(|name| match dir {
                        "" => name,
                        dir => format!("{dir}/{name}"),
                    })
                    .collect()
            }
            _ => Vec::new(),
        };
        Ok(completion.complete_from(candidates))
    }
}

/// The captures of a read as `T`; a value that does not fit is "resource not found".
fn params<'r, T: Deserialize<'r>>(
    read: &ResourceMatch<'_, 'r, Kind>,
    version: &str,
) -> Result<T, JsonRpcError> {
    read.params().map_err(|e| e.to_json_rpc(version))
}

/// `N` or `N-M`, 1-based and inclusive.
fn line_range(spec: &str) -> Option<std::ops::RangeInclusive<usize>> {
    let (from, to) = spec.split_once('-').unwrap_or((spec, spec));
    let (from, to): (usize, usize) = (from.parse().ok()?, to.parse().ok()?);
    (from >= 1 && from <= to).then_some(from..=to)
}

/// The names in the directory `dir` under `root`, sorted, directories with a trailing `/`: only
/// those that `safe_join_resolved` lets through (no link out of `root`) and that can be opened
/// (no dangling link), so a listing, a completion or the search never shows what a read refuses.
fn list_dir(root: &Path, dir: &str) -> Vec<String> {
    let Ok(full) = safe_join_resolved(root, dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = std::fs::read_dir(full)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let path = if dir.is_empty() {
                name.clone()
            } else {
                format!("{dir}/{name}")
            };
            let full = safe_join_resolved(root, &path).ok()?;
            if full.is_dir() {
                std::fs::read_dir(&full).ok().map(|_| name + "/")
            } else {
                std::fs::File::open(&full).ok().map(|_| name)
            }
        })
        .collect();
    names.sort();
    names
}

/// The files under `root/prefix`, as relative paths, a few levels deep.
fn walk(root: &Path, prefix: &str) -> Vec<String> {
    let mut files = Vec::new();
    if prefix.matches('/').count() > 4 {
        return files;
    }
    for name in list_dir(root, prefix) {
        let path = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}/{name}")
        };
        match path.strip_suffix('/') {
            Some(dir) => files.extend(walk(root, dir)),
            None => files.push(path),
        }
    }
    files
}

fn mime_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("md") => "text/markdown",
        Some("json") => "application/json",
        Some("html") => "text/html",
        _ => "text/plain",
    }
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn to_mcp(e: JsonRpcError) -> McpError {
    McpError::new(ErrorCode(e.code), e.message, e.data)
}

/// Converts between this crate's types and rmcp's through their JSON, which is the schema's.
fn convert<T: serde::Serialize, U: serde::de::DeserializeOwned>(value: &T) -> Result<U, McpError> {
    serde_json::to_value(value)
        .and_then(serde_json::from_value)
        .map_err(|e| McpError::internal_error(e.to_string(), None))
}

/// The protocol revision the client negotiated (the newest one rmcp knows if it said none).
fn protocol_version(ctx: &RequestContext<RoleServer>) -> String {
    ctx.protocol_version()
        .unwrap_or_default()
        .as_str()
        .to_owned()
}

#[derive(Clone)]
struct Handler(Arc<Server>);

impl ServerHandler for Handler {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_resources()
                .enable_completions()
                .build(),
        )
        .with_server_info(Implementation::new(
            "rfc6570-example",
            env!("CARGO_PKG_VERSION"),
        ))
        .with_instructions(
            "Files, notes, build logs and a search, as resources routed by RFC 6570 templates.",
        )
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        let cursor = request.and_then(|r| r.cursor);
        let page = self
            .0
            .resources
            .list_templates(cursor.as_deref())
            .map_err(|e| to_mcp(e.to_json_rpc()))?;
        let mut result =
            ListResourceTemplatesResult::with_all_items(convert(&page.resource_templates)?);
        result.next_cursor = page.next_cursor;
        Ok(result)
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let cursor = request.and_then(|r| r.cursor);
        let page = self
            .0
            .resources
            .list_resources(cursor.as_deref())
            .map_err(|e| to_mcp(e.to_json_rpc()))?;
        let mut result = ListResourcesResult::with_all_items(convert(&page.resources)?);
        result.next_cursor = page.next_cursor;
        Ok(result)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let contents = self
            .0
            .read(&request.uri, &protocol_version(&ctx))
            .map_err(to_mcp)?;
        Ok(ReadResourceResult::new(vec![contents]).into())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, McpError> {
        let request: CompleteRequest = convert(&request)?;
        let result = self.0.complete(&request).map_err(to_mcp)?;
        let info: CompletionInfo = convert(&result.completion)?;
        Ok(CompleteResult::new(info))
    }
}

#[tokio::main]
async fn main() -> Result<(), Failure> {
    let root = std::env::args_os()
        .nth(1)
        .or_else(|| std::env::var_os("MCP_FILES_DIR"))
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/data"));
    let page_size = std::env::var("MCP_PAGE_SIZE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let server = Server::new(root, page_size)?;
    let service = match Handler(Arc::new(server))
        .serve(rmcp::transport::stdio())
        .await
    {
        Ok(service) => service,
        // The client left before the handshake (or after a `server/discover` probe alone):
        // nothing went wrong here.
        Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    service.waiting().await?;
    Ok(())
}
