//! How subscribed URIs compare: normalized for their percent-encoding ([`normalize`]), and
//! covering the resources that lie under them ([`covers`]).

/// A subscribed URI: as the client sent it, and normalized for comparison.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Subscribed {
    pub(super) normal: String,
    pub(super) sent: String,
}

impl Subscribed {
    pub(super) fn new(uri: &str) -> Self {
        Self {
            normal: normalize(uri),
            sent: uri.to_owned(),
        }
    }
}

/// `uri` with every triplet of an ASCII character decoded but those of `/`, `?`, `#` and `%`
/// (which would change its structure), and the others uppercased: two spellings of one resource
/// compare equal.
pub(super) fn normalize(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let triplet = bytes.get(i + 1..i + 3).and_then(|hex| {
            let hex = std::str::from_utf8(hex).ok()?;
            u8::from_str_radix(hex, 16).ok()
        });
        match (bytes[i], triplet) {
            (b'%', Some(byte)) if byte.is_ascii() && !b"/?#%".contains(&byte) => {
                out.push(byte);
                i += 3;
            }
            (b'%', Some(_)) => {
                out.extend_from_slice(&bytes[i..i + 3].to_ascii_uppercase());
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether a subscription to `subscribed` covers an update of `uri` (both normalized).
pub(super) fn covers(subscribed: &str, uri: &str) -> bool {
    if subscribed == uri {
        return true;
    }
    if subscribed.contains(['?', '#']) {
        return false;
    }
    match uri.strip_prefix(subscribed) {
        Some(rest) => subscribed.ends_with('/') || rest.starts_with('/'),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::{covers, normalize};

    fn covered(subscribed: &str, uri: &str) -> bool {
        covers(&normalize(subscribed), &normalize(uri))
    }

    #[test]
    fn a_subscription_covers_the_resources_under_it() {
        assert!(covered("file:///docs/a.md", "file:///docs/a.md"));
        assert!(covered("file:///docs", "file:///docs/a.md"));
        assert!(covered("file:///docs/", "file:///docs/a.md"));
        assert!(covered("file:///", "file:///docs/a.md"));
        assert!(!covered("file:///do", "file:///docs/a.md"));
        assert!(!covered("file:///docs/a.md", "file:///docs"));
        assert!(!covered("search://docs?q=a", "search://docs?q=a/b"));
        assert!(!covered("notes://a", "notes://a?x"));
    }

    #[test]
    fn spellings_of_one_resource_compare_equal() {
        assert!(covered("file:///docs/a+b.md", "file:///docs/a%2Bb.md"));
        assert!(covered("file:///docs/a%2emd", "file:///docs/a.md"));
        assert!(covered("file:///docs/%7euser", "file:///docs/~user"));
        // An encoded separator stays one: it is a different path.
        assert!(!covered("file:///docs", "file:///docs%2Fa.md"));
        assert_eq!(normalize("x://a%2fb%25"), "x://a%2Fb%25");
        assert_eq!(normalize("x://%"), "x://%");
        assert_eq!(normalize("x://%c3%a9"), "x://%C3%A9");
    }
}
