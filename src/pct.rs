//! Percent-encoding primitives shared by matching and routing.
//!
//! Matching compares a URI with a template one *unit* at a time: a raw ASCII byte, a
//! percent-triplet (`%2F`, compared by the byte it encodes, so hex case does not matter), or a raw
//! non-ASCII byte, which is taken as the triplet that encodes it (so `é` equals `%C3%A9`).
//! [`validate`] checks a URI's triplets once up front, so that reading units afterwards cannot
//! fail; [`check_utf8`] checks that a captured value decodes to UTF-8 without decoding it.

use std::borrow::Cow;

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
/// must start a valid triplet (see [`validate`]).
#[inline]
pub(crate) fn unit_at(bytes: &[u8], i: usize) -> (Unit, usize) {
    let b = bytes[i];
    if b == b'%' {
        let byte = hex_value(bytes[i + 1]) << 4 | hex_value(bytes[i + 2]);
        (
            Unit {
                byte,
                encoded: true,
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

#[inline]
fn hex_value(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        b'A'..=b'F' => b - b'A' + 10,
        _ => 0,
    }
}

/// Checks that every `%` in `s` starts a triplet, and says whether there is any; returns the
/// offset of the first `%` that does not start one.
pub(crate) fn validate(s: &str) -> Result<bool, usize> {
    let bytes = s.as_bytes();
    let Some(first) = find_percent(bytes) else {
        return Ok(false);
    };
    let mut from = first;
    while let Some(i) = bytes[from..].iter().position(|&b| b == b'%') {
        let at = from + i;
        let ok = bytes.len() > at + 2
            && bytes[at + 1].is_ascii_hexdigit()
            && bytes[at + 2].is_ascii_hexdigit();
        if !ok {
            return Err(at);
        }
        from = at + 3;
    }
    Ok(true)
}

/// The offset of the first `%` in `bytes`: most URIs have none, and every lookup asks. Eight
/// bytes at a time (a word holds a `%` when one of its bytes XOR `%` is zero); for URIs of a
/// few dozen bytes this beats a call to a general `memchr`.
pub(crate) fn find_percent(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    const PERCENTS: u64 = u64::from_ne_bytes([b'%'; 8]);
    let mut words = bytes.chunks_exact(8);
    let mut at = 0;
    for word in &mut words {
        let x = u64::from_ne_bytes(word.try_into().expect("eight bytes")) ^ PERCENTS;
        if x.wrapping_sub(ONES) & !x & HIGHS != 0 {
            break;
        }
        at += 8;
    }
    bytes[at..].iter().position(|&b| b == b'%').map(|i| at + i)
}

/// Checks that a validated value decodes to UTF-8; returns the offset in `raw` of the first
/// triplet that does not.
pub(crate) fn check_utf8(raw: &str) -> Result<(), usize> {
    let bytes = raw.as_bytes();
    let Some(mut i) = find_percent(bytes) else {
        return Ok(());
    };
    while i < bytes.len() {
        let (unit, len) = unit_at(bytes, i);
        if !unit.encoded || unit.byte < 0x80 {
            i += len;
            continue;
        }
        // Gather one encoded character, then let the standard library judge it (it refuses
        // overlong forms, surrogates and stray continuation bytes).
        let start = i;
        let width = match unit.byte {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => return Err(start),
        };
        let mut buf = [0u8; 4];
        for slot in buf.iter_mut().take(width) {
            if i >= bytes.len() {
                return Err(start);
            }
            let (u, len) = unit_at(bytes, i);
            if !u.encoded {
                return Err(start);
            }
            *slot = u.byte;
            i += len;
        }
        if std::str::from_utf8(&buf[..width]).is_err() {
            return Err(start);
        }
    }
    Ok(())
}

/// Percent-decodes a value checked by [`validate`] and [`check_utf8`]; borrows when there is
/// nothing to decode. The runs between triplets are copied whole into a buffer the size of the
/// value (decoding only shrinks it): one allocation a value, where decoding byte by byte into
/// a growing buffer took over a quarter of the instructions of an MCP lookup with escapes.
pub(crate) fn decode(raw: &str) -> Cow<'_, str> {
    let bytes = raw.as_bytes();
    let Some(mut at) = find_percent(bytes) else {
        return Cow::Borrowed(raw);
    };
    let mut out = Vec::with_capacity(bytes.len());
    let mut run = 0;
    loop {
        // A `%` that starts no triplet stays as it is.
        if is_hex_pair(&bytes[at + 1..]) {
            out.extend_from_slice(&bytes[run..at]);
            out.push(hex_value(bytes[at + 1]) << 4 | hex_value(bytes[at + 2]));
            run = at + 3;
        }
        let from = (at + 1).max(run);
        match find_percent(&bytes[from..]) {
            Some(next) => at = from + next,
            None => break,
        }
    }
    if run == 0 {
        // Only stray `%` signs: nothing was decoded.
        return Cow::Borrowed(raw);
    }
    out.extend_from_slice(&bytes[run..]);
    Cow::Owned(into_text(out))
}

/// The decoded bytes as text. Checked values decode to UTF-8; a failure here could only come
/// from unchecked input, and is replaced rather than reported.
fn into_text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Decodes a value captured by reserved or fragment expansion (`{+v}`, `{#v}`), which passes
/// triplets through: only the triplets that the expansion would have produced itself are
/// decoded. A triplet for an unreserved or reserved character is kept (`%2F` stays `%2F`, so an
/// encoded slash never becomes a path separator), and so is `%25` before two hex digits; every
/// other triplet is decoded once. The result re-expands to the same text.
pub(crate) fn decode_reserved(raw: &str) -> Cow<'_, str> {
    let bytes = raw.as_bytes();
    if !bytes.contains(&b'%') {
        return Cow::Borrowed(raw);
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let (unit, len) = unit_at(bytes, i);
        let keep = unit.encoded
            && len == 3
            && (unit.byte < 0x80 && (is_unreserved(unit.byte) || is_reserved(unit.byte))
                || unit.byte == b'%' && is_hex_pair(&bytes[i + 3..]));
        if keep || !unit.encoded || len == 1 {
            out.extend_from_slice(&bytes[i..i + len]);
        } else {
            out.push(unit.byte);
        }
        i += len;
    }
    Cow::Owned(into_text(out))
}

fn is_hex_pair(b: &[u8]) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `decode` agrees with the `percent-encoding` crate's decoder, which it replaced, on
    /// triplets, stray `%` signs and bytes that are not UTF-8.
    #[test]
    fn decode_agrees_with_percent_encoding() {
        let pieces = [
            "%", "%4", "%41", "%c3%a9", "%C3", "%zz", "a", "\u{e9}", "%25", "%FF", " ",
        ];
        let mut texts = vec![String::new()];
        for _ in 0..4 {
            texts = texts
                .iter()
                .flat_map(|t| pieces.iter().map(move |p| format!("{t}{p}")))
                .collect();
            for text in &texts {
                let theirs = percent_encoding::percent_decode_str(text).decode_utf8_lossy();
                let ours = decode(text);
                assert_eq!(ours, theirs, "{text:?}");
                let borrowed = |c: &Cow<'_, str>| matches!(c, Cow::Borrowed(_));
                assert_eq!(borrowed(&ours), borrowed(&theirs), "{text:?} borrows");
            }
        }
    }

    #[test]
    fn units_fold_hex_case_and_raw_non_ascii() {
        assert_eq!(unit_at(b"%2f", 0), unit_at(b"%2F", 0));
        let e_acute = "\u{e9}".as_bytes();
        assert_eq!(unit_at(e_acute, 0).0, unit_at(b"%C3", 0).0);
    }

    #[test]
    fn validation_finds_bad_triplets() {
        assert_eq!(validate("a%2Fb"), Ok(true));
        assert_eq!(validate("a/b"), Ok(false));
        for (text, at) in [
            ("", None),
            ("%", Some(0)),
            ("abcdefgh", None),
            ("abcdefgh%", Some(8)),
            ("abcdefg%ijklmnop%", Some(7)),
            ("a\u{e9}\u{25}", Some(3)),
        ] {
            assert_eq!(find_percent(text.as_bytes()), at, "{text}");
        }
        assert_eq!(validate("a%2"), Err(1));
        assert_eq!(validate("%ZZ"), Err(0));
        assert_eq!(validate("%41%"), Err(3));
    }

    #[test]
    fn utf8_check_refuses_invalid_sequences() {
        assert_eq!(check_utf8("caf%C3%A9"), Ok(()));
        assert_eq!(check_utf8("%FF"), Err(0));
        assert_eq!(check_utf8("%C0%AE"), Err(0));
        assert_eq!(check_utf8("a%C3"), Err(1));
        assert_eq!(check_utf8("%A9"), Err(0));
        assert_eq!(check_utf8("%C3x"), Err(0));
        assert_eq!(decode("a%2Fb%2b"), "a/b+");
        assert_eq!(
            decode_reserved("..%2F%20%C3%A9%25%25zz%2541"),
            "..%2F \u{e9}%%zz%2541"
        );
    }
}
