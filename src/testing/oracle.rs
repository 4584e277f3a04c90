//! What a URI's text says on its own, read from RFC 3986 and RFC 3629 rather than from the
//! matcher: normalization (§6.2.2), percent-decoding, the first fault of a text, and the shape
//! of a query.

use std::collections::BTreeMap;

use crate::matching::Malformed;

/// Whether `b` is unreserved (RFC 3986 §2.3).
pub(crate) fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~".contains(&b)
}

/// Whether an ASCII byte may appear raw in a URI: unreserved, reserved, or `%`.
fn is_uri_byte(b: u8) -> bool {
    is_unreserved(b) || b":/?#[]@!$&'()*+,;=%".contains(&b)
}

/// RFC 3986 §6.2.2 normalization: the hex digits of triplets upper-cased, and triplets of
/// unreserved characters decoded. URIs that differ only there are equivalent.
///
/// ```
/// use rfc6570::testing::normalize;
///
/// assert_eq!(normalize("a%2fb%7E%41"), "a%2Fb~A");
/// assert_eq!(normalize("%a\u{e9}bc%7e"), "%A\u{e9}bc~"); // a `%` without two hex digits is no triplet
/// ```
pub fn normalize(uri: &str) -> String {
    let mut out = String::with_capacity(uri.len());
    let mut rest = uri;
    while let Some(i) = rest.find('%') {
        out.push_str(&rest[..i]);
        // The `%` and up to two hex digits after it: nothing else is part of a triplet.
        let digits = rest[i + 1..]
            .bytes()
            .take(2)
            .take_while(u8::is_ascii_hexdigit)
            .count();
        let triplet = &rest[i..i + 1 + digits];
        match u8::from_str_radix(&triplet[1..], 16) {
            Ok(b) if digits == 2 && is_unreserved(b) => out.push(char::from(b)),
            _ => out.push_str(&triplet.to_ascii_uppercase()),
        }
        rest = &rest[i + triplet.len()..];
    }
    out.push_str(rest);
    out
}

/// The canonical form of URI text for comparing it unit by unit: [`normalize`]d, with every
/// non-ASCII character written as the upper-case triplets of its UTF-8 (the IRI form and the
/// URI form are equal, section 4 of the semantics).
pub(super) fn canonical(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            out.push_str(&super::pieces::encode_char(c, false));
        }
    }
    normalize(&out)
}

/// Percent-decodes `text` once, or says where and why it cannot be: a `%` that starts no
/// triplet, or triplets whose bytes are not UTF-8 (reported at the first triplet of the
/// character that fails, as RFC 3629 reads it: overlong forms, surrogates, stray
/// continuation bytes and code points past U+10FFFF all fail).
///
/// ```
/// use rfc6570::testing::decode;
/// use rfc6570::matching::Malformed;
///
/// assert_eq!(decode("..%2Fx"), Ok("../x".to_owned()));
/// assert_eq!(decode("a%C0%AE"), Err((1, Malformed::NotUtf8)));
/// assert_eq!(decode("100%"), Err((3, Malformed::InvalidPercentEncoding)));
/// ```
pub fn decode(text: &str) -> Result<String, (usize, Malformed)> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    // Where each decoded byte came from, to report the start of a bad character.
    let mut origin = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'%' {
            out.push(b[i]);
            origin.push(i);
            i += 1;
            continue;
        }
        let hex = b
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok());
        match hex.map(|h| (h, u8::from_str_radix(h, 16))) {
            Some((h, Ok(byte))) if h.bytes().all(|c| c.is_ascii_hexdigit()) => {
                out.push(byte);
                origin.push(i);
                i += 3;
            }
            _ => return Err((i, Malformed::InvalidPercentEncoding)),
        }
    }
    String::from_utf8(out).map_err(|e| (origin[e.utf8_error().valid_up_to()], Malformed::NotUtf8))
}

/// The first fault of `text` as a URI's characters: a byte a URI may not hold raw
/// ([`Malformed::Disallowed`]) or a `%` that starts no triplet, whichever comes first; then
/// triplets that do not decode to UTF-8. `None` when the text is well formed.
///
/// ```
/// use rfc6570::testing::fault;
/// use rfc6570::matching::Malformed;
///
/// assert_eq!(fault("a b"), Some((1, Malformed::Disallowed { byte: b' ' })));
/// assert_eq!(fault("caf\u{e9}%C3%A9"), None); // non-ASCII is the IRI form
/// ```
pub fn fault(text: &str) -> Option<(usize, Malformed)> {
    let disallowed = text
        .bytes()
        .position(|b| b.is_ascii() && !is_uri_byte(b))
        .map(|at| {
            (
                at,
                Malformed::Disallowed {
                    byte: text.as_bytes()[at],
                },
            )
        });
    match (decode(text), disallowed) {
        (Err((at, Malformed::InvalidPercentEncoding)), Some(d)) if d.0 < at => Some(d),
        (Err(bad @ (_, Malformed::InvalidPercentEncoding)), _) => Some(bad),
        (_, Some(d)) => Some(d),
        (Err(bad), None) => Some(bad),
        (Ok(_), None) => None,
    }
}

/// What section 4 of the semantics keeps of a query's text: its leading `?` or `&`, and for
/// each name, normalized, its values in order.
///
/// ```
/// use rfc6570::testing::query_shape;
///
/// assert_eq!(query_shape("?b=2&a=1"), query_shape("?a=1&%62=2"));
/// assert_ne!(query_shape("?a=1&a=2"), query_shape("?a=2&a=1"));
/// ```
pub fn query_shape(text: &str) -> (Option<char>, BTreeMap<String, Vec<String>>) {
    let text = normalize(text);
    let mut chars = text.chars();
    let lead = chars.next();
    let mut params: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for pair in chars.as_str().split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        params.entry(name.into()).or_default().push(value.into());
    }
    (lead, params)
}
