//! Recipe: fuzz a file server that serves `file:///{+path}` and joins the path with
//! `safe_join_resolved`. The fuzzer's bytes become a hostile URI (`rfc6570::testing::fuzz`):
//! one of the template's hostile variants, or its path written as any text. Each input checks
//! that the router does what the label says, and that a file the handler would open is
//! beneath the root, symbolic links resolved.
//!
//! A cargo-fuzz target runs it (`fuzz/fuzz_targets/file_server.rs`, which includes this file),
//! and so does `tests/it/recipe_file_server.rs` on stable, over fixed inputs.

use std::path::{Path, PathBuf};

use arbitrary::Unstructured;
use rfc6570::safety::safe_join_resolved;
use rfc6570::testing::fuzz;
use rfc6570::{Router, UriTemplate};

/// The server under test: a router and the root it serves.
pub struct FileServer {
    template: UriTemplate,
    router: Router<()>,
    root: PathBuf,
}

impl FileServer {
    /// A server of `root` (which must exist) on `file:///{+path}`.
    pub fn new(root: &Path) -> Self {
        let template = UriTemplate::parse("file:///{+path}").expect("a valid template");
        let mut router = Router::new();
        router
            .insert(template.as_str(), ())
            .expect("a template the router serves");
        let root = root.canonicalize().expect("the root exists");
        Self {
            template,
            router,
            root,
        }
    }

    /// The handler: the file a read of `uri` opens, or why there is none.
    pub fn open(&self, uri: &str) -> Result<PathBuf, String> {
        let routed = self.router.at(uri).map_err(|e| e.to_string())?;
        let path = routed.captures.get("path").ok_or("no path")?.decoded();
        safe_join_resolved(&self.root, &path).map_err(|e| e.to_string())
    }
}

/// One fuzz input.
pub fn run(server: &FileServer, data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(hostile) = fuzz::hostile(&server.template, &mut u) else {
        return;
    };
    let case = hostile.case();
    // The router refuses, or delivers, exactly as the label says ...
    if let Err(mismatch) = case.check_route(&server.router.at(case.uri())) {
        panic!("{mismatch}");
    }
    // ... and whatever it delivers, the handler opens nothing outside the root.
    if let Ok(path) = server.open(case.uri()) {
        assert!(
            path.starts_with(&server.root),
            "{:?} opens {path:?}, outside {:?}",
            case.uri(),
            server.root
        );
    }
}

/// A root to serve: a file, a directory, and a symbolic link that points outside it.
pub fn make_root(dir: &Path) -> PathBuf {
    let root = dir.join("root");
    std::fs::create_dir_all(root.join("docs")).expect("a temporary directory");
    std::fs::write(root.join("docs/a.md"), "a").expect("a file");
    #[cfg(unix)]
    {
        let link = root.join("out");
        if link.symlink_metadata().is_err() {
            std::os::unix::fs::symlink(dir, &link).expect("a symbolic link");
        }
    }
    root
}
