//! Percent-encoding, in both directions: the one place that knows triplets.
//!
//! [`Encoder`] writes values percent-encoded for an operator, cut to a prefix length that
//! counts characters; `decode` turns captured text back into a value, once. Between them, the
//! units below are how matching reads a URI.
//!
//! Matching compares a URI with a template one *unit* at a time: a raw ASCII byte, a
//! percent-triplet (`%2F`, compared by the byte it encodes, so hex case does not matter), or a raw
//! non-ASCII byte, which is taken as the triplet that encodes it (so `é` equals `%C3%A9`).
//! [`check`] checks a URI's triplets (and that it holds no byte a URI may not) in one pass, so
//! that reading units afterwards cannot fail; [`check_utf8`] checks that a captured value
//! decodes to UTF-8 without decoding it.

mod decode;
mod encode;

pub(crate) use decode::{check_utf8, decode, decoded_bytes};
pub(crate) use encode::{Encoder, write_literal};

/// One unit of a URI or a template literal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Unit {
    /// The byte: the raw byte, or the byte a triplet encodes.
    pub(crate) byte: u8,
    /// Whether the byte was percent-encoded (or is raw non-ASCII, which stands for its triplet).
    pub(crate) encoded: bool,
}

impl Unit {
    /// Whether this unit starts a character: anything but an encoded UTF-8 continuation byte.
    pub(crate) fn starts_char(self) -> bool {
        !(self.encoded && self.byte & 0xC0 == 0x80)
    }
}

/// Reads the unit at `i` and its length in bytes. `bytes[i..]` must be non-empty, and any `%`
/// must start a valid triplet (see [`check`]).
///
/// Units are normalized as RFC 3986 section 6.2.2 says: a triplet's hex case does not matter
/// (`%2f` is `%2F`), and a triplet that encodes an unreserved character is that character
/// (`%66` is `f`, `%7E` is `~`).
#[inline]
pub(crate) fn unit_at(bytes: &[u8], i: usize) -> (Unit, usize) {
    let b = bytes[i];
    if b == b'%' {
        let byte = hex_value(bytes[i + 1]) << 4 | hex_value(bytes[i + 2]);
        (
            Unit {
                byte,
                encoded: !is_unreserved(byte),
            },
            3,
        )
    } else {
        (
            Unit {
                byte: b,
                encoded: b >= 0x80,
            },
            1,
        )
    }
}

/// The units of valid text, normalized as [`unit_at`] reads them.
pub(crate) fn units(bytes: &[u8]) -> impl Iterator<Item = Unit> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        let (unit, len) = (i < bytes.len()).then(|| unit_at(bytes, i))?;
        i += len;
        Some(unit)
    })
}

/// The value of a hex digit (0 for any other byte).
#[inline]
pub(super) fn hex_value(b: u8) -> u8 {
    HEX[usize::from(b)] & 0x0F
}

/// [`HEX`] of a byte that is not a hex digit: any value of 16 or more.
const NOT_HEX: u8 = 0x10;

/// Each byte's value as a hex digit, or [`NOT_HEX`]: one load where a match of ranges
/// branches.
static HEX: [u8; 256] = {
    let mut table = [NOT_HEX; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = match byte {
            b'0'..=b'9' => byte - b'0',
            b'a'..=b'f' => byte - b'a' + 10,
            b'A'..=b'F' => byte - b'A' + 10,
            _ => NOT_HEX,
        };
        b += 1;
    }
    table
};

/// The length of the run of plain bytes `bytes` starts with. Most bytes of most URIs are in
/// such a run: a text of two blocks or more is read a block at a time ([`plain_blocks`]), a
/// shorter one by the table (where a block that holds the end of the run would cost more than
/// it saves).
#[inline]
fn plain_run(bytes: &[u8]) -> usize {
    if bytes.len() < BLOCK {
        return byte_by_byte(bytes);
    }
    if bytes.len() < 2 * BLOCK {
        return if VECTORS {
            two_blocks(bytes)
        } else {
            byte_by_byte(bytes)
        };
    }
    plain_blocks(bytes)
}

/// Whether every byte of `bytes` is plain: a text with no fault, no triplet and no `#`.
#[inline]
pub(crate) fn is_plain_text(bytes: &[u8]) -> bool {
    plain_run(bytes) == bytes.len()
}

/// [`plain_run`] for a text of one block up to two: its first block and its last, which
/// overlap, else the table from the start.
#[inline(never)]
fn two_blocks(bytes: &[u8]) -> usize {
    if all_plain(&bytes[..BLOCK]) && all_plain(&bytes[bytes.len() - BLOCK..]) {
        return bytes.len();
    }
    byte_by_byte(bytes)
}

/// [`plain_run`] sixteen bytes at a time, with comparisons that compile to vector instructions
/// (the last sixteen overlapping the block before), and by the table, a byte at a time, only
/// from the block where the run ends. Out of line, so that a short text does not pay for
/// setting up the comparisons.
#[inline(never)]
fn plain_blocks(bytes: &[u8]) -> usize {
    let mut at = 0;
    while let Some(block) = bytes.get(at..at + BLOCK) {
        if !all_plain(block) {
            return at + byte_by_byte(&bytes[at..]);
        }
        at += BLOCK;
    }
    match bytes.len().checked_sub(BLOCK) {
        Some(last) if all_plain(&bytes[last..]) => bytes.len(),
        _ => at + byte_by_byte(&bytes[at..]),
    }
}

/// Whether the target compares a block of sixteen bytes at once ([`all_plain`], and the
/// walk's blocks of a query tail). Without vector instructions (WebAssembly as the npm package
/// builds it), a block's comparisons cost more than a table's loop: there the walk reads no
/// query tail by blocks, and this check only texts of two blocks or more.
pub(crate) const VECTORS: bool = cfg!(any(
    target_feature = "sse2",
    target_feature = "neon",
    target_feature = "simd128"
));

/// How many bytes [`plain_run`] reads at once.
const BLOCK: usize = 16;

/// Whether every byte of a block of [`BLOCK`] bytes is plain, in one pass with no branch.
#[inline(always)]
fn all_plain(block: &[u8]) -> bool {
    let block: &[u8; BLOCK] = block.try_into().expect("a whole block");
    block
        .iter()
        .fold(0, |stops, &b| stops | u8::from(!is_plain(b)))
        == 0
}

/// [`plain_run`] a byte at a time, by the table: one load a byte.
#[inline]
fn byte_by_byte(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|&b| BYTES[usize::from(b)] != Byte::Plain)
        .unwrap_or(bytes.len())
}

/// Whether `b` is [`Byte::Plain`], as comparisons joined without branches rather than a
/// table, so that a block of them compiles to vector instructions.
#[inline(always)]
pub(crate) fn is_plain(b: u8) -> bool {
    let stop = (b <= b' ')
        | (b == 0x7F)
        | (b == b'"')
        | (b == b'#')
        | (b == b'%')
        | (b == b'<')
        | (b == b'>')
        | (b == b'\\')
        | (b == b'^')
        | (b == b'`')
        | (b.wrapping_sub(b'{') < 3);
    !stop
}

/// The sub-delimiters, `:` and `@`: characters that expansion of `{v}` percent-encodes but
/// clients and people often send raw (`a+b.txt`, `report(1).pdf`, `ada@example.com`).
pub(crate) const CLIENT_RAW: &[u8] = b"!$&'()*+,;=:@";

/// What [`check`] found in valid text. Each reading knows more than the one before it: what a
/// text holds is the last that one of its triplets (or a two-byte character's triplets out of
/// their pair) calls for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Triplets {
    /// No triplet.
    None,
    /// Triplets, each of an [inert](is_inert) byte that is not unreserved (`%20`, `%2C`): what
    /// they decode to is inert too, so that a value whose other bytes are inert breaks no
    /// path-safety rule.
    Inert,
    /// Triplets, each of such an inert byte or of a byte of a two-byte UTF-8 character, some
    /// of the latter, in whole characters: each lead `%C2` to `%DF` followed by the triplet of
    /// one continuation `%80` to `%BF` (`caf%C3%A9`). The text decodes to UTF-8 and holds no
    /// character past ASCII but two-byte ones, and no look-alike is one of those, so that a
    /// value whose other bytes are inert breaks no path-safety rule either, once it is known
    /// to decode (a value may start or end inside a character that the text holds whole).
    TwoByte,
    /// Triplets, some of an ASCII byte that is not inert (`%2F`, `%3A`), the others of the
    /// kinds above, none of an unreserved character.
    Ascii,
    /// Triplets, some of a byte past ASCII that is not in a whole two-byte character
    /// (`%E2%80%A4`, or `%C3` without its continuation), none of an unreserved character.
    Some,
    /// Triplets, some for an unreserved character (`%66`), which equal that character.
    Unreserved,
}

impl Triplets {
    /// Whether a value that holds some of these triplets may fail to decode to UTF-8: where
    /// every triplet is of an inert byte, none can.
    pub(crate) fn need_utf8_check(self) -> bool {
        self > Triplets::Inert
    }
}

/// Whether a triplet of an [inert](is_inert) byte that is not unreserved starts at `at`
/// ([`Triplets::Inert`]).
#[inline]
pub(crate) fn is_inert_triplet(bytes: &[u8], at: usize) -> bool {
    triplet_at(bytes, at).is_some_and(|b| TRIPLET_OF[usize::from(b)] == Triplets::Inert)
}

/// What a triplet of each byte calls for, read alone: [`Triplets::Unreserved`] for an
/// unreserved character, [`Triplets::TwoByte`] for a byte of a two-byte character (until
/// [`read_triplet`] finds it in a whole character or not), [`Triplets::Some`] for other bytes
/// past ASCII, [`Triplets::Inert`] for the other inert bytes, [`Triplets::Ascii`] for the rest.
static TRIPLET_OF: [Triplets; 256] = {
    let mut table = [Triplets::Ascii; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        if is_unreserved(byte) {
            table[b] = Triplets::Unreserved;
        } else if matches!(byte, 0x80..=0xBF | 0xC2..=0xDF) {
            table[b] = Triplets::TwoByte;
        } else if byte >= 0x80 {
            table[b] = Triplets::Some;
        } else if INERT[b] {
            table[b] = Triplets::Inert;
        }
        b += 1;
    }
    table
};

/// Reads the triplet at `at` (`None` if the `%` there starts none), as [`check`] and
/// [`check_triplets`] do: what it calls for, and where the text read with it ends. A triplet
/// of a two-byte character's lead is read with the continuation's that follows it; one that
/// is not in such a pair calls for [`Triplets::Some`], as a byte past ASCII outside a whole
/// two-byte character.
///
/// Inlined natively, where the URI's check and a walk's runs each read triplets in a loop of
/// their own; one copy in WebAssembly, where the npm package's size is the budget.
#[cfg_attr(not(target_arch = "wasm32"), inline)]
#[cfg_attr(target_arch = "wasm32", inline(never))]
pub(crate) fn read_triplet(bytes: &[u8], at: usize) -> Option<(Triplets, usize)> {
    let byte = triplet_at(bytes, at)?;
    let class = TRIPLET_OF[usize::from(byte)];
    if class == Triplets::TwoByte {
        return Some(two_byte_char(bytes, byte, at));
    }
    Some((class, at + 3))
}

/// [`read_triplet`] for a triplet of `byte`, a lead or a continuation of a two-byte character.
#[inline]
fn two_byte_char(bytes: &[u8], byte: u8, at: usize) -> (Triplets, usize) {
    let lead = matches!(byte, 0xC2..=0xDF);
    match triplet_at(bytes, at + 3) {
        Some(0x80..=0xBF) if lead => (Triplets::TwoByte, at + 6),
        _ => (Triplets::Some, at + 3),
    }
}

/// The first fault of a URI: a `%` that does not start a triplet, or a byte that a URI may
/// not hold raw (RFC 3986 section 2): a control character, a space, `"`, `<`, `>`, `\`, `^`,
/// `` ` ``, `{`, `|` or `}`. Non-ASCII bytes may stand (an IRI's characters, taken as their
/// UTF-8 triplets).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fault {
    /// A `%` at this offset not followed by two hex digits.
    Percent(usize),
    /// A byte a URI may not hold, at this offset.
    Disallowed(usize),
}

/// Checks a URI in one pass: every `%` starts a triplet and every byte may stand raw. Says
/// what triplets it holds and where its fragment starts, or the first fault.
pub(crate) fn check(s: &str) -> Result<Checked, Fault> {
    let bytes = s.as_bytes();
    let mut checked = Checked {
        triplets: Triplets::None,
        fragment: None,
    };
    let mut at = 0;
    loop {
        at += plain_run(&bytes[at..]);
        let Some(&byte) = bytes.get(at) else {
            return Ok(checked);
        };
        match BYTES[usize::from(byte)] {
            Byte::Disallowed => return Err(Fault::Disallowed(at)),
            Byte::Hash => {
                checked.fragment = checked.fragment.or(Some(at));
                at += 1;
            }
            // `plain_run` stops at none.
            Byte::Plain => at += 1,
            Byte::Percent => {
                let (class, end) = read_triplet(bytes, at).ok_or(Fault::Percent(at))?;
                checked.triplets = checked.triplets.max(class);
                at = end;
            }
        }
    }
}

/// What [`check`] found in valid text: its triplets, and where its first `#` is, which
/// starts a URI's fragment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Checked {
    pub(crate) triplets: Triplets,
    pub(crate) fragment: Option<usize>,
}

/// [`check`] for a URI whose bytes are all known to be ones a URI may hold (a walk took each
/// as a literal or in a run of allowed bytes): only its triplets are checked, from `%` to `%`.
/// Returns the offset of the first `%` that does not start one.
#[inline(always)]
pub(crate) fn check_triplets(s: &str) -> Result<Triplets, usize> {
    let bytes = s.as_bytes();
    let mut found = Triplets::None;
    let mut from = 0;
    while let Some(i) = find_percent(&bytes[from..]) {
        let at = from + i;
        let (class, end) = read_triplet(bytes, at).ok_or(at)?;
        found = found.max(class);
        from = end;
    }
    Ok(found)
}

/// Whether a URI may not hold `b` raw (see [`Fault::Disallowed`]).
pub(crate) fn is_disallowed(b: u8) -> bool {
    BYTES[usize::from(b)] == Byte::Disallowed
}

/// What [`check`] does with a byte.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Byte {
    Plain,
    Percent,
    /// `#`, noted for where a fragment starts.
    Hash,
    Disallowed,
}

/// [`check`]'s reading of each byte.
static BYTES: [Byte; 256] = {
    let mut table = [Byte::Plain; 256];
    let mut b = 0;
    while b < 128 {
        let byte = b as u8;
        if byte < 0x20
            || matches!(
                byte,
                0x7F | b' ' | b'"' | b'<' | b'>' | b'\\' | b'^' | b'`' | b'{' | b'|' | b'}'
            )
        {
            table[b] = Byte::Disallowed;
        }
        b += 1;
    }
    table[b'%' as usize] = Byte::Percent;
    table[b'#' as usize] = Byte::Hash;
    table
};

/// The first unit of valid text that equals the raw ASCII `byte` under normalization, with its
/// offset and length: the byte itself, or, for an unreserved one, its triplet (`%2E` is `.`).
pub(crate) fn find_unit(text: &str, byte: u8) -> Option<(usize, usize)> {
    units_equal_to(text, byte).next()
}

/// The last such unit.
pub(crate) fn rfind_unit(text: &str, byte: u8) -> Option<(usize, usize)> {
    units_equal_to(text, byte).last()
}

fn units_equal_to(text: &str, byte: u8) -> impl Iterator<Item = (usize, usize)> + '_ {
    let bytes = text.as_bytes();
    let wanted = Unit {
        byte,
        encoded: false,
    };
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            let at = i;
            let (unit, len) = unit_at(bytes, i);
            i += len;
            if unit == wanted {
                return Some((at, len));
            }
        }
        None
    })
}

/// Whether two valid texts decode to the same bytes (`%2F` and `/` do), without decoding them.
pub(crate) fn same_decoded(a: &str, b: &str) -> bool {
    a == b || decoded_bytes(a).eq(decoded_bytes(b))
}

/// Whether `prefix` decodes to the first `chars` characters of what `whole` decodes to (all
/// of it, if it has fewer): how a prefix occurrence `{v:N}` of a repeated name agrees with
/// the value.
pub(crate) fn is_decoded_prefix(prefix: &str, whole: &str, chars: usize) -> bool {
    let mut started = 0;
    let head = decoded_bytes(whole).take_while(|&b| {
        // A UTF-8 continuation byte belongs to the character before it.
        started += usize::from(b & 0xC0 != 0x80);
        started <= chars
    });
    decoded_bytes(prefix).eq(head)
}

/// Whether two valid texts are equivalent under RFC 3986 normalization (hex case, triplets of
/// unreserved characters): how query names compare (`%74oken` is `token`).
#[inline]
pub(crate) fn equivalent(a: impl AsRef<[u8]>, b: impl AsRef<[u8]>) -> bool {
    let (a, b) = (a.as_ref(), b.as_ref());
    // Names are a few bytes: compared inline, rather than by a call to `memcmp`.
    if a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y) {
        return true;
    }
    // Most names that differ do at their first byte, as units when neither starts a triplet.
    if let (Some(&x), Some(&y)) = (a.first(), b.first()) {
        if x != y && x != b'%' && y != b'%' {
            return false;
        }
    }
    // Without triplets, each byte is its own unit: texts that differ are not equivalent.
    #[allow(
        clippy::manual_contains,
        reason = "names are a few bytes: a loop, not a call to memchr"
    )]
    let percent = |text: &[u8]| text.iter().any(|&b| b == b'%');
    (percent(a) || percent(b)) && same_units(a, b)
}

/// [`equivalent`] unit by unit, for texts with triplets.
fn same_units(a: &[u8], b: &[u8]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let ((x, m), (y, n)) = (unit_at(a, i), unit_at(b, j));
        if x != y {
            return false;
        }
        i += m;
        j += n;
    }
    i == a.len() && j == b.len()
}

/// The offset of the first `%` in `bytes`: most URIs have none, and every lookup asks. Eight
/// bytes at a time, as [`find_byte`] reads them, but for the bytes past the last whole word,
/// read one at a time: most values are shorter than a word.
fn find_percent(bytes: &[u8]) -> Option<usize> {
    let mut at = 0;
    for word in bytes.chunks_exact(8) {
        let word = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        if let Some(i) = first_in_word(word, b'%') {
            return Some(at + i);
        }
        at += 8;
    }
    bytes[at..].iter().position(|&b| b == b'%').map(|i| at + i)
}

/// The offset of the first `needle` in `word`'s bytes, little-endian: where one of its bytes
/// XOR the needle is zero. A borrow can set the high bit of a byte above a zero one, never
/// below: the lowest bit set is the first needle.
#[inline(always)]
fn first_in_word(word: u64, needle: u8) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    let x = word ^ u64::from_le_bytes([needle; 8]);
    let zeros = x.wrapping_sub(ONES) & !x & HIGHS;
    (zeros != 0).then(|| zeros.trailing_zeros() as usize / 8)
}

/// The offset of the first `needle` in `bytes` from offset `from` on, eight bytes at a time:
/// for texts of a few dozen bytes this beats a call to a general `memchr`, and a block of
/// comparisons too, as it finds where in the word the needle is. The last word overlaps the
/// one before (or the bytes before `from`), so that only a text shorter than a word is read a
/// byte at a time.
#[inline]
pub(crate) fn find_byte(bytes: &[u8], from: usize, needle: u8) -> Option<usize> {
    let first = |word: u64| first_in_word(word, needle);
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("eight bytes"));
    let mut at = from;
    while at + 8 <= bytes.len() {
        if let Some(i) = first(word(at)) {
            return Some(at + i);
        }
        at += 8;
    }
    if at >= bytes.len() {
        return None;
    }
    let Some(last) = bytes.len().checked_sub(8) else {
        return bytes[at..]
            .iter()
            .position(|&b| b == needle)
            .map(|i| at + i);
    };
    // The last eight bytes, shifted so that those not read yet come first.
    first(word(last) >> (8 * (at - last))).map(|i| at + i)
}

pub(super) fn is_hex_pair(b: &[u8]) -> bool {
    b.len() >= 2 && b[0].is_ascii_hexdigit() && b[1].is_ascii_hexdigit()
}

/// The unreserved characters of RFC 3986: ALPHA, DIGIT, `-`, `.`, `_`, `~`.
pub(crate) const fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// The reserved characters of RFC 3986: gen-delims and sub-delims.
pub(crate) const fn is_reserved(b: u8) -> bool {
    matches!(
        b,
        b':' | b'/'
            | b'?'
            | b'#'
            | b'['
            | b']'
            | b'@'
            | b'!'
            | b'$'
            | b'&'
            | b'\''
            | b'('
            | b')'
            | b'*'
            | b'+'
            | b','
            | b';'
            | b'='
    )
}

/// Whether validated text ends with a whole character: not inside the triplets (or raw bytes)
/// of one UTF-8 character. Empty text does. Reads back over at most four units: in validated
/// text a unit ending at `i` is a triplet exactly when `i - 3` holds a `%`.
pub(crate) fn ends_char(text: &[u8]) -> bool {
    let mut end = text.len();
    let mut continuations = 0;
    while end > 0 {
        let (byte, len) = if end >= 3 && text[end - 3] == b'%' {
            (hex_value(text[end - 2]) << 4 | hex_value(text[end - 1]), 3)
        } else {
            (text[end - 1], 1)
        };
        if byte & 0xC0 != 0x80 {
            let width = match byte {
                0x00..=0x7F => 1,
                0xC0..=0xDF => 2,
                0xE0..=0xEF => 3,
                0xF0..=0xF7 => 4,
                // Not UTF-8 at all: the UTF-8 check after the match reports it.
                _ => return true,
            };
            return width == continuations + 1;
        }
        continuations += 1;
        if continuations == 4 {
            return true;
        }
        end -= len;
    }
    // Only continuation bytes: not UTF-8, which the check after the match reports.
    true
}

/// The number of characters in captured text, a run of triplets for one character counting once.
pub(crate) fn char_count(bytes: &[u8]) -> usize {
    let (mut i, mut chars) = (0, 0);
    while i < bytes.len() {
        let (unit, len) = unit_at(bytes, i);
        chars += usize::from(unit.starts_char());
        i += len;
    }
    chars
}

/// The byte the triplet at `at` encodes, if one starts there.
#[inline]
pub(crate) fn triplet_at(bytes: &[u8], at: usize) -> Option<u8> {
    let &[b'%', h, l] = bytes.get(at..at + 3)? else {
        return None;
    };
    let (h, l) = (HEX[usize::from(h)], HEX[usize::from(l)]);
    (h | l < NOT_HEX).then_some(h << 4 | l)
}

/// Whether `b` starts with a percent-triplet: `%` and two hex digits.
pub(crate) fn is_triplet(b: &[u8]) -> bool {
    b.len() >= 3 && b[0] == b'%' && b[1].is_ascii_hexdigit() && b[2].is_ascii_hexdigit()
}

/// Whether every byte is *inert*: printable ASCII other than `.`, `/`, `\`, `%` and `:`. Such
/// text has no path segments, separators, triplets or drive letters, and nothing to decode.
/// Most captured values are inert, and the matching engine notes it as it reads them, so that
/// a router can skip both decoding and its path-safety checks.
pub(crate) fn is_inert(value: &[u8]) -> bool {
    value.iter().all(|&b| INERT[usize::from(b)])
}

/// [`is_inert`] per byte, as a table: one load per byte instead of five comparisons.
static INERT: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = byte == b' '
            || byte.is_ascii_graphic() && !matches!(byte, b'.' | b'/' | b'\\' | b'%' | b':');
        b += 1;
    }
    table
};

#[cfg(test)]
pub(crate) mod tests;
