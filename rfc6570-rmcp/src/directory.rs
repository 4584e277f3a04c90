//! A directory served as `file:///{+path}`: files as text or blobs by MIME type, directories as
//! listings, path completion; nothing outside the root (by `..`, a symbolic link, or a link
//! swapped in while a read runs) is read, listed or offered, and nothing that would block.

use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use cap_std::fs::Dir;
use rfc6570::Router;
use rfc6570::mcp::ResourceTemplate;
use rfc6570::safety::{JoinError, safe_join_resolved};
use rmcp::model::{ReadResourceResult, Resource};

use crate::read::{Blob, IntoContents, ReadError, ReadTarget, Text};

/// The template a [`Directory`] is served under.
const TEMPLATE: &str = "file:///{+path}";
/// How many entries a listing holds at most, how deep [`Directory::files`] walks, and how many
/// directories and files it visits at most: a client's one request does bounded work.
const MAX_ENTRIES: usize = 10_000;
const WALK_DEPTH: usize = 16;
const WALK_DIRECTORIES: usize = 10_000;
const WALK_FILES: usize = 10_000;

/// A directory of files served as MCP resources under `file:///{+path}`.
///
/// * A file is text when its MIME type (from its extension, by the `mime_guess` crate) is
///   textual and its bytes are UTF-8, otherwise a base64 blob of that type.
/// * A directory reads as its listing: one name a line, sorted, `/` after directories. The root
///   is listed as the static resource `file:///`.
/// * `path` completes to the entries of the directory typed so far.
/// * With `#[resource_handler(directory_read)]`, a directory's children answer SEP-2640's
///   `resources/directory/read`, as resources with their URI, name, MIME type and size.
///
/// Paths are checked with [`safe_join_resolved`] (which names the rule a path breaks: `..`, a
/// symbolic link out of the root), then opened beneath the root by the `cap-std` crate, so a
/// link swapped in between the check and the read cannot lead out either. Only regular files and
/// directories are served (a FIFO would block the reader), hidden names (`.env`, `.git/`) are
/// not served unless [`hidden`](Self::hidden) says so, and listings, completions and
/// [`files`](Self::files) leave out whatever a read would refuse. Messages never hold a server
/// path.
///
/// ```no_run
/// use rfc6570_rmcp::{Directory, ResourceRouter};
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let docs = Directory::new("/srv/docs")?.title("Docs").description("The project's documents");
/// let router = ResourceRouter::<()>::new().directory(docs)?;
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct Directory {
    root: PathBuf,
    dir: Arc<Dir>,
    template: ResourceTemplate,
    /// The template alone, routed with the defaults, to leave out entries a read would refuse.
    routes: Arc<Router<()>>,
    max_file_size: u64,
    hidden: bool,
}

impl Directory {
    /// The directory at `root`, listed as the template `file:///{+path}` named `file`; files of
    /// at most 16 MiB; hidden names not served.
    ///
    /// ```
    /// let dir = rfc6570_rmcp::Directory::new(env!("CARGO_MANIFEST_DIR"))?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// `root` does not exist or is not a directory.
    pub fn new(root: impl AsRef<Path>) -> io::Result<Self> {
        let root = root.as_ref().canonicalize()?;
        let dir = Dir::open_ambient_dir(&root, cap_std::ambient_authority())?;
        let template = ResourceTemplate::parse(TEMPLATE, "file").expect("a valid template");
        let mut routes = Router::new();
        routes
            .insert(template.uri_template.clone(), ())
            .expect("a template the router serves");
        Ok(Self {
            root,
            dir: Arc::new(dir),
            template,
            routes: Arc::new(routes),
            max_file_size: 16 << 20,
            hidden: false,
        })
    }

    /// The title listed with the template.
    ///
    /// ```
    /// # let dir = rfc6570_rmcp::Directory::new(env!("CARGO_MANIFEST_DIR"))?;
    /// let dir = dir.title("Files");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.template = self.template.title(title);
        self
    }

    /// The description listed with the template.
    ///
    /// ```
    /// # let dir = rfc6570_rmcp::Directory::new(env!("CARGO_MANIFEST_DIR"))?;
    /// let dir = dir.description("A file or directory under the served directory");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.template = self.template.description(description);
        self
    }

    /// The largest file served; a larger one is refused (`-32603`, "too large").
    ///
    /// ```
    /// # let dir = rfc6570_rmcp::Directory::new(env!("CARGO_MANIFEST_DIR"))?;
    /// let dir = dir.max_file_size(1 << 20);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn max_file_size(mut self, bytes: u64) -> Self {
        self.max_file_size = bytes;
        self
    }

    /// Whether names that start with `.` (`.env`, `.git/`) are served. They are not by default:
    /// a served tree often holds secrets there.
    ///
    /// ```
    /// # let dir = rfc6570_rmcp::Directory::new(env!("CARGO_MANIFEST_DIR"))?;
    /// let dir = dir.hidden(true);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn hidden(mut self, serve: bool) -> Self {
        self.hidden = serve;
        self
    }

    /// The template this directory is listed as.
    ///
    /// ```
    /// let dir = rfc6570_rmcp::Directory::new(env!("CARGO_MANIFEST_DIR"))?;
    /// assert_eq!(dir.template().uri_template.as_str(), "file:///{+path}");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn template(&self) -> &ResourceTemplate {
        &self.template
    }

    /// The file or directory at the relative `path`, resolved on the file system (symbolic
    /// links inside the root followed).
    ///
    /// ```
    /// let dir = rfc6570_rmcp::Directory::new(env!("CARGO_MANIFEST_DIR"))?;
    /// assert!(dir.resolve("src/lib.rs").is_ok());
    /// assert!(dir.resolve("../../etc/passwd").is_err());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// "Resource not found", naming the rule: the path leads outside the root (by `..` or a
    /// symbolic link), is absolute, holds a control character, or names a hidden file. The
    /// message holds no path.
    pub fn resolve(&self, path: &str) -> Result<PathBuf, ReadError> {
        let full = safe_join_resolved(&self.root, path).map_err(|e| match e {
            JoinError::Io(_) => ReadError::not_found(),
            rule => ReadError::not_found_because(rule.to_string()),
        })?;
        let hidden = full
            .strip_prefix(&self.root)
            .map_or(true, |relative| self.is_hidden(relative));
        if hidden {
            return Err(ReadError::not_found_because("hidden files are not served"));
        }
        Ok(full)
    }

    fn is_hidden(&self, relative: &Path) -> bool {
        !self.hidden
            && relative
                .components()
                .any(|c| c.as_os_str().to_str().is_some_and(|s| s.starts_with('.')))
    }

    /// `path` resolved, relative to the root: what `cap-std` opens beneath it.
    fn beneath(&self, path: &str) -> Result<PathBuf, ReadError> {
        let full = self.resolve(path)?;
        let relative = full
            .strip_prefix(&self.root)
            .map_err(|_| ReadError::not_found())?;
        Ok(if relative.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            relative.to_owned()
        })
    }

    /// The URI of the relative `path`: each segment percent-encoded, so that any name
    /// (`what?.md`, `a+b.md`) reads back to itself.
    ///
    /// ```
    /// let dir = rfc6570_rmcp::Directory::new(env!("CARGO_MANIFEST_DIR"))?;
    /// assert_eq!(dir.uri("docs/what?.md"), "file:///docs/what%3F.md");
    /// assert_eq!(dir.uri(""), "file:///");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn uri(&self, path: &str) -> String {
        let mut uri = String::from("file://");
        for segment in path.split('/').filter(|s| !s.is_empty()) {
            uri.push('/');
            for byte in segment.bytes() {
                if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
                    uri.push(char::from(byte));
                } else {
                    uri.push_str(&format!("%{byte:02X}"));
                }
            }
        }
        if uri.len() == "file://".len() {
            uri.push('/');
        }
        uri
    }

    /// Whether `relative` is served: a read of its URI routes, and it is a regular file or a
    /// directory that opens beneath the root.
    fn serves(&self, relative: &str) -> Option<Kind> {
        self.routes.at(&self.uri(relative)).ok()?;
        let beneath = self.beneath(relative).ok()?;
        let metadata = self.dir.metadata(&beneath).ok()?;
        if metadata.is_dir() {
            self.dir.open_dir(&beneath).ok()?;
            Some(Kind::Directory)
        } else if metadata.is_file() {
            self.dir.open(&beneath).ok()?;
            Some(Kind::File(metadata.len()))
        } else {
            None
        }
    }

    /// The served entries of the directory at the relative `path` (at most 10,000): names,
    /// sorted, `/` after directories. Entries that lead out of the root, cannot be opened, are
    /// hidden, are neither files nor directories, or whose URI a read would refuse are left out.
    ///
    /// ```
    /// let dir = rfc6570_rmcp::Directory::new(env!("CARGO_MANIFEST_DIR"))?;
    /// assert!(dir.entries("").contains(&"src/".to_owned()));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn entries(&self, path: &str) -> Vec<String> {
        let mut names: Vec<String> = self
            .served(path)
            .into_iter()
            .map(|(name, kind)| match kind {
                Kind::Directory => name + "/",
                Kind::File(_) => name,
            })
            .collect();
        names.sort();
        names
    }

    fn served(&self, path: &str) -> Vec<(String, Kind)> {
        let Ok(beneath) = self.beneath(path) else {
            return Vec::new();
        };
        let Ok(read) = self.dir.read_dir(&beneath) else {
            return Vec::new();
        };
        read.flatten()
            .filter_map(|entry| entry.file_name().into_string().ok())
            .take(MAX_ENTRIES)
            .filter_map(|name| {
                let kind = self.serves(&join(path, &name))?;
                Some((name, kind))
            })
            .collect()
    }

    /// The served children of the directory at the relative `path`, as resources: their URI,
    /// name, and for files MIME type and size.
    ///
    /// ```
    /// let dir = rfc6570_rmcp::Directory::new(env!("CARGO_MANIFEST_DIR"))?;
    /// let children = dir.children("src")?;
    /// let lib = children.iter().find(|r| r.name == "lib.rs").unwrap();
    /// assert_eq!(lib.uri, "file:///src/lib.rs");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// "Resource not found" when `path` is not a served directory.
    pub fn children(&self, path: &str) -> Result<Vec<Resource>, ReadError> {
        if !matches!(self.serves_root_or(path), Some(Kind::Directory)) {
            return Err(ReadError::not_found_because("not a directory"));
        }
        let mut served = self.served(path);
        served.sort_by(|a, b| a.0.cmp(&b.0));
        let children = served.into_iter().map(|(name, kind)| {
            let relative = join(path, &name);
            let resource = Resource::new(self.uri(&relative), name);
            match kind {
                Kind::Directory => resource,
                Kind::File(size) => {
                    let mime = mime_guess::from_path(&relative).first_or_octet_stream();
                    resource.with_mime_type(mime.essence_str()).with_size(size)
                }
            }
        });
        Ok(children.collect())
    }

    /// The root has no URI that `{+path}` matches (the path is empty), so it is served apart.
    fn serves_root_or(&self, path: &str) -> Option<Kind> {
        if path.is_empty() {
            return Some(Kind::Directory);
        }
        self.serves(path)
    }

    /// Every served file under the root, as relative paths, sorted within each directory (at
    /// most 10,000 files, 10,000 directories, 16 deep): what a search should look through.
    ///
    /// ```
    /// let dir = rfc6570_rmcp::Directory::new(env!("CARGO_MANIFEST_DIR"))?;
    /// assert!(dir.files().contains(&"src/lib.rs".to_owned()));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn files(&self) -> Vec<String> {
        let mut walk = Walk::default();
        self.walk("", 0, &mut walk);
        walk.files
    }

    fn walk(&self, path: &str, depth: usize, walk: &mut Walk) {
        walk.directories += 1;
        if depth > WALK_DEPTH || walk.directories > WALK_DIRECTORIES {
            return;
        }
        for name in self.entries(path) {
            if walk.files.len() >= WALK_FILES {
                return;
            }
            match name.strip_suffix('/') {
                Some(dir) => self.walk(&join(path, dir), depth + 1, walk),
                None => walk.files.push(join(path, &name)),
            }
        }
    }

    /// The text of the served file at the relative `path`, if it is UTF-8 and at most
    /// [`max_file_size`](Self::max_file_size): what a search should read.
    ///
    /// ```
    /// let dir = rfc6570_rmcp::Directory::new(env!("CARGO_MANIFEST_DIR"))?;
    /// assert!(dir.text("src/lib.rs").unwrap().contains("rfc6570"));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn text(&self, path: &str) -> Option<String> {
        let bytes = self.file_bytes(&self.beneath(path).ok()?).ok()?;
        String::from_utf8(bytes).ok()
    }

    /// A regular file's bytes, opened beneath the root, at most `max_file_size` of them.
    fn file_bytes(&self, beneath: &Path) -> Result<Vec<u8>, ReadError> {
        let not_regular = || ReadError::not_found_because("not a regular file");
        // Asked before opening: opening a FIFO to read blocks until someone writes to it.
        if !self.dir.metadata(beneath)?.is_file() {
            return Err(not_regular());
        }
        let file = self.dir.open(beneath)?;
        // Asked again of what was opened, in case it was swapped meanwhile.
        if !file.metadata()?.is_file() {
            return Err(not_regular());
        }
        let mut bytes = Vec::new();
        // The length read, not the one stat gave: the file may grow meanwhile.
        file.into_std()
            .take(self.max_file_size.saturating_add(1))
            .read_to_end(&mut bytes)?;
        if bytes.len() as u64 > self.max_file_size {
            return Err(ReadError::internal(
                "the file is larger than this server serves",
            ));
        }
        Ok(bytes)
    }

    /// Reads the relative `path` as the resource `uri`, off the async runtime's threads.
    ///
    /// ```no_run
    /// # async fn f() -> Result<(), Box<dyn std::error::Error>> {
    /// let dir = rfc6570_rmcp::Directory::new("/srv/docs")?;
    /// let result = dir.read("file:///guide.md", "guide.md").await?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// "Resource not found" for what does not exist, cannot be read, is hidden, is neither a
    /// file nor a directory, or lies outside the root; `-32603` for a file larger than
    /// [`max_file_size`](Self::max_file_size).
    pub async fn read(&self, uri: &str, path: &str) -> Result<ReadResourceResult, ReadError> {
        let (directory, uri, path) = (self.clone(), uri.to_owned(), path.to_owned());
        tokio::task::spawn_blocking(move || directory.read_blocking(&uri, &path))
            .await
            .map_err(|_| ReadError::internal("the read failed"))?
    }

    fn read_blocking(&self, uri: &str, path: &str) -> Result<ReadResourceResult, ReadError> {
        let target = ReadTarget::new(uri, None);
        let beneath = self.beneath(path)?;
        if self.dir.metadata(&beneath)?.is_dir() {
            return self.entries(path).join("\n").into_result(target);
        }
        let bytes = self.file_bytes(&beneath)?;
        let mime = mime_guess::from_path(&beneath).first_or_octet_stream();
        match String::from_utf8(bytes) {
            Ok(text) if is_textual(&mime) => {
                Text::new(text, mime.essence_str()).into_result(target)
            }
            Ok(text) => Blob::new(text.into_bytes(), mime.essence_str()).into_result(target),
            Err(e) => Blob::new(e.into_bytes(), mime.essence_str()).into_result(target),
        }
    }

    /// Completions of `path`: the served entries of the directory typed so far, as paths.
    ///
    /// ```
    /// let dir = rfc6570_rmcp::Directory::new(env!("CARGO_MANIFEST_DIR"))?;
    /// assert!(dir.complete("src/l").contains(&"src/lib.rs".to_owned()));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn complete(&self, prefix: &str) -> Vec<String> {
        let dir = prefix.rsplit_once('/').map_or("", |(dir, _)| dir);
        self.entries(dir)
            .into_iter()
            .map(|name| join(dir, &name))
            .filter(|path| path.starts_with(prefix))
            .filter(|path| self.routes.at(&self.uri(path)).is_ok())
            .collect()
    }
}

/// What a served entry is.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Directory,
    /// A regular file, and its size.
    File(u64),
}

/// What a walk has visited.
#[derive(Default)]
struct Walk {
    directories: usize,
    files: Vec<String>,
}

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_owned()
    } else {
        format!("{dir}/{name}")
    }
}

/// Whether files of this type are text (when their bytes are UTF-8).
fn is_textual(mime: &mime_guess::Mime) -> bool {
    let textual_application = ["json", "xml", "javascript", "toml", "yaml", "x-sh", "sql"];
    mime.type_() == mime_guess::mime::TEXT
        || mime.suffix().is_some_and(|s| s == "json" || s == "xml")
        || (mime.type_() == mime_guess::mime::APPLICATION
            && textual_application.contains(&mime.subtype().as_str()))
}
