//! The sandbox a stdio server starts in: a fresh working directory nested in a temporary
//! folder, with canaries above it and beside it, and a symbolic link inside it that leads out.
//! Removed when the probe ends.
//!
//! ```text
//! $TMP/rfc6570-probe-XXXX/canary.txt                          two folders up
//! $TMP/rfc6570-probe-XXXX/outer/canary.txt                    one folder up
//! $TMP/rfc6570-probe-XXXX/outer/cwd-private/canary.txt        beside, in a folder whose name
//!                                                             extends the working directory's
//!                                                             (a prefix check without a
//!                                                             separator lets it through)
//! $TMP/rfc6570-probe-XXXX/outer/cwd                           the server's working directory
//! $TMP/rfc6570-probe-XXXX/outer/cwd/rfc6570-probe-link.txt    a link to the canary one up
//! ```

use std::io;
use std::path::{Path, PathBuf};

use crate::canary::{Canaries, fresh_token};

/// The name of every planted canary file.
const CANARY: &str = "canary.txt";
/// The symbolic link inside the working directory.
const LINK: &str = "rfc6570-probe-link.txt";

/// A sandbox, removed on drop.
pub struct Sandbox {
    _dir: tempfile::TempDir,
    work: PathBuf,
}

impl Sandbox {
    /// Plants the canaries, each with a fresh token added to `canaries`.
    pub fn plant(canaries: &mut Canaries) -> io::Result<Self> {
        let dir = tempfile::Builder::new()
            .prefix("rfc6570-probe-")
            .tempdir()?;
        // The canonical path: a server that resolves its root (/tmp may be a link) must still
        // find the canaries' paths as the probe names them.
        let root = dir.path().canonicalize()?;
        let parent = root.join("outer");
        let work = parent.join("cwd");
        let beside = parent.join("cwd-private");
        for d in [&work, &beside] {
            std::fs::create_dir_all(d)?;
        }
        let places = [
            (
                root.join(CANARY),
                "two folders above the server's working directory",
            ),
            (
                parent.join(CANARY),
                "in the folder above the server's working directory",
            ),
            (
                beside.join(CANARY),
                "beside the server's working directory, in a folder whose name extends its name",
            ),
        ];
        for (path, where_) in places {
            let token = fresh_token();
            std::fs::write(&path, format!("{token}\n"))?;
            let what = format!("the canary the probe planted {where_} ({})", path.display());
            canaries.planted(path, token, what);
        }
        link(&parent.join(CANARY), &work.join(LINK))?;
        Ok(Self { _dir: dir, work })
    }

    /// The server's working directory.
    pub fn work(&self) -> &Path {
        &self.work
    }

    /// Paths relative to the working directory that reach a canary: `(name, text)`.
    pub fn relative_targets() -> [(&'static str, String); 4] {
        [
            ("canary-up", format!("../{CANARY}")),
            ("canary-up-2", format!("../../{CANARY}")),
            ("canary-beside", format!("../cwd-private/{CANARY}")),
            ("canary-link", LINK.to_owned()),
        ]
    }
}

#[cfg(unix)]
fn link(target: &Path, at: &Path) -> io::Result<()> {
    std::os::unix::fs::symlink(target, at)
}

#[cfg(not(unix))]
fn link(_target: &Path, _at: &Path) -> io::Result<()> {
    // Links need privileges on Windows: the other canaries stand.
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plants_canaries_above_beside_and_behind_a_link() {
        let mut canaries = Canaries::default();
        let sandbox = Sandbox::plant(&mut canaries).unwrap();
        let work = sandbox.work().to_owned();
        assert!(work.is_dir());
        for (_, relative) in Sandbox::relative_targets() {
            let text = std::fs::read_to_string(work.join(&relative)).unwrap();
            assert!(canaries.found_in(&text).is_some(), "{relative}");
        }
        assert_eq!(canaries.paths().len(), 3);
        drop(sandbox);
        assert!(!work.exists(), "removed on drop");
    }
}
