//! Texts packed in a machine word: up to eight bytes, little-endian, zero past the end, so
//! that one load and a masked comparison compare them, faster than `memcmp` or a byte loop
//! for short texts: a walk's prefixes, and the static templates' keys.

/// Up to eight bytes of `bytes` from `at`, packed little-endian, zero past the end: one load
/// where eight bytes are left, or where the text is eight bytes long at least.
#[inline]
pub(super) fn load(bytes: &[u8], at: usize) -> u64 {
    let len = bytes.len();
    if let Some(word) = bytes.get(at..at + 8) {
        return u64::from_le_bytes(word.try_into().expect("eight bytes"));
    }
    if at >= len {
        // At the end: where a URI's last variable ends, so in line.
        return 0;
    }
    if len >= 8 {
        // The last eight bytes, shifted so that the byte at `at` comes first.
        let last = u64::from_le_bytes(bytes[len - 8..].try_into().expect("eight bytes"));
        return last >> (8 * (at + 8 - len));
    }
    load_short(bytes, at)
}

/// [`load`] from a text shorter than eight bytes: every load of a URI that short, but such
/// URIs are few among those matched, so it is kept cold and out of the walk's loop.
#[cold]
#[inline(never)]
fn load_short(bytes: &[u8], at: usize) -> u64 {
    bytes.get(at..).map_or(0, pack_short)
}

/// `text`, of fewer than eight bytes, packed little-endian: two loads of the widest piece that
/// fits, from its start and from its end, which overlap where the text is shorter than both.
///
/// Inlined natively, where a static template's probe would pay for the call; one copy in
/// WebAssembly, where the npm package's size is the budget.
#[cfg_attr(not(target_arch = "wasm32"), inline)]
#[cfg_attr(target_arch = "wasm32", inline(never))]
pub(super) fn pack_short(text: &[u8]) -> u64 {
    debug_assert!(text.len() < 8, "a short text");
    let n = text.len();
    let (first, last, width): (u64, u64, usize) = match (text.first_chunk(), text.last_chunk()) {
        (Some(first), Some(last)) => (
            u32::from_le_bytes(*first).into(),
            u32::from_le_bytes(*last).into(),
            4,
        ),
        _ => match (text.first_chunk(), text.last_chunk()) {
            (Some(first), Some(last)) => (
                u16::from_le_bytes(*first).into(),
                u16::from_le_bytes(*last).into(),
                2,
            ),
            _ => return text.first().map_or(0, |&b| u64::from(b)),
        },
    };
    first | last << (8 * (n - width))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_packs_up_to_eight_bytes_and_zeroes_past_the_end() {
        let text = b"0123456789";
        assert_eq!(load(text, 0), u64::from_le_bytes(*b"01234567"));
        assert_eq!(load(text, 2), u64::from_le_bytes(*b"23456789"));
        assert_eq!(load(text, 7), u64::from_le_bytes(*b"789\0\0\0\0\0"));
        assert_eq!(load(text, 9), u64::from(b'9'));
        assert_eq!(load(text, 10), 0);
        assert_eq!(load(b"abc", 1), u64::from_le_bytes(*b"bc\0\0\0\0\0\0"));
        assert_eq!(load(b"abc", 3), 0);
        assert_eq!(load(b"", 0), 0);
    }

    /// A short text packs as its bytes, the first lowest, at every length and from every
    /// offset of a longer one.
    #[test]
    fn a_short_text_packs_byte_by_byte() {
        let text = b"\x01\x02\x83\x04\xF5\x06\x07";
        for start in 0..text.len() {
            for end in start..=text.len() {
                let part = &text[start..end];
                let expected = part
                    .iter()
                    .rev()
                    .fold(0, |word, &b| word << 8 | u64::from(b));
                assert_eq!(pack_short(part), expected, "{part:?}");
                assert_eq!(load(&text[..end], start), expected, "{part:?}");
            }
        }
    }
}
