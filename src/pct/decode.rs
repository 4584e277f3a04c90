//! Decoding: checking that captured text decodes to UTF-8, and decoding it once.

use std::borrow::Cow;

use super::{find_percent, hex_value, is_hex_pair, unit_at};

/// Checks that the bytes of a validated value decode to UTF-8; returns the offset of the first
/// triplet that does not.
pub(crate) fn check_utf8(bytes: &[u8]) -> Result<(), usize> {
    let Some(mut i) = find_percent(bytes) else {
        return Ok(());
    };
    // Only triplets can make a value fail: raw text is a `str`'s, whole characters. So the
    // loop goes from `%` to `%`, and a triplet below `%80` is passed over unread.
    loop {
        i = if hex_value(bytes[i + 1]) < 8 {
            i + 3
        } else {
            encoded_char(bytes, i)?
        };
        match find_percent(&bytes[i..]) {
            Some(next) => i += next,
            None => return Ok(()),
        }
    }
}

/// Reads the encoded character whose first triplet is at `start`, and returns where it ends;
/// `Err(start)` if its triplets do not make one UTF-8 character. The standard library judges
/// the bytes gathered (it refuses overlong forms, surrogates and stray continuation bytes).
fn encoded_char(bytes: &[u8], start: usize) -> Result<usize, usize> {
    let (lead, lead_len) = unit_at(bytes, start);
    let lead = lead.byte;
    if lead_len == 3 && matches!(lead, 0xC2..=0xDF) && bytes.get(start + 3) == Some(&b'%') {
        // Two triplets of a two-byte character, the most common kind (Latin letters with
        // accents): a lead that is not overlong and one continuation byte, nothing for the
        // standard library to judge.
        if matches!(unit_at(bytes, start + 3).0.byte, 0x80..=0xBF) {
            return Ok(start + 6);
        }
    }
    let width = match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => return Err(start),
    };
    let mut buf = [0u8; 4];
    let mut i = start;
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
    std::str::from_utf8(&buf[..width]).map_err(|_| start)?;
    Ok(i)
}

/// Percent-decodes a value checked by [`check`](super::check) and [`check_utf8`]; borrows when
/// there is nothing to decode. The runs between triplets are copied whole into a buffer the size
/// of the value (decoding only shrinks it): one allocation a value, where a buffer grown byte by byte
/// was most of the cost of a lookup with escapes.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pct::tests::concatenations;

    /// `decode` agrees with the `percent-encoding` crate's decoder, which it replaced, on
    /// triplets, stray `%` signs and bytes that are not UTF-8.
    #[test]
    fn decode_agrees_with_percent_encoding() {
        let pieces = [
            "%", "%4", "%41", "%c3%a9", "%C3", "%zz", "a", "\u{e9}", "%25", "%FF", " ",
        ];
        for text in &concatenations(&pieces, 4) {
            let theirs = percent_encoding::percent_decode_str(text).decode_utf8_lossy();
            let ours = decode(text);
            assert_eq!(ours, theirs, "{text:?}");
            let borrowed = |c: &Cow<'_, str>| matches!(c, Cow::Borrowed(_));
            assert_eq!(borrowed(&ours), borrowed(&theirs), "{text:?} borrows");
        }
    }

    /// The check as it was first written, unit by unit from the first `%` (raw bytes past
    /// ASCII included): the reference for the one that passes over ASCII triplets.
    fn check_by_units(raw: &str) -> Result<(), usize> {
        let bytes = raw.as_bytes();
        let Some(mut i) = find_percent(bytes) else {
            return Ok(());
        };
        while i < bytes.len() {
            let (unit, len) = unit_at(bytes, i);
            i = if !unit.encoded || unit.byte < 0x80 {
                i + len
            } else {
                encoded_char(bytes, i)?
            };
        }
        Ok(())
    }

    /// Every string of up to four units over leads, continuations, ASCII triplets and raw
    /// text: the same answer and the same offset as the reference.
    #[test]
    fn utf8_check_agrees_with_the_unit_by_unit_reading() {
        let units = [
            "a", "%20", "%41", "%C3", "%A9", "%E2", "%82", "%AC", "\u{e9}", "%FF", "%F0", "%9F",
            "%C1", "%C2", "%BF",
        ];
        let all = concatenations(&units, 4);
        assert!(all.len() > 50_000);
        for text in &all {
            assert_eq!(
                check_utf8(text.as_bytes()),
                check_by_units(text),
                "{text:?}"
            );
        }
    }

    #[test]
    fn utf8_check_refuses_invalid_sequences() {
        assert_eq!(check_utf8(b"caf%C3%A9"), Ok(()));
        assert_eq!(check_utf8(b"%FF"), Err(0));
        assert_eq!(check_utf8(b"%C0%AE"), Err(0));
        assert_eq!(check_utf8(b"a%C3"), Err(1));
        assert_eq!(check_utf8(b"%A9"), Err(0));
        assert_eq!(check_utf8(b"%C3x"), Err(0));
        assert_eq!(
            check_utf8(b"%20%41%C3"),
            Err(6),
            "after triplets passed over"
        );
        assert_eq!(
            check_utf8("\u{e9}%A9".as_bytes()),
            Err(2),
            "a raw character is whole"
        );
        assert_eq!(decode("a%2Fb%2b"), "a/b+");
        // Every operator's values decode once: a triplet of `%` leaves a triplet behind.
        assert_eq!(decode("..%2F%20%C3%A9%25%25zz%2541"), "../ \u{e9}%%zz%41");
    }
}

/// The bytes [`decode`] would give, one at a time, without a buffer: for judging a value
/// where it stands in the URI (path safety), so that only a handler's own call decodes it.
pub(crate) fn decoded_bytes(raw: &str) -> DecodedBytes<'_> {
    DecodedBytes {
        rest: raw.as_bytes(),
    }
}

/// The iterator of [`decoded_bytes`].
#[derive(Debug, Clone)]
pub(crate) struct DecodedBytes<'a> {
    rest: &'a [u8],
}

impl Iterator for DecodedBytes<'_> {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        let (&b, after) = self.rest.split_first()?;
        // A `%` that starts no triplet stays as it is, as in `decode`.
        if b == b'%' && is_hex_pair(after) {
            self.rest = &after[2..];
            return Some(hex_value(after[0]) << 4 | hex_value(after[1]));
        }
        self.rest = after;
        Some(b)
    }
}
