//! Encoding: writing a value percent-encoded for an operator, cut to a prefix length.

use std::fmt::{self, Write};

use percent_encoding::{CONTROLS, percent_encode_byte, utf8_percent_encode};

use super::{is_reserved, is_triplet, is_unreserved};

/// Writes values percent-encoded for one operator, optionally cut to a prefix length.
pub(crate) struct Encoder<'w, W: ?Sized> {
    out: &'w mut W,
    reserved: bool,
    /// Characters still allowed by a prefix modifier; `None` without one.
    limit: Option<usize>,
}

impl<'w, W: Write + ?Sized> Encoder<'w, W> {
    #[inline]
    pub(crate) fn new(out: &'w mut W, reserved: bool) -> Self {
        Self {
            out,
            reserved,
            limit: None,
        }
    }

    /// Cuts what is written next to `prefix` characters (RFC 6570 section 2.4.1), or lifts the
    /// cut with `None`.
    #[inline]
    pub(crate) fn set_prefix(&mut self, prefix: Option<u16>) {
        self.limit = prefix.map(usize::from);
    }

    /// Writes text that needs no encoding (names, separators).
    #[inline]
    pub(crate) fn verbatim(&mut self, s: &str) -> fmt::Result {
        write_raw(self.out, s)
    }

    /// Percent-encodes `s` for the operator: runs of bytes that need no encoding are written as
    /// one slice, every other byte as its triplet. In reserved expansion a `%` that starts a
    /// triplet is passed through, and any other `%` is encoded.
    #[inline]
    pub(crate) fn encode(&mut self, s: &str) -> fmt::Result {
        let table = if self.reserved {
            &ENCODE_U_R
        } else {
            &ENCODE_U
        };
        match s.bytes().position(|b| table[usize::from(b)]) {
            None => self.out.write_str(s),
            Some(first) => self.encode_from(s, first, table),
        }
    }

    /// Encodes what is left of the prefix length `limit` (out of line, as prefixes are rare).
    #[inline(never)]
    fn encode_prefix(&mut self, s: &str, limit: usize) -> fmt::Result {
        let (end, used) = prefix_end(s, limit);
        self.limit = Some(limit - used);
        self.encode(&s[..end])
    }

    /// [`encode`](Self::encode) once a byte at `first` needs encoding; out of line, so that
    /// values with nothing to encode (most) pay only for the scan.
    #[inline(never)]
    fn encode_from(&mut self, s: &str, first: usize, table: &[bool; 256]) -> fmt::Result {
        let bytes = s.as_bytes();
        // Runs end only at ASCII bytes or at encoded (non-ASCII) bytes, so every slice below
        // starts and ends on a character boundary.
        let needs = |b: &u8| table[usize::from(*b)];
        let mut i = first;
        let mut run = 0;
        loop {
            if run < i {
                self.out.write_str(&s[run..i])?;
            }
            let b = bytes[i];
            if b == b'%' && self.reserved && is_triplet(&bytes[i..]) {
                self.out.write_str(&s[i..i + 3])?;
                i += 3;
            } else {
                self.out.write_str(percent_encode_byte(b))?;
                i += 1;
            }
            run = i;
            match bytes[i..].iter().position(needs) {
                Some(next) => i += next,
                None => break,
            }
        }
        if run < bytes.len() {
            self.out.write_str(&s[run..])?;
        }
        Ok(())
    }
}

/// Which bytes [`Encoder::encode`] writes as triplets for `allow: U` (everything but the
/// unreserved characters, and every non-ASCII byte).
static ENCODE_U: [bool; 256] = encode_table(false);

/// The same for `allow: U+R` (everything but the unreserved and reserved characters, and every
/// non-ASCII byte); `%` is in it and handled apart.
static ENCODE_U_R: [bool; 256] = encode_table(true);

const fn encode_table(reserved: bool) -> [bool; 256] {
    let mut table = [true; 256];
    let mut b = 0;
    while b < 128 {
        let byte = b as u8;
        let unreserved = is_unreserved(byte);
        let reserved_char = is_reserved(byte);
        table[b] = !(unreserved || reserved && reserved_char);
        b += 1;
    }
    table
}

impl<W: Write + ?Sized> Write for Encoder<'_, W> {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        match self.limit {
            None => self.encode(s),
            Some(limit) => self.encode_prefix(s, limit),
        }
    }
}

/// The byte length of the first `limit` characters of `s`, and how many characters that is.
/// RFC 6570 section 2.4.1 counts the characters of the value before it is encoded, in every
/// operator: in reserved expansion the value `%41b` is the characters `%`, `4`, `1`, `b`, so
/// a prefix of two writes `%254` (the cut `%4` starts no triplet), never the triplet `%41`.
fn prefix_end(s: &str, limit: usize) -> (usize, usize) {
    let bytes = s.as_bytes();
    let (mut i, mut count) = (0, 0);
    while i < bytes.len() && count < limit {
        i += utf8_len(bytes[i]);
        count += 1;
    }
    (i, count)
}

fn utf8_len(lead: u8) -> usize {
    match lead {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

/// Writes text as it is; a one-byte string as a `char`, which writers take faster.
#[inline]
fn write_raw<W: Write + ?Sized>(out: &mut W, s: &str) -> fmt::Result {
    match s.as_bytes() {
        [] => Ok(()),
        &[b] if b.is_ascii() => out.write_char(char::from(b)),
        _ => out.write_str(s),
    }
}

/// Copies a literal, percent-encoding its non-ASCII characters (RFC 6570 §3.1). Triplets
/// already in the literal are valid (the grammar checked them) and are copied as they are.
#[inline]
pub(crate) fn write_literal<W: Write + ?Sized>(text: &str, out: &mut W) -> fmt::Result {
    if text.is_ascii() {
        return out.write_str(text);
    }
    utf8_percent_encode(text, CONTROLS).try_for_each(|chunk| out.write_str(chunk))
}

#[cfg(test)]
mod tests {
    use super::*;
    use percent_encoding::AsciiSet;

    /// Everything but the unreserved characters (ALPHA, DIGIT, `-`, `.`, `_`, `~`): the `allow: U`
    /// set of simple, label, path and query expansion.
    const UNRESERVED_ONLY: &AsciiSet = &CONTROLS
        .add(b' ')
        .add(b'!')
        .add(b'"')
        .add(b'#')
        .add(b'$')
        .add(b'%')
        .add(b'&')
        .add(b'\'')
        .add(b'(')
        .add(b')')
        .add(b'*')
        .add(b'+')
        .add(b',')
        .add(b'/')
        .add(b':')
        .add(b';')
        .add(b'<')
        .add(b'=')
        .add(b'>')
        .add(b'?')
        .add(b'@')
        .add(b'[')
        .add(b'\\')
        .add(b']')
        .add(b'^')
        .add(b'`')
        .add(b'{')
        .add(b'|')
        .add(b'}');

    /// The `allow: U+R` set of reserved and fragment expansion: reserved characters stay, and `%`
    /// is encoded here only when it does not start a triplet (see [`Encoder`]).
    const UNRESERVED_AND_RESERVED: &AsciiSet = &CONTROLS
        .add(b' ')
        .add(b'"')
        .add(b'%')
        .add(b'<')
        .add(b'>')
        .add(b'\\')
        .add(b'^')
        .add(b'`')
        .add(b'{')
        .add(b'|')
        .add(b'}');

    #[test]
    fn encode_tables_agree_with_the_ascii_sets() {
        for b in 0..=255u8 {
            let s = [b];
            let u = percent_encoding::percent_encode(&s, UNRESERVED_ONLY).to_string();
            let r = percent_encoding::percent_encode(&s, UNRESERVED_AND_RESERVED).to_string();
            assert_eq!(ENCODE_U[usize::from(b)], u.len() == 3, "U {b:#x}");
            assert_eq!(ENCODE_U_R[usize::from(b)], r.len() == 3, "U+R {b:#x}");
        }
    }

    #[test]
    fn encoder_writes_runs_and_triplets() {
        let enc = |s: &str, reserved: bool| {
            let mut out = String::new();
            Encoder::new(&mut out, reserved).encode(s).unwrap();
            out
        };
        assert_eq!(enc("Hello World!", false), "Hello%20World%21");
        assert_eq!(enc("Hello World!", true), "Hello%20World!");
        assert_eq!(enc("caf\u{e9} %41%4x%", true), "caf%C3%A9%20%41%254x%25");
        assert_eq!(enc("caf\u{e9} %41", false), "caf%C3%A9%20%2541");
        assert_eq!(enc("", false), "");
        assert_eq!(enc("plain", true), "plain");
    }

    #[test]
    fn prefixes_count_characters() {
        assert_eq!(prefix_end("abc", 2), (2, 2));
        assert_eq!(prefix_end("\u{e9}t\u{e9}", 2), (3, 2));
        assert_eq!(prefix_end("%C3%A9x", 1), (1, 1));
        assert_eq!(prefix_end("%41b", 2), (2, 2));
        assert_eq!(prefix_end("ab", 5), (2, 2));
    }
}
