//! Path safety: refusing captured values that would escape a directory, and joining paths safely.
//!
//! A router checks every captured value after decoding, with the rules of [`Rule`] (all on by
//! default, configurable per router, per template and per variable through [`SafetyPolicy`]).
//! A refusal stops routing: it never falls through to a more permissive template.
//! [`safe_join`] and [`safe_join_resolved`] join a captured path onto a base directory and refuse
//! any result outside it.
//!
//! The look-alike rule needs the characters whose NFKC form is made of `.`, `/` and `\` only.
//! There are ten of them (Unicode 14), listed in [`LOOK_ALIKES`]; a table is smaller and faster
//! than a normalization library for this one question.

use std::fmt;
use std::path::{Component, Path, PathBuf};

/// One path-safety rule.
///
/// ```
/// use rfc6570::safety::Rule;
///
/// assert_eq!(Rule::DotDotSegment.to_string(), "a `..` path segment");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Rule {
    /// A control character: U+0000 to U+001F or U+007F.
    ControlCharacter,
    /// A path segment equal to `..`, with `/` and `\` as separators (`..`, `../x`, `a/../b`,
    /// `..\x`). `v1..v2` and `...` are fine.
    DotDotSegment,
    /// An absolute path: a leading `/` or `\`, a drive letter and `:` (`C:\x`, `C:x`), or a UNC
    /// path (`\\server\share`); or a segment, split at `/` and `\`, that starts with a drive
    /// letter and `:` (`docs/C:\windows`, `docs/C:x`): pushing such a segment onto a Windows
    /// path replaces the path. (`notes:2024.md` starts with no drive letter and passes.)
    AbsolutePath,
    /// A `/` or `\` in a variable whose expression cannot cross segments (`{v}` on `a%2Fb`).
    SeparatorInSegment,
    /// A percent-triplet left after decoding (`%252e` decodes to `%2e`): double encoding.
    DoubleEncoding,
    /// A character whose NFKC form is `.`, `/` or `\` (fullwidth `．`, `／`, `＼` and the like)
    /// where, so normalized, it would break one of the rules above.
    LookAlike,
}

impl Rule {
    /// Every rule, in the order they are checked.
    pub const ALL: [Rule; 6] = [
        Rule::ControlCharacter,
        Rule::DotDotSegment,
        Rule::AbsolutePath,
        Rule::SeparatorInSegment,
        Rule::DoubleEncoding,
        Rule::LookAlike,
    ];

    /// A stable `snake_case` name for logs and machine-readable output.
    ///
    /// ```
    /// use rfc6570::safety::Rule;
    ///
    /// assert_eq!(Rule::DotDotSegment.code(), "dot_dot_segment");
    /// ```
    pub fn code(self) -> &'static str {
        match self {
            Self::ControlCharacter => "control_character",
            Self::DotDotSegment => "dot_dot_segment",
            Self::AbsolutePath => "absolute_path",
            Self::SeparatorInSegment => "separator_in_segment",
            Self::DoubleEncoding => "double_encoding",
            Self::LookAlike => "look_alike",
        }
    }

    const fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::ControlCharacter => "a control character",
            Self::DotDotSegment => "a `..` path segment",
            Self::AbsolutePath => "an absolute path",
            Self::SeparatorInSegment => "a path separator inside a single segment",
            Self::DoubleEncoding => "a percent-triplet left after decoding (double encoding)",
            Self::LookAlike => "a Unicode look-alike of `.`, `/` or `\\`",
        })
    }
}

/// How a captured value is read for path safety: as one path segment, or as text that may
/// cross `/`. A router reads the values of `{v}`, `{.v}`, `{/v}`, `{;v}` and each item of
/// `{/v*}` as segments, and those of `{+v}`, `{#v}` and query parameters as crossing; only
/// segments break [`Rule::SeparatorInSegment`].
///
/// ```
/// use rfc6570::safety::{Rule, SafetyPolicy, Scope};
///
/// assert_eq!(SafetyPolicy::STRICT.verdict("a\\b", Scope::Segment), Err(Rule::SeparatorInSegment));
/// assert_eq!(SafetyPolicy::STRICT.verdict("a\\b", Scope::Crossing), Ok(()));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Scope {
    /// One path segment: `/` and `\` are separators it may not hold.
    Segment,
    /// Text that may cross `/`, such as a path under `{+path}` or a query parameter.
    Crossing,
}

/// Which [`Rule`]s apply. The default enforces all of them.
///
/// ```
/// use rfc6570::safety::{Rule, SafetyPolicy};
///
/// let policy = SafetyPolicy::default().allow(Rule::AbsolutePath);
/// assert!(policy.enforces(Rule::DotDotSegment));
/// assert!(!policy.enforces(Rule::AbsolutePath));
/// assert!(!SafetyPolicy::OFF.enforces(Rule::ControlCharacter));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SafetyPolicy(u8);

impl SafetyPolicy {
    /// Every rule enforced.
    pub const STRICT: Self = Self(0b11_1111);
    /// No rule enforced.
    pub const OFF: Self = Self(0);

    /// This policy without `rule`.
    ///
    /// ```
    /// # use rfc6570::safety::{Rule, SafetyPolicy};
    /// let policy = SafetyPolicy::STRICT.allow(Rule::AbsolutePath);
    /// assert!(!policy.enforces(Rule::AbsolutePath) && policy.enforces(Rule::DotDotSegment));
    /// ```
    pub const fn allow(self, rule: Rule) -> Self {
        Self(self.0 & !rule.bit())
    }

    /// This policy with `rule`.
    ///
    /// ```
    /// # use rfc6570::safety::{Rule, SafetyPolicy};
    /// let policy = SafetyPolicy::OFF.deny(Rule::DotDotSegment);
    /// assert!(policy.enforces(Rule::DotDotSegment) && !policy.enforces(Rule::AbsolutePath));
    /// ```
    pub const fn deny(self, rule: Rule) -> Self {
        Self(self.0 | rule.bit())
    }

    /// Whether `rule` is enforced.
    ///
    /// ```
    /// # use rfc6570::safety::{Rule, SafetyPolicy};
    /// assert!(SafetyPolicy::default().enforces(Rule::LookAlike));
    /// assert!(!SafetyPolicy::OFF.enforces(Rule::LookAlike));
    /// ```
    pub const fn enforces(self, rule: Rule) -> bool {
        self.0 & rule.bit() != 0
    }

    /// Which rule, if any, a decoded value breaks under this policy, read as a router reads a
    /// captured value of the given [`Scope`]: the first broken rule in the order of
    /// [`Rule::ALL`]. A handler can use it to judge a value from elsewhere the same way, and a
    /// test to say what a router must refuse.
    ///
    /// ```
    /// use rfc6570::safety::{Rule, SafetyPolicy, Scope};
    ///
    /// let strict = SafetyPolicy::STRICT;
    /// assert_eq!(strict.verdict("docs/a.md", Scope::Crossing), Ok(()));
    /// assert_eq!(strict.verdict("docs/a.md", Scope::Segment), Err(Rule::SeparatorInSegment));
    /// assert_eq!(strict.verdict("../x", Scope::Crossing), Err(Rule::DotDotSegment));
    /// assert_eq!(strict.verdict("\u{ff0e}\u{ff0e}", Scope::Segment), Err(Rule::LookAlike));
    /// ```
    pub fn verdict(self, value: &str, scope: Scope) -> Result<(), Rule> {
        self.check(value, scope == Scope::Segment)
    }

    /// Checks one decoded value. `single_segment` says whether its expression cannot cross `/`.
    pub(crate) fn check(self, value: &str, single_segment: bool) -> Result<(), Rule> {
        // Inert text (crate::pct::is_inert) has no segments, separators, triplets, drive
        // letters or look-alikes: most values are, and skip every rule.
        if crate::pct::is_inert(value.as_bytes()) {
            return Ok(());
        }
        let policy = if single_segment {
            self
        } else {
            self.allow(Rule::SeparatorInSegment)
        };
        policy.check_text(value)?;
        // Look-alikes are all outside ASCII.
        let suspect = !value.is_ascii() && value.chars().any(is_look_alike);
        if policy.enforces(Rule::LookAlike) && suspect {
            let folded = fold_look_alikes(value);
            policy
                .allow(Rule::ControlCharacter)
                .allow(Rule::DoubleEncoding)
                .check_text(&folded)
                .map_err(|_| Rule::LookAlike)?;
        }
        Ok(())
    }

    fn check_text(self, value: &str) -> Result<(), Rule> {
        let found = Findings::of(value);
        let broken = [
            (Rule::ControlCharacter, found.control),
            (Rule::DotDotSegment, found.dot_dot),
            (Rule::AbsolutePath, is_absolute(value) || found.drive),
            (Rule::SeparatorInSegment, found.separator),
            (Rule::DoubleEncoding, found.triplet),
        ];
        match broken
            .iter()
            .find(|&&(rule, hit)| hit && self.enforces(rule))
        {
            Some(&(rule, _)) => Err(rule),
            None => Ok(()),
        }
    }
}

/// What one pass over a value finds.
#[derive(Default)]
struct Findings {
    control: bool,
    dot_dot: bool,
    /// A segment that starts with a drive letter and `:`.
    drive: bool,
    separator: bool,
    triplet: bool,
}

impl Findings {
    fn of(value: &str) -> Self {
        let bytes = value.as_bytes();
        let mut found = Self::default();
        let mut segment = 0;
        for (i, &b) in bytes.iter().enumerate() {
            match b {
                0..=0x1F | 0x7F => found.control = true,
                b'/' | b'\\' => {
                    found.separator = true;
                    found.see_segment(&bytes[segment..i]);
                    segment = i + 1;
                }
                b'%' => found.triplet |= crate::pct::is_triplet(&bytes[i..]),
                _ => {}
            }
        }
        found.see_segment(&bytes[segment..]);
        found
    }

    fn see_segment(&mut self, segment: &[u8]) {
        self.dot_dot |= segment == b"..";
        self.drive |= starts_with_drive(segment);
    }
}

/// Whether text starts with a drive letter and `:` (`C:`, `c:x`).
fn starts_with_drive(text: &[u8]) -> bool {
    text.len() >= 2 && text[0].is_ascii_alphabetic() && text[1] == b':'
}

impl Default for SafetyPolicy {
    fn default() -> Self {
        Self::STRICT
    }
}

/// The characters whose NFKC form consists of `.`, `/` and `\` only, with that form.
pub const LOOK_ALIKES: [(char, &str); 10] = [
    ('\u{2024}', "."),
    ('\u{2025}', ".."),
    ('\u{2026}', "..."),
    ('\u{FE19}', "..."),
    ('\u{FE30}', ".."),
    ('\u{FE52}', "."),
    ('\u{FE68}', "\\"),
    ('\u{FF0E}', "."),
    ('\u{FF0F}', "/"),
    ('\u{FF3C}', "\\"),
];

fn is_look_alike(c: char) -> bool {
    LOOK_ALIKES.iter().any(|&(l, _)| l == c)
}

/// Replaces each look-alike with its NFKC form (`‥` becomes `..`).
fn fold_look_alikes(value: &str) -> String {
    let mut folded = String::with_capacity(value.len());
    for c in value.chars() {
        match LOOK_ALIKES.iter().find(|&&(l, _)| l == c) {
            Some((_, form)) => folded.push_str(form),
            None => folded.push(c),
        }
    }
    folded
}

fn is_absolute(value: &str) -> bool {
    let b = value.as_bytes();
    matches!(b.first(), Some(b'/' | b'\\')) || starts_with_drive(b)
}

/// Why [`safe_join`] refused a path.
///
/// ```
/// use std::path::Path;
/// use rfc6570::safe_join;
/// use rfc6570::safety::JoinError;
///
/// let err = safe_join(Path::new("/srv"), "a/../../b").unwrap_err();
/// assert_eq!(err, JoinError::Escapes);
/// assert_eq!(err.to_string(), "the path leads outside the base directory");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum JoinError {
    /// The path is absolute, or names a drive or a UNC share.
    #[error("the path is absolute")]
    Absolute,
    /// The path climbs out of the base directory with `..`, or through a symbolic link.
    #[error("the path leads outside the base directory")]
    Escapes,
    /// The path holds a NUL or another control character.
    #[error("the path holds a control character")]
    ControlCharacter,
    /// Resolving the path on the file system failed.
    #[error("cannot resolve the path: {0}")]
    Io(String),
}

/// Joins a captured relative path onto `base`, lexically, refusing any result outside `base`.
///
/// Both `/` and `\` separate segments; empty and `.` segments are dropped; `..` removes the
/// segment before it and may not climb above `base`. Nothing is read from the file system: use
/// [`safe_join_resolved`] where symbolic links could lead out.
///
/// ```
/// use std::path::Path;
/// use rfc6570::safe_join;
/// use rfc6570::safety::JoinError;
///
/// let base = Path::new("/srv/files");
/// assert_eq!(safe_join(base, "docs/./a.md")?, Path::new("/srv/files/docs/a.md"));
/// assert_eq!(safe_join(base, "docs/../b.md")?, Path::new("/srv/files/b.md"));
/// assert_eq!(safe_join(base, "../etc/passwd"), Err(JoinError::Escapes));
/// assert_eq!(safe_join(base, "/etc/passwd"), Err(JoinError::Absolute));
/// assert_eq!(safe_join(base, "C:\\x"), Err(JoinError::Absolute));
/// # Ok::<(), JoinError>(())
/// ```
pub fn safe_join(base: &Path, path: &str) -> Result<PathBuf, JoinError> {
    if is_absolute(path) {
        return Err(JoinError::Absolute);
    }
    if path.chars().any(|c| c < ' ' || c == '\x7f') {
        return Err(JoinError::ControlCharacter);
    }
    let mut segments: Vec<&str> = Vec::new();
    for segment in path.split(['/', '\\']) {
        match segment {
            "" | "." => {}
            ".." => {
                segments.pop().ok_or(JoinError::Escapes)?;
            }
            s => segments.push(s),
        }
    }
    let mut joined = base.to_path_buf();
    for segment in segments {
        // A segment such as `C:` could still be read as a prefix on some platforms.
        if Path::new(segment)
            .components()
            .any(|c| !matches!(c, Component::Normal(_)))
        {
            return Err(JoinError::Escapes);
        }
        joined.push(segment);
    }
    Ok(joined)
}

/// [`safe_join`], then resolves symbolic links and refuses a result outside the resolved `base`.
///
/// The deepest existing ancestor of the joined path is resolved (the rest may not exist yet),
/// so a link anywhere on the way that points outside `base` is caught.
///
/// ```no_run
/// use std::path::Path;
/// use rfc6570::safety::safe_join_resolved;
///
/// let file = safe_join_resolved(Path::new("/srv/files"), "docs/a.md")?;
/// # Ok::<(), rfc6570::safety::JoinError>(())
/// ```
pub fn safe_join_resolved(base: &Path, path: &str) -> Result<PathBuf, JoinError> {
    let joined = safe_join(base, path)?;
    let io = |e: std::io::Error| JoinError::Io(e.to_string());
    let base = base.canonicalize().map_err(io)?;
    let mut existing = joined.as_path();
    let mut rest = Vec::new();
    while !existing.exists() {
        rest.push(existing.file_name().ok_or(JoinError::Escapes)?);
        existing = existing.parent().ok_or(JoinError::Escapes)?;
    }
    let mut resolved = existing.canonicalize().map_err(io)?;
    resolved.extend(rest.into_iter().rev());
    if resolved.starts_with(&base) {
        Ok(resolved)
    } else {
        Err(JoinError::Escapes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(value: &str, single: bool) -> Option<Rule> {
        SafetyPolicy::STRICT.check(value, single).err()
    }

    #[test]
    fn attacks_are_refused_with_their_rule() {
        assert_eq!(refused("a\0b", false), Some(Rule::ControlCharacter));
        assert_eq!(
            refused("../../etc/passwd", false),
            Some(Rule::DotDotSegment)
        );
        assert_eq!(refused("a\\..\\b", false), Some(Rule::DotDotSegment));
        assert_eq!(refused("..", true), Some(Rule::DotDotSegment));
        assert_eq!(refused("/etc/passwd", false), Some(Rule::AbsolutePath));
        assert_eq!(refused("C:x", true), Some(Rule::AbsolutePath));
        assert_eq!(
            refused("\\\\server\\share", false),
            Some(Rule::AbsolutePath)
        );
        assert_eq!(refused("a/b", true), Some(Rule::SeparatorInSegment));
        assert_eq!(refused("%2e%2e", true), Some(Rule::DoubleEncoding));
        assert_eq!(refused("\u{FF0E}\u{FF0E}", true), Some(Rule::LookAlike));
        assert_eq!(refused("a\u{FF0F}b", true), Some(Rule::LookAlike));
        assert_eq!(refused("x/\u{2025}/y", false), Some(Rule::LookAlike));
        assert_eq!(refused("docs/C:\\windows", false), Some(Rule::AbsolutePath));
        assert_eq!(refused("docs/C:x", false), Some(Rule::AbsolutePath));
        assert_eq!(refused("docs\\d:", false), Some(Rule::AbsolutePath));
    }

    #[test]
    fn benign_names_pass() {
        for ok in [
            "a+b.txt",
            "v1..v2",
            ".gitignore",
            "caf\u{e9}.md",
            "100%.txt",
            "docs/notes:2024.md",
            "what?.md",
            "a&b.md",
            "name[with]brackets.txt",
            "~user/notes.md",
        ] {
            assert_eq!(refused(ok, false), None, "{ok}");
        }
    }

    #[test]
    fn benign_look_alikes_pass() {
        for ok in ["v1..v2", "...", "my file", "a.b", "\u{FF0E}x", "docs/a.md"] {
            assert_eq!(refused(ok, ok != "docs/a.md"), None, "{ok}");
        }
    }
}
