//! The safety rules' tests: hand-picked values, and the one-pass readings against a
//! plain reference.

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

/// The rules as they read plainly, over a decoded string: the reference that the
/// one-pass reading ([`Findings`], [`Folded`]) must agree with.
mod reference {
    use super::super::{LOOK_ALIKES, Rule, SafetyPolicy, is_absolute, starts_with_drive};

    pub(super) fn check(policy: SafetyPolicy, value: &str, single: bool) -> Result<(), Rule> {
        let policy = if single {
            policy
        } else {
            policy.allow(Rule::SeparatorInSegment)
        };
        check_text(policy, value)?;
        let suspect = value
            .chars()
            .any(|c| LOOK_ALIKES.iter().any(|&(l, _)| l == c));
        if policy.enforces(Rule::LookAlike) && suspect {
            let folded: String = value
                .chars()
                .map(|c| match LOOK_ALIKES.iter().find(|&&(l, _)| l == c) {
                    Some((_, form)) => (*form).to_owned(),
                    None => c.to_string(),
                })
                .collect();
            let lenient = policy
                .allow(Rule::ControlCharacter)
                .allow(Rule::DoubleEncoding);
            check_text(lenient, &folded).map_err(|_| Rule::LookAlike)?;
        }
        Ok(())
    }

    fn check_text(policy: SafetyPolicy, value: &str) -> Result<(), Rule> {
        let bytes = value.as_bytes();
        let segments: Vec<&[u8]> = bytes.split(|&b| b == b'/' || b == b'\\').collect();
        let broken = [
            (
                Rule::ControlCharacter,
                bytes.iter().any(|&b| b < 0x20 || b == 0x7F),
            ),
            (Rule::DotDotSegment, segments.iter().any(|s| *s == b"..")),
            (
                Rule::AbsolutePath,
                is_absolute(value) || segments.iter().any(|s| starts_with_drive(s)),
            ),
            (Rule::SeparatorInSegment, segments.len() > 1),
            (
                Rule::DoubleEncoding,
                (0..bytes.len()).any(|i| crate::pct::is_triplet(&bytes[i..])),
            ),
        ];
        match broken.iter().find(|&&(r, hit)| hit && policy.enforces(r)) {
            Some(&(rule, _)) => Err(rule),
            None => Ok(()),
        }
    }
}

#[cfg(feature = "proptest")]
mod agrees_with_the_reference {
    use proptest::prelude::*;

    use super::super::{Rule, SafetyPolicy};
    use super::reference;
    use crate::testing::strategies::strings;

    /// Any subset of the rules.
    fn policies() -> impl Strategy<Value = SafetyPolicy> {
        prop::collection::vec(any::<bool>(), Rule::ALL.len()).prop_map(|on| {
            Rule::ALL.iter().zip(on).fold(
                SafetyPolicy::OFF,
                |p, (&r, on)| if on { p.deny(r) } else { p },
            )
        })
    }

    proptest! {
        /// The one-pass reading gives the rule the plain reading gives, on decoded text
        /// and on raw text decoded as it goes (the router's check).
        #[test]
        fn one_pass_rules_agree_with_the_plain_reading(
            raw in strings(),
            policy in policies(),
            single in any::<bool>(),
        ) {
            let decoded = crate::pct::decode(&raw);
            let expected = reference::check(policy, &decoded, single);
            prop_assert_eq!(policy.check(&decoded, single), expected, "decoded {:?}", decoded);
            let bytes = raw.as_bytes();
            let triplets = (0..bytes.len()).all(|i| {
                bytes[i] != b'%'
                    || bytes.get(i + 1..i + 3).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
            });
            if triplets && crate::pct::check_utf8(raw.as_bytes()).is_ok() {
                prop_assert_eq!(policy.check_raw(&raw, single), expected, "raw {:?}", raw);
            }
        }

        /// The same, densely, on raw text whose triplets decode to ASCII, the reading
        /// through triplets takes: made of what the rules look for, encoded or not.
        #[test]
        fn ascii_triplet_rules_agree_with_the_plain_reading(
            pieces in prop::collection::vec(prop::sample::select(vec![
                "a", ":", ".", "/", "\\", "%2E", "%2e", "%2F", "%5C", "%3A", "%01", "%7F",
                "%20", "%25", "%41", "%C3%A9", "\u{1}", "%E2%80%A4", "%2C", "%7b", "%3a", "%60",
            ]), 0..20),
            policy in policies(),
            single in any::<bool>(),
        ) {
            let raw = pieces.concat();
            let decoded = crate::pct::decode(&raw);
            let expected = reference::check(policy, &decoded, single);
            prop_assert_eq!(policy.check_raw(&raw, single), expected, "raw {:?}", raw);
        }

        /// The reading of text that holds nothing a rule reads but `.`, `/` and triplets of
        /// inert bytes (what the walk finds in most paths) gives the rule the full reading
        /// of the raw text gives.
        #[test]
        fn dots_and_slashes_rules_agree_with_the_raw_reading(
            pieces in prop::collection::vec(
                prop::sample::select(vec!["a", ".", "..", "/", "%20", "%2C", "-", "%C3%A9", "%DF%BF"]),
                0..16,
            ),
            policy in policies(),
            single in any::<bool>(),
        ) {
            let raw = pieces.concat();
            prop_assert_eq!(
                policy.check_dots_and_slashes(&raw, single),
                policy.check_raw(&raw, single),
                "{:?}", raw
            );
        }

        /// The same, densely, on the text that the reading by segments takes: ASCII
        /// without `%`, made of what the rules look for.
        #[test]
        fn segment_rules_agree_with_the_plain_reading(
            raw in "[a:./\\\\\x01\x7F]{0,40}",
            policy in policies(),
            single in any::<bool>(),
        ) {
            let expected = reference::check(policy, &raw, single);
            prop_assert_eq!(policy.check(&raw, single), expected, "{:?}", raw);
            prop_assert_eq!(policy.check_raw(&raw, single), expected, "{:?}", raw);
        }
    }
}

/// Raw text read as it stands where its triplets are of inert bytes (`%20`, `%2C`), and
/// decoded where one could be a dot, a letter, a `:` or a separator.
#[test]
fn raw_values_are_judged_by_what_their_triplets_decode_to() {
    let raw = |value: &str, single: bool| SafetyPolicy::STRICT.check_raw(value, single).err();
    for ok in [
        "a%20b",
        "docs/intro%20to%2Cx.md",
        "%20..x",
        "%7B%7D",
        "a%20:",
    ] {
        assert_eq!(raw(ok, false), None, "{ok}");
    }
    for (value, single, rule) in [
        ("%41:x", false, Rule::AbsolutePath),
        ("%61%3A", false, Rule::AbsolutePath),
        ("a/%2E%2E/b", false, Rule::DotDotSegment),
        ("%20/../b", false, Rule::DotDotSegment),
        ("a%2Fb", true, Rule::SeparatorInSegment),
        ("a%20b/c", true, Rule::SeparatorInSegment),
        ("%20%00", false, Rule::ControlCharacter),
        ("%20%2541", false, Rule::DoubleEncoding),
        ("%2F%20", false, Rule::AbsolutePath),
    ] {
        assert_eq!(raw(value, single), Some(rule), "{value}");
        let decoded = crate::pct::decode(value);
        assert_eq!(refused(&decoded, single), Some(rule), "{value} decoded");
    }
}

#[test]
fn benign_look_alikes_pass() {
    for ok in ["v1..v2", "...", "my file", "a.b", "\u{FF0E}x", "docs/a.md"] {
        assert_eq!(refused(ok, ok != "docs/a.md"), None, "{ok}");
    }
}

/// The walk and the router take a value whose triplets are of two-byte characters for one
/// no look-alike is in ([`crate::pct::Triplets::TwoByte`]): every look-alike is longer.
#[test]
fn no_look_alike_is_a_two_byte_character() {
    for (c, _) in super::LOOK_ALIKES {
        assert!(c.len_utf8() > 2, "{c:?}");
    }
}
