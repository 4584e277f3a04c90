//! Static templates by their text: a URI that spells one exactly is its match, found by one
//! probe of a small open-addressed table, before any walk or automaton.
//!
//! A template without variables that a URI spells byte for byte is the best match there is:
//! every other template that matches it reads a variable where this one has a literal, and a
//! literal wins at the first byte where two candidates differ. So the answer of the table is
//! the answer the search would give, without the search. Only texts that need no
//! normalization go in (ASCII, no `%`, the scheme and authority in lowercase, as a URI without
//! uppercase letters there spells them) and that hold no fault a URI check would report; a URI
//! the table does not know goes on to the search as before.
//!
//! Most URIs are not static: a mask of the texts' lengths turns most of them away before their
//! bytes are read, and the rest cost one hash of two words and a probe of an empty slot.

use super::validate::validate_uri;
use super::word::pack_short;
use crate::template::Parsed;

/// Static templates by text, to their index among the templates a matcher was compiled from.
#[derive(Debug, Clone, Default)]
pub(super) struct Statics {
    /// Bit `n` (`n < 63`) is set if a text is `n` bytes long; bit 63 stands for every longer
    /// one.
    lengths: u64,
    /// A power of two of slots, a quarter of them full at most; empty without texts.
    slots: Box<[Slot]>,
    /// The texts, back to back.
    texts: Box<[u8]>,
}

#[derive(Debug, Clone, Copy)]
struct Slot {
    /// The text's [`Ends`], which are all of a text of 16 bytes or fewer.
    ends: Ends,
    /// The template's index, or [`EMPTY`].
    index: u32,
    /// Where its text lies in [`Statics::texts`].
    start: u32,
    len: u32,
}

/// A text's first and last eight bytes, packed little-endian (a text shorter than eight is
/// all in `first`, its first byte the most significant, and `last` is zero): what its hash
/// reads, and all that a short text's comparison needs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Ends {
    first: u64,
    last: u64,
}

impl Ends {
    #[inline]
    fn of(text: &[u8]) -> Self {
        match (text.first_chunk::<8>(), text.last_chunk::<8>()) {
            (Some(first), Some(last)) => Self {
                first: u64::from_le_bytes(*first),
                last: u64::from_le_bytes(*last),
            },
            // Big-endian: the last byte lowest, where the hash's multiplication mixes it into
            // every bit it keeps.
            _ => Self {
                first: (pack_short(text).swap_bytes())
                    .checked_shr(8 * (8 - text.len() as u32))
                    .unwrap_or(0),
                last: 0,
            },
        }
    }

    /// The slot where the probe for a text of `len` bytes with these ends starts, among `size`
    /// (a power of two, at least 4).
    #[inline]
    fn slot(self, len: usize, size: usize) -> usize {
        let hash = (self.first ^ self.last.rotate_left(31) ^ len as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        // The high bits are the best mixed.
        (hash >> (64 - size.trailing_zeros())) as usize
    }
}

/// [`Slot::index`] of an empty slot.
const EMPTY: u32 = u32::MAX;

impl Statics {
    /// The table of `templates` (by their index there) that are static and need no
    /// normalization, each by its text as a URI without uppercase letters in its scheme and
    /// authority spells it.
    pub(super) fn new<'t>(templates: impl IntoIterator<Item = (u32, &'t Parsed)>) -> Self {
        let mut entries: Vec<(u32, Box<str>)> = Vec::new();
        for (index, t) in templates {
            let text = t.as_str();
            if !t.is_static() || !text.is_ascii() || text.contains('%') {
                continue;
            }
            let text = caseless_key(t);
            if validate_uri(&text).is_ok() && u32::try_from(text.len()).is_ok() {
                entries.push((index, text));
            }
        }
        if entries.is_empty() {
            return Self::default();
        }
        let size = (4 * entries.len()).next_power_of_two();
        let mut slots = vec![
            Slot {
                ends: Ends::default(),
                index: EMPTY,
                start: 0,
                len: 0
            };
            size
        ];
        let mut texts = Vec::new();
        let mut lengths = 0;
        for (index, text) in &entries {
            lengths |= length_bit(text.len());
            let ends = Ends::of(text.as_bytes());
            let mut at = ends.slot(text.len(), size);
            while slots[at].index != EMPTY {
                at = (at + 1) & (size - 1);
            }
            slots[at] = Slot {
                ends,
                index: *index,
                start: texts.len() as u32,
                len: text.len() as u32,
            };
            texts.extend_from_slice(text.as_bytes());
        }
        Self {
            lengths,
            slots: slots.into(),
            texts: texts.into(),
        }
    }

    /// The index of the static template that `uri` spells, if one does.
    #[inline]
    pub(super) fn get(&self, uri: &str) -> Option<u32> {
        if self.lengths & length_bit(uri.len()) == 0 {
            return None;
        }
        self.probe(uri.as_bytes())
    }

    /// [`get`](Self::get) for a URI of a length some text has.
    #[inline(never)]
    fn probe(&self, uri: &[u8]) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let ends = Ends::of(uri);
        let mut at = ends.slot(uri.len(), self.slots.len());
        loop {
            let slot = &self.slots[at];
            if slot.index == EMPTY {
                return None;
            }
            if slot.ends == ends && slot.len as usize == uri.len() && self.middle_matches(slot, uri)
            {
                return Some(slot.index);
            }
            at = (at + 1) & mask;
        }
    }

    /// Whether the bytes between the [`Ends`] of `slot`'s text are those of `uri`, of the same
    /// length and ends: none for a text of 16 bytes or fewer.
    #[inline]
    fn middle_matches(&self, slot: &Slot, uri: &[u8]) -> bool {
        uri.len() <= 16 || self.long_middle_matches(slot, uri)
    }

    /// [`middle_matches`](Self::middle_matches) for a text longer than 16 bytes: out of line,
    /// so that the probe keeps to few registers.
    #[inline(never)]
    fn long_middle_matches(&self, slot: &Slot, uri: &[u8]) -> bool {
        let (start, len) = (slot.start as usize, uri.len());
        self.texts[start + 8..start + len - 8] == uri[8..len - 8]
    }
}

/// The bit of [`Statics::lengths`] for a text of `len` bytes.
#[inline]
fn length_bit(len: usize) -> u64 {
    1 << len.min(63)
}

/// A static template's text with its scheme and authority in lowercase, as a URI without
/// uppercase letters there must spell it.
fn caseless_key(t: &Parsed) -> Box<str> {
    let text = t.as_str();
    let end = crate::template::caseless_end(text, t.nodes());
    let mut key = text.to_owned();
    key[..end].make_ascii_lowercase();
    key.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of `texts`, each parsed, by its index there: the table keeps their texts.
    fn table(texts: &[&str]) -> Statics {
        let parsed: Vec<Parsed> = texts.iter().map(|t| Parsed::parse(t).unwrap()).collect();
        Statics::new(parsed.iter().enumerate().map(|(i, t)| (i as u32, t)))
    }

    /// Each static text is found, by its index; a URI that is a prefix, an extension, or the
    /// same length with one byte changed, is not; nor is a template with a variable.
    #[test]
    fn finds_the_static_text_a_uri_spells_and_nothing_else() {
        let statics = table(&[
            "/user",
            "/users",
            "/users/{id}",
            "/notifications",
            "/search/repositories",
            "/a",
            "x://Host.Example/Path",
        ]);
        assert_eq!(statics.get("/user"), Some(0));
        assert_eq!(statics.get("/users"), Some(1));
        assert_eq!(statics.get("/notifications"), Some(3));
        assert_eq!(statics.get("/search/repositories"), Some(4));
        assert_eq!(statics.get("/a"), Some(5));
        // The scheme and authority as a URI without uppercase letters spells them.
        assert_eq!(statics.get("x://host.example/Path"), Some(6));
        for miss in [
            "",
            "/use",
            "/userz",
            "/users/{id}",
            "/users/1",
            "/notificationz",
            "/search/repositorieS",
            "/b",
            "x://Host.Example/Path",
            "x://host.example/path",
        ] {
            assert_eq!(statics.get(miss), None, "{miss}");
        }
    }

    /// A text shorter than a word is all in its first end, at every length, the empty one
    /// among them; a URI one byte longer or shorter is none of them.
    #[test]
    fn finds_texts_of_every_length_under_a_word() {
        let texts = ["", "/", "/a", "/ab", "/abc", "/abcd", "/abcde", "/abcdef"];
        let statics = table(&texts);
        for (i, text) in texts.iter().enumerate() {
            assert_eq!(statics.get(text), Some(i as u32), "{text:?}");
        }
        for miss in ["/b", "/abd", "/abcdeg", "/abcdefg"] {
            assert_eq!(statics.get(miss), None, "{miss}");
        }
    }

    /// Texts that collide in their hash (same length, first and last eight bytes) are told
    /// apart by their bytes; a full table of them is probed to its end and back.
    #[test]
    fn colliding_texts_are_told_apart() {
        let texts: Vec<String> = (b'a'..=b'z')
            .map(|c| format!("/0123456{}89abcdef", c as char))
            .collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let statics = table(&refs);
        for (i, text) in texts.iter().enumerate() {
            assert_eq!(statics.get(text), Some(i as u32));
        }
        assert_eq!(statics.get("/0123456_89abcdef"), None);
    }

    /// Texts a URI would spell otherwise, or could not spell, are left to the search.
    #[test]
    fn leaves_out_what_needs_normalizing() {
        let statics = table(&["/caf%C3%A9", "/café", "/{x}"]);
        assert_eq!(statics.slots.len(), 0);
        assert_eq!(statics.get("/caf%C3%A9"), None);
    }
}
