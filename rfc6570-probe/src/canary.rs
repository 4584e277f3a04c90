//! What a server must never return: the tokens of canary files (planted by the probe, or named
//! with `--canary`) and the signatures of well-known system files. An answer that holds one is
//! an escape.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::path::{Path, PathBuf};

/// One thing that must never come back.
#[derive(Debug, Clone)]
pub struct Canary {
    /// The bytes looked for.
    token: String,
    /// Where it lives, when it is a file the probe can aim at.
    path: Option<PathBuf>,
    /// What an answer that holds it holds, for the finding's detail.
    what: String,
}

impl Canary {
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }
}

/// Signatures of system files that no resource serves: the text looked for, and what it is.
const SYSTEM_FILES: [(&str, &str, &str); 3] = [
    (
        "/etc/passwd",
        "root:x:0:0:",
        "the first line of /etc/passwd",
    ),
    (
        "/etc/passwd",
        "root:*:0:0:",
        "the first line of /etc/passwd",
    ),
    (
        "C:\\Windows\\win.ini",
        "; for 16-bit app support",
        "C:\\Windows\\win.ini",
    ),
];

/// Every canary of one probe.
#[derive(Debug, Clone, Default)]
pub struct Canaries {
    all: Vec<Canary>,
}

impl Canaries {
    /// The system files' signatures alone.
    pub fn system() -> Self {
        let all = SYSTEM_FILES
            .iter()
            .map(|&(path, token, what)| Canary {
                token: token.to_owned(),
                path: Some(PathBuf::from(path)),
                what: what.to_owned(),
            })
            .collect();
        Self { all }
    }

    /// Adds a file the probe planted, with its token.
    pub fn planted(&mut self, path: PathBuf, token: String, what: String) {
        self.all.push(Canary {
            token,
            path: Some(path),
            what,
        });
    }

    /// Adds a file named by `--canary`: its content, without surrounding white space, is the
    /// token.
    pub fn named(&mut self, path: &Path) -> Result<(), String> {
        let bytes = std::fs::read(path)
            .map_err(|e| format!("--canary {}: cannot read it: {e}", path.display()))?;
        let text = String::from_utf8_lossy(&bytes);
        let token = text.trim();
        if token.len() < 8 {
            return Err(format!(
                "--canary {}: it holds {} bytes of text; a token needs at least 8, or every answer would hold it",
                path.display(),
                token.len()
            ));
        }
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
        self.all.push(Canary {
            token: token.to_owned(),
            what: format!("the canary {}", absolute.display()),
            path: Some(absolute),
        });
        Ok(())
    }

    /// The files to aim at, each once.
    pub fn paths(&self) -> Vec<&Path> {
        let mut paths: Vec<&Path> = self.all.iter().filter_map(Canary::path).collect();
        paths.dedup();
        paths
    }

    /// What `text` holds that it must not, if anything.
    pub fn found_in(&self, text: &str) -> Option<&str> {
        self.all
            .iter()
            .find(|c| text.contains(&c.token))
            .map(|c| c.what.as_str())
    }
}

/// A token no answer holds by chance: 128 bits from the standard library's random keys.
pub fn fresh_token() -> String {
    let half = || {
        let mut h = RandomState::new().build_hasher();
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or_default(),
        );
        h.finish()
    };
    format!("rfc6570-probe-canary-{:016x}{:016x}", half(), half())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_system_files_and_planted_tokens_only() {
        let mut canaries = Canaries::system();
        let token = fresh_token();
        canaries.planted(
            "/tmp/x/canary.txt".into(),
            token.clone(),
            "the planted canary".into(),
        );
        assert_eq!(
            canaries.found_in("root:x:0:0:root:/root:/bin/bash\n"),
            Some("the first line of /etc/passwd")
        );
        assert_eq!(
            canaries.found_in(&format!("..{token}..")),
            Some("the planted canary")
        );
        assert_eq!(canaries.found_in("no such note: ../../etc/passwd"), None);
        assert_ne!(fresh_token(), fresh_token());
    }

    #[test]
    fn a_named_canary_must_hold_a_token() {
        let dir = tempfile::tempdir().unwrap();
        let short = dir.path().join("short");
        std::fs::write(&short, "  abc \n").unwrap();
        let err = Canaries::default().named(&short).unwrap_err();
        assert!(err.contains("needs at least 8"), "{err}");
        let good = dir.path().join("good");
        std::fs::write(&good, "s3cret-token-value\n").unwrap();
        let mut canaries = Canaries::default();
        canaries.named(&good).unwrap();
        assert!(canaries.found_in("xx s3cret-token-value yy").is_some());
        assert_eq!(canaries.paths(), [good.as_path()]);
    }
}
