//! What RFC 3986 says of a URI's parts, where matching reads it: the scheme and the authority,
//! whose letters compare without case (section 6.2.2.1), and the fragment, which is the
//! client's and not the resource's (section 3.5). Plain byte scans over text, for URIs and for
//! a template's literal text alike.

/// The length of the scheme that `text` starts with (`ALPHA *( ALPHA / DIGIT / "+" / "-" /
/// "." )`, RFC 3986 section 3.1), if a `:` ends it: `Some(5)` for `notes://host`, `None` for
/// `users/{id}` or `{scheme}:x`.
pub(crate) fn scheme_len(text: &[u8]) -> Option<usize> {
    let first = *text.first()?;
    if !first.is_ascii_alphabetic() {
        return None;
    }
    let len = text
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))?;
    (text[len] == b':').then_some(len)
}

/// Whether `b` ends an authority: the first `/`, `?` or `#` after the `//` does.
pub(crate) fn ends_authority(b: u8) -> bool {
    matches!(b, b'/' | b'?' | b'#')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scheme_is_letters_then_letters_digits_and_plus_minus_dot_before_a_colon() {
        assert_eq!(scheme_len(b"notes://host"), Some(5));
        assert_eq!(scheme_len(b"web+cal.v-2:x"), Some(11));
        assert_eq!(scheme_len(b"urn:isbn:1"), Some(3));
        for text in ["users/{id}", "/x", "2x:y", "{s}:x", "", "x", "a b:c"] {
            assert_eq!(scheme_len(text.as_bytes()), None, "{text}");
        }
    }
}
