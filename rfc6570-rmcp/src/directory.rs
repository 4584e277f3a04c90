//! A directory served as `file:///{+path}`: files as text or blobs by MIME type, directories as
//! listings, path completion, all through `rfc6570::safety::safe_join_resolved`, so that
//! nothing outside the root (by `..` or by a symbolic link) is read, listed or offered.

use std::io;
use std::path::{Path, PathBuf};

use rfc6570::mcp::ResourceTemplate;
use rfc6570::safety::{safe_join_resolved, JoinError};
use rmcp::model::{ReadResourceResult, Resource};

use crate::read::{Blob, IntoContents, ReadError, ReadTarget, Text};

/// The template a [`Directory`] is served under.
const TEMPLATE: &str = "file:///{+path}";
/// How deep [`Directory::files`] walks, and how many files it gives at most.
const WALK_DEPTH: usize = 16;
const WALK_FILES: usize = 10_000;

/// A directory of files served as MCP resources under `file:///{+path}`.
///
/// * A file is text when its MIME type (from its extension, by the `mime_guess` crate) is
///   textual and its bytes are UTF-8, otherwise a base64 blob of that type.
/// * A directory reads as its listing: one name a line, sorted, `/` after directories. The root
///   is listed as the static resource `file:///`.
/// * `path` completes to the entries of the directory typed so far.
///
/// * With `#[resource_handler(directory_read)]`, a directory's children answer SEP-2640's
///   `resources/directory/read`, as resources with their URI, name, MIME type and size.
///
/// Every path goes through [`safe_join_resolved`]: the router's path safety has already
/// refused `..`, encoded separators and the like, and symbolic links that lead out of the root
/// are refused here. Listings, completions and [`files`](Self::files) leave out what cannot be
/// read, so they never reveal what lies outside. Messages never hold a server path.
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
    template: ResourceTemplate,
    max_file_size: u64,
}

impl Directory {
    /// The directory at `root`, listed as the template `file:///{+path}` named `file`; files of
    /// at most 16 MiB.
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
        if !root.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                "not a directory",
            ));
        }
        let template = ResourceTemplate::parse(TEMPLATE, "file").expect("a valid template");
        Ok(Self {
            root,
            template,
            max_file_size: 16 << 20,
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

    /// The file or directory at the relative `path`, resolved on the file system.
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
    /// symbolic link), is absolute, or holds a control character. The message holds no path.
    pub fn resolve(&self, path: &str) -> Result<PathBuf, ReadError> {
        safe_join_resolved(&self.root, path).map_err(|e| match e {
            JoinError::Io(_) => ReadError::not_found(),
            rule => ReadError::not_found_because(rule.to_string()),
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

    /// The readable entries of the directory at the relative `path`: names, sorted, `/` after
    /// directories. Entries that lead out of the root or cannot be opened are left out.
    ///
    /// ```
    /// let dir = rfc6570_rmcp::Directory::new(env!("CARGO_MANIFEST_DIR"))?;
    /// assert!(dir.entries("").contains(&"src/".to_owned()));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn entries(&self, path: &str) -> Vec<String> {
        let Ok(full) = self.resolve(path) else {
            return Vec::new();
        };
        let Ok(read) = std::fs::read_dir(full) else {
            return Vec::new();
        };
        let mut names: Vec<String> = read
            .flatten()
            .filter_map(|entry| {
                let name = entry.file_name().into_string().ok()?;
                let relative = join(path, &name);
                let resolved = self.resolve(&relative).ok()?;
                if resolved.is_dir() {
                    std::fs::read_dir(&resolved).ok()?;
                    Some(name + "/")
                } else {
                    std::fs::File::open(&resolved).ok()?;
                    Some(name)
                }
            })
            .collect();
        names.sort();
        names
    }

    /// The readable children of the directory at the relative `path`, as resources: their URI,
    /// name, MIME type (files) and size (files).
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
    /// "Resource not found" when `path` is not a readable directory under the root.
    pub fn children(&self, path: &str) -> Result<Vec<Resource>, ReadError> {
        let full = self.resolve(path)?;
        if !full.is_dir() {
            return Err(ReadError::not_found_because("not a directory"));
        }
        let children = self.entries(path).into_iter().map(|name| {
            let relative = join(path, name.trim_end_matches('/'));
            let resource = Resource::new(self.uri(&relative), name.clone());
            if name.ends_with('/') {
                return resource;
            }
            let full = self.resolve(&relative).ok();
            let size = full
                .as_ref()
                .and_then(|f| std::fs::metadata(f).ok())
                .map(|m| m.len());
            let mime = mime_guess::from_path(&relative).first_or_octet_stream();
            let resource = resource.with_mime_type(mime.essence_str());
            match size {
                Some(size) => resource.with_size(size),
                None => resource,
            }
        });
        Ok(children.collect())
    }

    /// Every readable file under the root, as relative paths, sorted within each directory
    /// (at most 10,000, at most 16 directories deep): what a search should look through.
    ///
    /// ```
    /// let dir = rfc6570_rmcp::Directory::new(env!("CARGO_MANIFEST_DIR"))?;
    /// assert!(dir.files().contains(&"src/lib.rs".to_owned()));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn files(&self) -> Vec<String> {
        let mut files = Vec::new();
        self.walk("", 0, &mut files);
        files
    }

    fn walk(&self, path: &str, depth: usize, files: &mut Vec<String>) {
        if depth > WALK_DEPTH {
            return;
        }
        for name in self.entries(path) {
            if files.len() >= WALK_FILES {
                return;
            }
            match name.strip_suffix('/') {
                Some(dir) => self.walk(&join(path, dir), depth + 1, files),
                None => files.push(join(path, &name)),
            }
        }
    }

    /// Reads the relative `path` as the resource `uri`.
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
    /// "Resource not found" for what does not exist, cannot be read or lies outside the root;
    /// `-32603` for a file larger than [`max_file_size`](Self::max_file_size).
    pub async fn read(&self, uri: &str, path: &str) -> Result<ReadResourceResult, ReadError> {
        let full = self.resolve(path)?;
        let target = ReadTarget::new(uri, None);
        let metadata = tokio::fs::metadata(&full).await?;
        if metadata.is_dir() {
            return self.entries(path).join("\n").into_result(target);
        }
        if metadata.len() > self.max_file_size {
            return Err(ReadError::internal(
                "the file is larger than this server serves",
            ));
        }
        let bytes = tokio::fs::read(&full).await?;
        let mime = mime_guess::from_path(&full).first_or_octet_stream();
        match String::from_utf8(bytes) {
            Ok(text) if is_textual(&mime) => {
                Text::new(text, mime.essence_str()).into_result(target)
            }
            Ok(text) => Blob::new(text.into_bytes(), mime.essence_str()).into_result(target),
            Err(e) => Blob::new(e.into_bytes(), mime.essence_str()).into_result(target),
        }
    }

    /// Completions of `path`: the readable entries of the directory typed so far, as paths.
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
            .collect()
    }
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
