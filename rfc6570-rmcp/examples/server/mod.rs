//! The server that both examples run, whatever the transport: files, notes, build logs and a
//! search, as resources routed by RFC 6570 templates, with subscriptions.
//!
//! | URI | what |
//! |---|---|
//! | `notes://{id}`, `notes://index` | notes kept in memory, and their index |
//! | `log://build/{job_id}{?lines}` | build logs, optionally lines `N` or `N-M` |
//! | `search://docs{?q,lang}` | the notes and files that contain `q` |
//! | `config://server` | what the server serves |
//! | `file:///{+path}` | the files under a directory, by `rfc6570_rmcp::Directory` |
//!
//! The router and the subscriptions sit behind `Arc`s: every clone of a [`Server`] serves and
//! notifies the same ones, so a transport that builds a handler per session (streamable HTTP)
//! shares them by cloning.

use std::path::PathBuf;
use std::sync::Arc;

use rfc6570_rmcp::{Completing, Directory, Json, resource, resource_handler, resource_router};
use rfc6570_rmcp::{ReadError, ResourceRouter, Subscriptions};
use rmcp::ServerHandler;
use serde_json::{Value, json};

/// Notes: id, language, text.
#[rustfmt::skip]
const NOTES: &[(&str, &str, &str)] = &[
    ("welcome", "en", "# Welcome\n\nRead `notes://todo` next, or search with `search://docs?q=template`.\n"),
    ("todo", "en", "# To do\n\n- route every template\n- complete `job_id`\n"),
    ("vorlage", "de", "# Vorlage\n\nEine URI-Vorlage (template) nach RFC 6570.\n"),
];

/// Builds: id and log lines.
#[rustfmt::skip]
const JOBS: &[(u64, &[&str])] = &[
    (41, &["$ cargo test", "running 150 tests", "test result: ok", "exit status 0"]),
    (42, &["$ cargo build", "Compiling rfc6570 v0.1.0", "error[E0308]: mismatched types",
           "error: could not compile `rfc6570`", "exit status 101"]),
    (43, &["$ cargo clippy", "Checking rfc6570 v0.1.0"]),
];

/// The example's server state. Cloning it is cheap, and the clones share everything.
#[derive(Clone)]
pub struct Server {
    files: Arc<Directory>,
    router: Arc<ResourceRouter<Server>>,
    /// Who subscribed to what, across every session: `notify_updated(uri)` reaches them all.
    pub subscriptions: Subscriptions,
}

#[resource_router]
impl Server {
    /// A note by id; `notes://index` lists them.
    #[resource("notes://{id}", title = "Note", mime_type = "text/markdown",
               complete(id = Self::note_ids))]
    async fn note(&self, id: String) -> Result<&'static str, ReadError> {
        let note = NOTES.iter().find(|(n, _, _)| *n == id);
        note.map(|(_, _, text)| *text)
            .ok_or(ReadError::not_found_because("no note has that id"))
    }

    /// The log of a build, or lines `N` or `N-M` of it.
    #[resource("log://build/{job_id}{?lines}", name = "build-log", title = "Build log",
               mime_type = "text/plain", complete(job_id = Self::job_ids))]
    async fn build_log(&self, job_id: u64, lines: Option<String>) -> Result<String, ReadError> {
        let (_, log) = JOBS
            .iter()
            .find(|(id, _)| *id == job_id)
            .ok_or(ReadError::not_found_because("no build has that id"))?;
        let picked = match lines.as_deref() {
            None => Some(&log[..]),
            Some(spec) => line_range(spec).and_then(|range| log.get(range)),
        };
        let picked = picked.ok_or(ReadError::invalid_argument("lines", LINES))?;
        Ok(picked.join("\n"))
    }

    /// Notes and files that contain `q`, in language `lang`. `q` is free text, not a path.
    #[resource("search://docs{?q,lang}", title = "Search",
               mime_type = "application/json", free_text(q),
               complete(lang = Self::languages, q = Self::words))]
    async fn search(&self, q: Option<String>, lang: Option<String>) -> Json<Value> {
        let q = q.unwrap_or_default().to_lowercase();
        let wanted = |l: &str| lang.as_deref().is_none_or(|want| want == l);
        let mut hits: Vec<Value> = NOTES
            .iter()
            .filter(|(_, l, text)| wanted(l) && text.to_lowercase().contains(&q))
            .map(|(id, l, _)| listed(id, l))
            .collect();
        if wanted("en") {
            for path in self.files.files() {
                let text = self.files.text(&path).unwrap_or_default();
                if text.to_lowercase().contains(&q) {
                    hits.push(json!({"uri": self.files.uri(&path), "lang": "en"}));
                }
            }
        }
        Json(json!(hits))
    }

    /// The notes, with their languages.
    #[resource("notes://index", title = "Notes", mime_type = "application/json")]
    async fn note_index(&self) -> Json<Vec<Value>> {
        Json(NOTES.iter().map(|(id, l, _)| listed(id, l)).collect())
    }

    /// What this server serves (never where its files are).
    #[resource(
        "config://server",
        title = "Server configuration",
        mime_type = "application/json"
    )]
    async fn config(&self) -> Json<Value> {
        let (templates, resources) = (self.router.templates(), self.router.resources());
        Json(json!({"templates": templates.count(), "resources": resources.count()}))
    }

    async fn note_ids(&self) -> Vec<&'static str> {
        NOTES.iter().map(|(id, _, _)| *id).collect()
    }

    async fn job_ids(&self) -> Vec<String> {
        JOBS.iter().map(|(id, _)| id.to_string()).collect()
    }

    async fn languages(&self) -> [&'static str; 2] {
        ["de", "en"]
    }

    /// Words of the notes, in the language already chosen if any.
    async fn words(&self, completing: Completing<'_>) -> Vec<String> {
        let lang = completing.chosen("lang");
        let mut words: Vec<String> = NOTES
            .iter()
            .filter(|(_, l, _)| lang.is_none_or(|lang| lang == *l))
            .flat_map(|(_, _, text)| text.split(|c: char| !c.is_alphanumeric()))
            .filter(|w| w.len() > 2)
            .map(str::to_lowercase)
            .collect();
        words.sort();
        words.dedup();
        words
    }
}

#[resource_handler(router = self.router, subscriptions = self.subscriptions, name = "rfc6570-example",
                   instructions = "Files, notes, build logs and a search, as resources routed by RFC 6570 templates.")]
impl ServerHandler for Server {}

const LINES: &str = "`lines` must be `N` or `N-M`, from 1, within the log";

/// The lines `N` or `N-M` (1-based, inclusive) as a range of indices.
fn line_range(spec: &str) -> Option<std::ops::Range<usize>> {
    let (from, to) = spec.split_once('-').unwrap_or((spec, spec));
    let (from, to): (usize, usize) = (from.parse().ok()?, to.parse().ok()?);
    (from >= 1 && from <= to).then(|| from - 1..to)
}

/// How the index and the search list a note.
fn listed(id: &str, lang: &str) -> Value {
    json!({"uri": format!("notes://{id}"), "lang": lang})
}

impl Server {
    /// The server over the directory named by the first argument or `MCP_FILES_DIR` (by
    /// default `examples/data/`), with lists of `MCP_PAGE_SIZE` a page (3 by default, so that
    /// clients page).
    pub fn from_env() -> Result<Self, Box<dyn std::error::Error>> {
        let root = std::env::args_os()
            .nth(1)
            .or_else(|| std::env::var_os("MCP_FILES_DIR"))
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/data"));
        let page_size = std::env::var("MCP_PAGE_SIZE")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(3);
        Self::new(root, page_size)
    }

    /// The server over the directory `root`, with lists of `page_size` a page.
    pub fn new(root: PathBuf, page_size: usize) -> Result<Self, Box<dyn std::error::Error>> {
        let files = Arc::new(
            Directory::new(root)?
                .title("Files")
                .description("A file or directory under the served directory"),
        );
        let router = Server::resource_router()
            .page_size(page_size)
            .directory(Arc::clone(&files))?;
        Ok(Server {
            files,
            router: Arc::new(router),
            subscriptions: Subscriptions::new(),
        })
    }
}
