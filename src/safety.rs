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
        if let Some(verdict) = self.check_plain(value, single_segment, false) {
            return verdict;
        }
        self.check_bytes(value.bytes(), single_segment)
    }

    /// Checks a captured value where it stands in the URI, exactly as [`check`](Self::check)
    /// checks its decoding, but reading the decoded bytes one at a time: the router's check,
    /// so that a value is decoded only when a handler asks for it. The value must decode to
    /// UTF-8 (the router checks that first): the look-alike fold reads whole characters.
    pub(crate) fn check_raw(self, raw: &str, single_segment: bool) -> Result<(), Rule> {
        if let Some(verdict) = self.check_plain(raw, single_segment, true) {
            return verdict;
        }
        if let Some(found) = Findings::of_ascii_triplets(raw.as_bytes()) {
            return self.for_scope(single_segment).judge(&found);
        }
        self.check_bytes(crate::pct::decoded_bytes(raw), single_segment)
    }

    /// [`check_raw`](Self::check_raw) for raw text that holds no byte a rule reads but `.`,
    /// `/` and triplets of inert bytes or of two-byte characters, as the walk finds most
    /// paths: it has no control character, drive letter, double encoding or look-alike, and
    /// its triplets decode to no dot or separator, so only its segments are read: where the
    /// separators are, and whether one of them is `..`. The text must decode to UTF-8.
    pub(crate) fn check_dots_and_slashes(
        self,
        raw: &str,
        single_segment: bool,
    ) -> Result<(), Rule> {
        let bytes = raw.as_bytes();
        let mut found = Findings {
            absolute: bytes.first() == Some(&b'/'),
            ..Findings::default()
        };
        // Segment by segment, each separator found a word at a time.
        let mut start = 0;
        loop {
            let separator = crate::pct::find_byte(bytes, start, b'/');
            let end = separator.unwrap_or(bytes.len());
            found.dot_dot |= matches!(bytes[start..end], [b'.', b'.']);
            let Some(at) = separator else { break };
            found.separator = true;
            start = at + 1;
        }
        let verdict = self.for_scope(single_segment).judge(&found);
        debug_assert_eq!(verdict, self.check_raw(raw, single_segment), "{raw:?}");
        verdict
    }

    /// The verdict on text that is its own decoding and needs no byte-at-a-time pass, which
    /// is most values; `None` for any other. Inert text ([`crate::pct::is_inert`]) has no
    /// segments, separators, triplets, drive letters or look-alikes, and breaks no rule. ASCII
    /// without `%` has no triplets or look-alikes: only its segments and control characters
    /// to read; read `raw`, it may also hold triplets of inert bytes ([`Findings::of_plain`]).
    fn check_plain(self, text: &str, single_segment: bool, raw: bool) -> Option<Result<(), Rule>> {
        let bytes = text.as_bytes();
        if crate::pct::is_inert(bytes) {
            return Some(Ok(()));
        }
        let found = Findings::of_plain(bytes, raw)?;
        Some(self.for_scope(single_segment).judge(&found))
    }

    /// The policy for a value whose expression can (or cannot) cross `/`.
    fn for_scope(self, single_segment: bool) -> Self {
        if single_segment {
            self
        } else {
            self.allow(Rule::SeparatorInSegment)
        }
    }

    /// The rules over a value's bytes (UTF-8): one pass, and a second over the value with its
    /// look-alikes folded where it holds one.
    fn check_bytes(
        self,
        bytes: impl Iterator<Item = u8> + Clone,
        single_segment: bool,
    ) -> Result<(), Rule> {
        let policy = self.for_scope(single_segment);
        let found = Findings::of(bytes.clone());
        policy.judge(&found)?;
        if policy.enforces(Rule::LookAlike) && found.look_alike {
            policy
                .allow(Rule::ControlCharacter)
                .allow(Rule::DoubleEncoding)
                .judge(&Findings::of(Folded::new(bytes)))
                .map_err(|_| Rule::LookAlike)?;
        }
        Ok(())
    }

    /// The first enforced rule that what a pass found breaks.
    fn judge(self, found: &Findings) -> Result<(), Rule> {
        let broken = [
            (Rule::ControlCharacter, found.control),
            (Rule::DotDotSegment, found.dot_dot),
            (Rule::AbsolutePath, found.absolute || found.drive),
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

/// What one pass over a value's bytes finds.
#[derive(Default)]
struct Findings {
    control: bool,
    dot_dot: bool,
    /// A segment that starts with a drive letter and `:`.
    drive: bool,
    separator: bool,
    /// A `%` and two hex digits.
    triplet: bool,
    /// The value starts with `/` or `\\`.
    absolute: bool,
    /// A character of [`LOOK_ALIKES`].
    look_alike: bool,
}

impl Findings {
    fn of(bytes: impl Iterator<Item = u8>) -> Self {
        let mut found = Self::default();
        let mut segment = Segment::default();
        // How much of a triplet the last bytes hold: a `%`, then a hex digit.
        let mut triplet = 0u8;
        // The last three bytes, for the look-alikes (three bytes each in UTF-8).
        let mut window = 0u32;
        for (i, b) in bytes.enumerate() {
            match b {
                0..=0x1F | 0x7F => found.control = true,
                b'/' | b'\\' => {
                    found.separator = true;
                    found.absolute |= i == 0;
                    found.see(std::mem::take(&mut segment));
                    triplet = 0;
                    window = 0;
                    continue;
                }
                _ => {}
            }
            segment.push(b);
            triplet = match (triplet, b) {
                (_, b'%') => 1,
                (1, h) if h.is_ascii_hexdigit() => 2,
                (2, h) if h.is_ascii_hexdigit() => {
                    found.triplet = true;
                    0
                }
                _ => 0,
            };
            window = (window << 8 | u32::from(b)) & 0xFF_FFFF;
            found.look_alike |= b >= 0x80 && look_alike(window).is_some();
        }
        found.see(segment);
        found
    }

    /// [`of`](Self::of) for ASCII text without `%`, `None` for any other: only separators,
    /// segments and control characters to see. Most values that are not inert are paths of
    /// this kind, and one lookup a byte in a table of byte classes reads them faster than
    /// [`of`](Self::of)'s pass, which decodes and watches for look-alikes (in WebAssembly,
    /// several times faster).
    ///
    /// Read `raw`, as a URI holds it, the text may also hold triplets of inert bytes that are
    /// not unreserved ([`Triplets::Inert`](crate::pct::Triplets::Inert): `%20`, `%2C`): each is
    /// read as it stands, for what it decodes to breaks no rule, and cannot make its segment
    /// `..` or a drive letter's (it is neither a dot, a letter nor a `:`).
    fn of_plain(text: &[u8], raw: bool) -> Option<Self> {
        let mut found = Self {
            absolute: matches!(text.first(), Some(b'/' | b'\\')),
            ..Self::default()
        };
        let (mut start, mut at) = (0, 0);
        while let Some(&b) = text.get(at) {
            let class = PLAIN[usize::from(b)];
            // Most bytes are of no other class: one test, where a `match` would jump through a
            // table.
            if class != Plain::Other {
                if class == Plain::Separator {
                    found.separator = true;
                    found.see(Segment::of(&text[start..at]));
                    start = at + 1;
                } else if class == Plain::Control {
                    found.control = true;
                } else if raw && crate::pct::is_inert_triplet(text, at) {
                    at += 2;
                } else {
                    return None;
                }
            }
            at += 1;
        }
        found.see(Segment::of(&text[start..]));
        Some(found)
    }

    /// [`of`](Self::of) for raw text whose triplets decode to ASCII other than `%` or to
    /// characters of two bytes, read through them, and `None` for any other: a value with a
    /// space, an encoded separator or an accent (`a%20b`, `docs%2Fa`, `caf%C3%A9`), which is
    /// most values with triplets, has no look-alike or double encoding to watch for, and its
    /// bytes need no iterator to decode them.
    fn of_ascii_triplets(raw: &[u8]) -> Option<Self> {
        let mut found = Self::default();
        let mut segment = Segment::default();
        // Whether the last byte read leads a two-byte character, whose continuation comes next.
        let mut two_byte = false;
        let mut at = 0;
        while let Some(&byte) = raw.get(at) {
            let (b, len) = match byte {
                b'%' => (crate::pct::triplet_at(raw, at)?, 3),
                b => (b, 1),
            };
            // No look-alike is a character of two bytes (each is three in UTF-8), so one of
            // those (`é`, `%C3%A9`) is read as any other byte; the text is valid UTF-8.
            let (lead, continued) = (matches!(b, 0xC2..=0xDF), two_byte && b & 0xC0 == 0x80);
            two_byte = lead;
            match PLAIN[usize::from(b)] {
                Plain::Not if lead || continued => segment.push(b),
                Plain::Other => segment.push(b),
                Plain::Separator => {
                    found.separator = true;
                    found.absolute |= at == 0;
                    found.see(std::mem::take(&mut segment));
                }
                Plain::Control => {
                    found.control = true;
                    segment.push(b);
                }
                // A decoded `%` could start a double encoding, and non-ASCII a look-alike.
                Plain::Not => return None,
            }
            at += len;
        }
        found.see(segment);
        Some(found)
    }

    fn see(&mut self, segment: Segment) {
        self.dot_dot |= segment.len == 2 && segment.head == *b"..";
        self.drive |=
            segment.len >= 2 && segment.head[0].is_ascii_alphabetic() && segment.head[1] == b':';
    }
}

/// What [`Findings::of_plain`] sees in a byte.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Plain {
    Other,
    Separator,
    Control,
    /// `%` or a byte of a non-ASCII character: not plain text.
    Not,
}

/// [`Plain`] by byte, as a table: one load per byte, where a `match` on ranges branched.
static PLAIN: [Plain; 256] = {
    let mut table = [Plain::Other; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b as u8 {
            b'/' | b'\\' => Plain::Separator,
            0..=0x1F | 0x7F => Plain::Control,
            b'%' | 0x80.. => Plain::Not,
            _ => Plain::Other,
        };
        b += 1;
    }
    table
};

/// What a pass keeps of the current segment: its length and first two bytes.
#[derive(Default)]
struct Segment {
    len: usize,
    head: [u8; 2],
}

impl Segment {
    fn of(text: &[u8]) -> Self {
        let byte = |i: usize| text.get(i).copied().unwrap_or(0);
        Self {
            len: text.len(),
            head: [byte(0), byte(1)],
        }
    }

    fn push(&mut self, b: u8) {
        if let Some(slot) = self.head.get_mut(self.len) {
            *slot = b;
        }
        self.len += 1;
    }
}

/// The form of the look-alike whose UTF-8 bytes are `window` (three, big-endian).
fn look_alike(window: u32) -> Option<&'static str> {
    LOOK_ALIKES.iter().find_map(|&(c, form)| {
        let mut utf8 = [0; 4];
        c.encode_utf8(&mut utf8);
        (u32::from_be_bytes([0, utf8[0], utf8[1], utf8[2]]) == window).then_some(form)
    })
}

/// A value's bytes with each look-alike replaced by its NFKC form (`‥` becomes `..`).
#[derive(Clone)]
struct Folded<I> {
    bytes: I,
    /// Bytes still to give: `out[at..len]`.
    out: [u8; 3],
    at: u8,
    len: u8,
}

impl<I> Folded<I> {
    fn new(bytes: I) -> Self {
        Self {
            bytes,
            out: [0; 3],
            at: 0,
            len: 0,
        }
    }
}

impl<I: Iterator<Item = u8>> Iterator for Folded<I> {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        if self.at < self.len {
            self.at += 1;
            return Some(self.out[usize::from(self.at - 1)]);
        }
        let b = self.bytes.next()?;
        // Every look-alike starts with one of these lead bytes; in UTF-8 two continuation
        // bytes follow.
        if b != 0xE2 && b != 0xEF {
            return Some(b);
        }
        let (c1, c2) = (self.bytes.next()?, self.bytes.next()?);
        let window = u32::from_be_bytes([0, b, c1, c2]);
        let held = match look_alike(window) {
            Some(form) => form.as_bytes(),
            None => &[b, c1, c2],
        };
        self.out[..held.len()].copy_from_slice(held);
        (self.at, self.len) = (1, held.len() as u8);
        Some(self.out[0])
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
mod tests;
