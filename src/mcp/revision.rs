//! [`Revision`]: the MCP protocol revision a peer negotiated, which every choice that differs
//! between revisions asks.

use std::fmt;
use std::str::FromStr;

use serde_json::json;

use super::jsonrpc::{INVALID_PARAMS, JsonRpcError, RESOURCE_NOT_FOUND};

/// An MCP protocol revision, as the date string client and server negotiate (`2025-11-25`).
///
/// Revisions compare as dates, so a revision this crate does not know, dated later than every
/// one it knows, behaves as the newest it knows: each choice below is "from this revision
/// on". Parse a peer's version with [`FromStr`]; a version that is not a date (a draft's
/// name) is an error there, and [`Revision::of_peer`] reads it as the newest known revision.
///
/// ```
/// use rfc6570::mcp::Revision;
///
/// let r: Revision = "2025-11-25".parse()?;
/// assert_eq!(r, Revision::V2025_11_25);
/// assert_eq!(r.to_string(), "2025-11-25");
/// assert!(r < Revision::V2026_07_28);
/// assert_eq!(r.resource_not_found_code(), -32002);
///
/// // A later revision than any known is newer than every known one.
/// let future: Revision = "2027-03-01".parse()?;
/// assert!(future > Revision::LATEST);
/// assert_eq!(future.resource_not_found_code(), -32602);
/// assert_eq!(Revision::of_peer("DRAFT-2027-v1"), Revision::LATEST);
/// # Ok::<(), rfc6570::mcp::RevisionError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Revision {
    year: u16,
    month: u8,
    day: u8,
}

impl Revision {
    /// The first revision, 2024-11-05.
    pub const V2024_11_05: Self = Self::date(2024, 11, 5);
    /// 2025-03-26.
    pub const V2025_03_26: Self = Self::date(2025, 3, 26);
    /// 2025-06-18.
    pub const V2025_06_18: Self = Self::date(2025, 6, 18);
    /// 2025-11-25.
    pub const V2025_11_25: Self = Self::date(2025, 11, 25);
    /// 2026-07-28: "resource not found" becomes invalid params (-32602), and lists carry
    /// cache hints.
    pub const V2026_07_28: Self = Self::date(2026, 7, 28);
    /// The newest revision this crate knows.
    pub const LATEST: Self = Self::V2026_07_28;
    /// Every revision this crate knows, oldest first.
    pub const KNOWN: [Self; 5] = [
        Self::V2024_11_05,
        Self::V2025_03_26,
        Self::V2025_06_18,
        Self::V2025_11_25,
        Self::V2026_07_28,
    ];

    const fn date(year: u16, month: u8, day: u8) -> Self {
        Self { year, month, day }
    }

    /// The revision of a peer's version string: the date it is, or, for a version that is
    /// not a date (a draft's name), the newest revision this crate knows.
    ///
    /// ```
    /// use rfc6570::mcp::Revision;
    ///
    /// assert_eq!(Revision::of_peer("2025-06-18"), Revision::V2025_06_18);
    /// assert_eq!(Revision::of_peer("DRAFT-2026-v1"), Revision::LATEST);
    /// ```
    pub fn of_peer(version: &str) -> Self {
        version.parse().unwrap_or(Self::LATEST)
    }

    /// Whether this crate knows the revision.
    ///
    /// ```
    /// use rfc6570::mcp::Revision;
    ///
    /// assert!(Revision::V2025_11_25.is_known());
    /// assert!(!Revision::of_peer("2027-01-01").is_known());
    /// ```
    pub fn is_known(self) -> bool {
        Self::KNOWN.contains(&self)
    }

    /// The JSON-RPC code of "resource not found": invalid params (-32602) from 2026-07-28
    /// on, -32002 before.
    ///
    /// ```
    /// use rfc6570::mcp::Revision;
    ///
    /// assert_eq!(Revision::V2025_06_18.resource_not_found_code(), -32002);
    /// assert_eq!(Revision::V2026_07_28.resource_not_found_code(), -32602);
    /// ```
    pub fn resource_not_found_code(self) -> i32 {
        if self >= Self::V2026_07_28 {
            INVALID_PARAMS
        } else {
            RESOURCE_NOT_FOUND
        }
    }

    /// The MCP "resource not found" error for `uri` on this revision, with its
    /// [code](Self::resource_not_found_code) and `{"uri": uri}` as data.
    ///
    /// ```
    /// use rfc6570::mcp::Revision;
    /// use serde_json::json;
    ///
    /// let err = Revision::V2026_07_28.resource_not_found("notes://x");
    /// assert_eq!(
    ///     serde_json::to_value(&err)?,
    ///     json!({"code": -32602, "message": "Resource not found", "data": {"uri": "notes://x"}})
    /// );
    /// assert_eq!(Revision::V2025_06_18.resource_not_found("notes://x").code, -32002);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn resource_not_found(self, uri: &str) -> JsonRpcError {
        JsonRpcError::new(self.resource_not_found_code(), "Resource not found")
            .data(json!({ "uri": uri }))
    }

    /// Whether lists answered on this revision carry cache hints (`ttlMs`, `cacheScope`), from
    /// 2026-07-28 on.
    ///
    /// ```
    /// use rfc6570::mcp::Revision;
    ///
    /// assert!(Revision::V2026_07_28.has_cache_hints());
    /// assert!(!Revision::V2025_11_25.has_cache_hints());
    /// ```
    pub fn has_cache_hints(self) -> bool {
        self >= Self::V2026_07_28
    }
}

/// The newest revision this crate knows.
impl Default for Revision {
    fn default() -> Self {
        Self::LATEST
    }
}

impl fmt::Display for Revision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// A version string that is not a revision's date (`YYYY-MM-DD`).
///
/// ```
/// use rfc6570::mcp::Revision;
///
/// let err = "DRAFT-2026-v1".parse::<Revision>().unwrap_err();
/// assert_eq!(err.to_string(), "`DRAFT-2026-v1` is not an MCP revision's date (YYYY-MM-DD)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{version}` is not an MCP revision's date (YYYY-MM-DD)")]
pub struct RevisionError {
    version: String,
}

impl FromStr for Revision {
    type Err = RevisionError;

    /// Parses a date `YYYY-MM-DD`, month 1 to 12 and day 1 to 31.
    fn from_str(version: &str) -> Result<Self, RevisionError> {
        let error = || RevisionError {
            version: version.to_owned(),
        };
        let bytes = version.as_bytes();
        let digits = |range: std::ops::Range<usize>| -> Option<u16> {
            bytes[range].iter().try_fold(0u16, |n, &b| {
                b.is_ascii_digit().then(|| n * 10 + u16::from(b - b'0'))
            })
        };
        if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
            return Err(error());
        }
        let (year, month, day) = (digits(0..4), digits(5..7), digits(8..10));
        match (year, month, day) {
            (Some(year), Some(month @ 1..=12), Some(day @ 1..=31)) => {
                Ok(Self::date(year, month as u8, day as u8))
            }
            _ => Err(error()),
        }
    }
}

impl serde::Serialize for Revision {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Revision {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let version = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        version.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_parse_and_print_back() {
        for r in Revision::KNOWN {
            assert_eq!(r.to_string().parse::<Revision>(), Ok(r));
        }
        for bad in [
            "",
            "2025-1-25",
            "2025-13-01",
            "2025-00-10",
            "2025-01-32",
            "2025/01/01",
            "２０２５-01-01",
        ] {
            assert!(bad.parse::<Revision>().is_err(), "{bad}");
        }
    }

    #[test]
    fn revisions_order_as_dates() {
        assert!(Revision::KNOWN.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(Revision::KNOWN.last(), Some(&Revision::LATEST));
        let between: Revision = "2026-07-27".parse().unwrap();
        assert!(Revision::V2025_11_25 < between && between < Revision::V2026_07_28);
        assert_eq!(between.resource_not_found_code(), -32002);
    }
}
