//! The tests of the module's readings: units, triplets, the URI check, and finding bytes.

use super::*;

#[test]
fn units_fold_hex_case_and_raw_non_ascii() {
    assert_eq!(unit_at(b"%2f", 0), unit_at(b"%2F", 0));
    assert_eq!(unit_at(b"%66", 0).0, unit_at(b"f", 0).0);
    assert_eq!(unit_at(b"%7e", 0).0, unit_at(b"~", 0).0);
    assert_ne!(unit_at(b"%2F", 0).0, unit_at(b"/", 0).0);
    assert!(equivalent("%74oken", "token"));
    assert!(equivalent("a%2fb", "a%2Fb"));
    assert!(!equivalent("a%2Fb", "a/b"));
    assert!(!equivalent("tok", "token"));
    assert!(same_decoded("a%2Fb", "a/b") && same_decoded("%61", "a"));
    assert!(!same_decoded("ab", "a"));
    assert_eq!(find_unit("a%2Eb.c", b'.'), Some((1, 3)));
    assert_eq!(rfind_unit("a%2eb.c", b'.'), Some((5, 1)));
    assert_eq!(find_unit("a%2Cb", b','), None);
    let e_acute = "\u{e9}".as_bytes();
    assert_eq!(unit_at(e_acute, 0).0, unit_at(b"%C3", 0).0);
}

#[test]
fn text_ends_with_a_whole_character() {
    for (text, whole) in [
        ("", true),
        ("a", true),
        ("%41", true),
        ("%C3%A9", true),
        ("%C3", false),
        ("x%E2%82", false),
        ("%E2%82%AC", true),
        ("caf\u{e9}", true),
        ("%C3\u{e9}", true),
        ("%25ab", true),
    ] {
        assert_eq!(ends_char(text.as_bytes()), whole, "{text}");
    }
}

#[test]
fn checking_finds_the_first_fault() {
    let percent = |s: &str| check(s).map(|c| c.triplets);
    assert_eq!(percent("a%2Fb"), Ok(Triplets::Ascii));
    assert_eq!(percent("a%20b%2C"), Ok(Triplets::Inert));
    assert_eq!(percent("a%20b%2E"), Ok(Triplets::Unreserved));
    assert_eq!(percent("a%2Fb%C3%A9"), Ok(Triplets::Ascii));
    assert_eq!(percent("%C3%A9%20"), Ok(Triplets::TwoByte));
    assert_eq!(percent("%E2%80%A4%20"), Ok(Triplets::Some));
    assert_eq!(percent("a%2Fb%E2%80%A4"), Ok(Triplets::Some));
    assert_eq!(percent("%C3%A9%41"), Ok(Triplets::Unreserved));
    assert_eq!(percent("a%2F%41"), Ok(Triplets::Unreserved));
    assert_eq!(percent("a%41%2F"), Ok(Triplets::Unreserved));
    assert_eq!(percent("a/b"), Ok(Triplets::None));
    assert_eq!(check("a b"), Err(Fault::Disallowed(1)));
    assert_eq!(percent("caf\u{e9}/x!$&'()*+,;=:@[]?#"), Ok(Triplets::None));
    // Where the fragment starts: the first `#`, which a check reads past.
    let fragment = |s: &str| check(s).map(|c| c.fragment);
    assert_eq!(fragment("x://a/b"), Ok(None));
    assert_eq!(fragment("x://a#b#c"), Ok(Some(5)));
    assert_eq!(fragment("x://a#%ZZ"), Err(Fault::Percent(6)));
    assert_eq!(fragment("x://a#b c"), Err(Fault::Disallowed(7)));
    for bad in [
        b'\0', b'\x7F', b'"', b'<', b'>', b'\\', b'^', b'`', b'{', b'|', b'}',
    ] {
        let text = String::from_utf8(vec![b'a', bad]).unwrap();
        assert_eq!(check(&text), Err(Fault::Disallowed(1)), "{bad}");
        assert!(is_disallowed(bad));
    }
    // The first of two faults.
    assert_eq!(check("a%ZZ b"), Err(Fault::Percent(1)));
    assert_eq!(check("a b%ZZ"), Err(Fault::Disallowed(1)));
    assert_eq!(check("%2 "), Err(Fault::Percent(0)));
    for (text, at) in [
        ("", None),
        ("%", Some(0)),
        ("abcdefgh", None),
        ("abcdefgh%", Some(8)),
        ("abcdefg%ijklmnop%", Some(7)),
        ("a\u{e9}\u{25}", Some(3)),
        ("%%%%%%%%", Some(0)),
        ("abcdefg%", Some(7)),
        ("a%%bcdefghijklmnop", Some(1)),
        ("abcdefgh\u{1}%", Some(9)),
        ("\u{1}\u{1}%\u{1}\u{1}\u{1}\u{1}\u{1}", Some(2)),
    ] {
        assert_eq!(find_percent(text.as_bytes()), at, "{text}");
    }
    assert_eq!(check("a%2"), Err(Fault::Percent(1)));
    assert_eq!(check("%ZZ"), Err(Fault::Percent(0)));
    assert_eq!(check("%41%"), Err(Fault::Percent(3)));
}

#[test]
fn the_comparisons_of_a_block_read_bytes_as_the_table_does() {
    for b in 0..=255u8 {
        assert_eq!(
            is_plain(b),
            BYTES[usize::from(b)] == Byte::Plain,
            "{b:#04x}"
        );
    }
}

#[test]
fn a_byte_is_found_wherever_it_lies_in_a_word_or_the_last() {
    for len in 0..40 {
        for at in 0..len {
            let mut text = vec![b'a'; len];
            text[at] = b'&';
            assert_eq!(find_byte(&text, 0, b'&'), Some(at), "{len} {at}");
            for from in 0..=at {
                assert_eq!(find_byte(&text, from, b'&'), Some(at), "{len} {at} {from}");
            }
            assert_eq!(find_byte(&text, at + 1, b'&'), None, "{len} {at}");
            // A later one, and one of a byte that differs from it by a carry, change
            // nothing.
            text[len - 1] = b'&';
            if at + 1 < len {
                text[at + 1] = b'\'';
            }
            assert_eq!(find_byte(&text, 0, b'&'), Some(at), "{len} {at}");
        }
        assert_eq!(find_byte(&vec![b'%'; len], 0, b'&'), None, "{len}");
    }
}

#[test]
fn the_triplet_tables_read_each_pair_of_bytes_as_the_grammar_does() {
    for h in 0..=255u8 {
        assert_eq!(
            hex_value(h) < 16 && h.is_ascii_hexdigit(),
            h.is_ascii_hexdigit()
        );
        for l in 0..=255u8 {
            let text = [b'%', h, l];
            let expected = (h.is_ascii_hexdigit() && l.is_ascii_hexdigit()).then(|| {
                let byte = u8::from_str_radix(std::str::from_utf8(&text[1..]).unwrap(), 16);
                match byte.unwrap() {
                    b if is_unreserved(b) => Triplets::Unreserved,
                    0x80..=0xBF | 0xC2..=0xDF => Triplets::TwoByte,
                    b if b >= 0x80 => Triplets::Some,
                    b if is_inert(&[b]) => Triplets::Inert,
                    _ => Triplets::Ascii,
                }
            });
            let class = triplet_at(&text, 0).map(|b| TRIPLET_OF[usize::from(b)]);
            assert_eq!(class, expected, "{h} {l}");
        }
    }
    // What is known only grows.
    let of = |found: Triplets, text: &str| check_triplets(text).ok().map(|read| found.max(read));
    assert_eq!(of(Triplets::Some, "%20"), Some(Triplets::Some));
    assert_eq!(
        of(Triplets::Unreserved, "%C3%A9"),
        Some(Triplets::Unreserved)
    );
    assert_eq!(of(Triplets::Ascii, "%C3%A9"), Some(Triplets::Ascii));
    assert_eq!(of(Triplets::Ascii, "%E2"), Some(Triplets::Some));
    assert_eq!(of(Triplets::Inert, "%C3%A9"), Some(Triplets::TwoByte));
    assert_eq!(of(Triplets::TwoByte, "%2F"), Some(Triplets::Ascii));
    assert_eq!(of(Triplets::Inert, "%2F"), Some(Triplets::Ascii));
    assert_eq!(of(Triplets::Ascii, "%20"), Some(Triplets::Ascii));
    assert_eq!(of(Triplets::None, "%20"), Some(Triplets::Inert));
    assert_eq!(of(Triplets::Some, "%41"), Some(Triplets::Unreserved));
    assert_eq!(of(Triplets::None, "%4"), None);
}

#[test]
fn two_byte_characters_count_only_whole() {
    for (text, expected) in [
        ("caf%C3%A9", Triplets::TwoByte),
        ("%c3%a9%C2%A0x%20", Triplets::TwoByte),
        ("%C3%A9%2F", Triplets::Ascii),
        ("%C3", Triplets::Some),
        ("%A9", Triplets::Some),
        ("%C3%A9%A9", Triplets::Some),
        ("%C3%C3%A9", Triplets::Some),
        ("%C3x%A9", Triplets::Some),
        ("%C3%20", Triplets::Some),
        ("%C3\u{e9}", Triplets::Some),
        ("x%C3", Triplets::Some),
        ("%C3%A9%41", Triplets::Unreserved),
        ("%C3%41", Triplets::Unreserved),
    ] {
        assert_eq!(check_triplets(text), Ok(expected), "{text}");
        assert_eq!(check(text).map(|c| c.triplets), Ok(expected), "{text}");
    }
}

/// Where a text's triplets are of inert bytes and of bytes two-byte characters hold, they read
/// as [`Triplets::TwoByte`] exactly where the text decodes to UTF-8, which [`check_utf8`]
/// judges: every sequence of up to five such triplets, with raw bytes between some.
#[test]
fn whole_two_byte_characters_are_what_decodes() {
    let pieces = [
        "%C3", "%c2", "%DF", "%A9", "%80", "%bf", "%20", "a", "\u{e9}",
    ];
    for text in &concatenations(&pieces, 5) {
        let decodes = check_utf8(text.as_bytes()).is_ok();
        let triplets = check_triplets(text).unwrap();
        assert_eq!(triplets <= Triplets::TwoByte, decodes, "{text}");
        assert_eq!(check(text).unwrap().triplets, triplets, "{text}");
    }
}

/// Every text of at most `most` of `pieces` one after another, the empty one first and the
/// shorter before the longer: what the tests that try every short combination read.
pub(crate) fn concatenations(pieces: &[&str], most: usize) -> Vec<String> {
    let mut all = vec![String::new()];
    let mut level = vec![String::new()];
    for _ in 0..most {
        level = (level.iter())
            .flat_map(|text| pieces.iter().map(move |piece| format!("{text}{piece}")))
            .collect();
        all.extend(level.iter().cloned());
    }
    all
}

#[test]
fn checking_finds_a_fault_wherever_it_lies_in_a_block() {
    // Texts of under a block, one block up to two (read as two overlapping blocks), and
    // more.
    for len in [5, 15, 16, 17, 24, 31, 32, 33, 65] {
        let long = format!("x://{}", "x".repeat(len - 4));
        for at in 0..long.len() {
            let mut text = long.clone();
            text.replace_range(at..=at, " ");
            assert_eq!(check(&text), Err(Fault::Disallowed(at)), "{text}");
            text.replace_range(at..=at, "%");
            assert_eq!(check(&text), Err(Fault::Percent(at)), "{text}");
            text.replace_range(at..=at, "#");
            assert_eq!(check(&text).map(|c| c.fragment), Ok(Some(at)), "{text}");
        }
        assert_eq!(
            check(&long),
            Ok(Checked {
                triplets: Triplets::None,
                fragment: None
            })
        );
    }
}
