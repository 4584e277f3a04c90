//! The alphabet generated strings are made of: pieces chosen for what they do to a URI.
//!
//! Both generators draw from it: proptest picks a [`Piece`] and a seed, and so does a fuzzer's
//! `arbitrary` input, so that a string means the same in both. The classes follow RFC 3986 §2
//! (unreserved, the two reserved sets, percent-encoding) and RFC 6570 §2.1 (the non-ASCII
//! ranges a template literal may hold).

/// A kind of text a generated string is made of.
///
/// ```
/// use rfc6570::testing::Piece;
///
/// assert_eq!(Piece::Unreserved.text(0), "a");
/// assert_eq!(Piece::Triplet.text(0x2F), "%2F");
/// assert_eq!(Piece::ALL.len(), 9);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Piece {
    /// One to three unreserved characters: letters, digits, `-`, `.`, `_`, `~` (RFC 3986 §2.3).
    Unreserved,
    /// A general delimiter: `:` `/` `?` `#` `[` `]` `@`.
    GenDelim,
    /// A sub-delimiter: `!` `$` `&` `'` `(` `)` `*` `+` `,` `;` `=`.
    SubDelim,
    /// A `%XX` triplet of any byte, in either hex case: text that looks encoded.
    Triplet,
    /// The triplets of one non-ASCII character's UTF-8, in either hex case.
    CharTriplets,
    /// A `%` that starts no triplet: `%`, `%4`, `%G0`, `%%`.
    BrokenTriplet,
    /// A non-ASCII character: Latin, CJK, emoji, private use, and the fullwidth look-alikes of
    /// `.`, `/` and `\`.
    NonAscii,
    /// An ASCII character a URI may not hold raw: space, `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`,
    /// `|`, `}`, NUL, a line feed, DEL.
    Disallowed,
    /// A dot segment: `..` or `.`.
    Dots,
}

const UNRESERVED: &[u8] = b"abcxyzABZ019-._~";
const GEN_DELIMS: &[u8] = b":/?#[]@";
const SUB_DELIMS: &[u8] = b"!$&'()*+,;=";
const BROKEN: &[&str] = &["%", "%4", "%G0", "%%", "%z"];
const NON_ASCII: &[char] = &[
    '\u{E9}',
    '\u{FC}',
    '\u{3B1}',
    '\u{4E2D}',
    '\u{1F600}',
    '\u{E000}',
    '\u{10FFFD}',
    '\u{FF0E}',
    '\u{FF0F}',
    '\u{FF3C}',
    '\u{2024}',
    '\u{2025}',
    '\u{FFFD}',
    '\u{A0}',
];
const DISALLOWED: &[u8] = b" \"<>\\^`{|}\0\n\x7f";

impl Piece {
    /// Every piece, the simplest first: shrinking moves towards [`Piece::Unreserved`].
    ///
    /// ```
    /// # use rfc6570::testing::Piece;
    /// assert_eq!(Piece::ALL[0], Piece::Unreserved);
    /// assert!(Piece::ALL.iter().all(|p| !p.text(7).is_empty()));
    /// ```
    pub const ALL: &'static [Piece] = &[
        Piece::Unreserved,
        Piece::Dots,
        Piece::SubDelim,
        Piece::GenDelim,
        Piece::NonAscii,
        Piece::Triplet,
        Piece::CharTriplets,
        Piece::BrokenTriplet,
        Piece::Disallowed,
    ];

    /// The piece's text for `seed`: the same seed always gives the same text, and small seeds
    /// give the plainest ones.
    ///
    /// ```
    /// # use rfc6570::testing::Piece;
    /// assert_eq!(Piece::Triplet.text(0x1_2e), "%2e"); // bit 8 picks lower-case hex
    /// assert_eq!(Piece::CharTriplets.text(0), "%C3%A9");
    /// assert_eq!(Piece::Dots.text(0), "..");
    /// ```
    pub fn text(self, seed: u32) -> String {
        let pick = |table: &[u8]| char::from(table[seed as usize % table.len()]).to_string();
        match self {
            Self::Unreserved => {
                let len = 1 + (seed as usize / UNRESERVED.len()) % 3;
                (0..len)
                    .map(|i| UNRESERVED[(seed as usize + 5 * i) % UNRESERVED.len()])
                    .map(char::from)
                    .collect()
            }
            Self::GenDelim => pick(GEN_DELIMS),
            Self::SubDelim => pick(SUB_DELIMS),
            Self::Triplet => triplet(seed as u8, seed & 0x100 != 0),
            Self::CharTriplets => encode_char(
                NON_ASCII[seed as usize % NON_ASCII.len()],
                seed & 0x100 != 0,
            ),
            Self::BrokenTriplet => BROKEN[seed as usize % BROKEN.len()].to_owned(),
            Self::NonAscii => NON_ASCII[seed as usize % NON_ASCII.len()].to_string(),
            Self::Disallowed => pick(DISALLOWED),
            Self::Dots => if seed % 3 == 2 { "." } else { ".." }.to_owned(),
        }
    }
}

/// `%XX` for a byte, hex in the case asked for.
pub(crate) fn triplet(byte: u8, lower: bool) -> String {
    if lower {
        format!("%{byte:02x}")
    } else {
        format!("%{byte:02X}")
    }
}

/// The triplets of a character's UTF-8, hex in the case asked for.
pub(super) fn encode_char(c: char, lower: bool) -> String {
    let mut buf = [0; 4];
    c.encode_utf8(&mut buf)
        .bytes()
        .map(|b| triplet(b, lower))
        .collect()
}

/// A string made of pieces, each with its seed.
///
/// ```
/// use rfc6570::testing::{string_of, Piece};
///
/// assert_eq!(string_of(&[(Piece::Dots, 0), (Piece::GenDelim, 1), (Piece::Unreserved, 0)]), "../a");
/// ```
pub fn string_of(pieces: &[(Piece, u32)]) -> String {
    pieces
        .iter()
        .map(|&(piece, seed)| piece.text(seed))
        .collect()
}
