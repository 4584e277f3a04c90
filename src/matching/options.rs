//! [`MatchOptions`]: how one template matches a URI.

/// Options for [`UriTemplate::match_uri_with`](crate::UriTemplate::match_uri_with). Every setter takes and returns the options, so
/// they chain; [`RouterOptions`](crate::router::RouterOptions) has the same setters, with the
/// router's defaults.
///
/// ```
/// use rfc6570::matching::{MatchOptions, QueryError};
/// use rfc6570::{MatchError, UriTemplate};
///
/// let t = UriTemplate::parse("search://docs{?q}")?;
/// assert!(t.match_uri("search://docs?q=x&utm=y").is_ok());
/// let strict = MatchOptions::new().strict_query(true);
/// assert!(matches!(
///     t.match_uri_with("search://docs?q=x&utm=y", &strict),
///     Err(MatchError::Query(QueryError::UnexpectedParameter { .. }))
/// ));
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchOptions {
    pub(crate) strict_query: bool,
    pub(crate) strict_encoding: bool,
    pub(crate) allow_empty_path_vars: bool,
    pub(crate) max_uri_len: usize,
    pub(crate) refuse_repeated_names: bool,
}

/// The default of [`MatchOptions::max_uri_len`]: 32 KiB.
const DEFAULT_MAX_URI_LEN: usize = 32 * 1024;

impl MatchOptions {
    /// The defaults: undeclared query parameters ignored, raw sub-delimiters accepted, empty
    /// path variables allowed, URIs up to 32 KiB.
    pub const DEFAULT: Self = Self {
        strict_query: false,
        strict_encoding: false,
        allow_empty_path_vars: true,
        max_uri_len: DEFAULT_MAX_URI_LEN,
        refuse_repeated_names: false,
    };

    /// The defaults, as [`DEFAULT`](Self::DEFAULT).
    ///
    /// ```
    /// # use rfc6570::matching::MatchOptions;
    /// assert_eq!(MatchOptions::new(), MatchOptions::default());
    /// ```
    pub const fn new() -> Self {
        Self::DEFAULT
    }

    /// Refuse query parameters the template does not declare
    /// ([`QueryError::UnexpectedParameter`](super::QueryError::UnexpectedParameter)). Default: `false`, they are ignored.
    ///
    /// ```
    /// # use rfc6570::{UriTemplate, matching::MatchOptions};
    /// let t = UriTemplate::parse("x{?a}")?;
    /// let strict = MatchOptions::new().strict_query(true);
    /// assert!(t.match_uri_with("x?a=1&b=2", &strict).is_err());
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub const fn strict_query(mut self, strict: bool) -> Self {
        self.strict_query = strict;
        self
    }

    /// Accept in a value only what an expansion writes raw. By default a value of any
    /// operator also takes the sub-delimiters `! $ & ' ( ) * + , ; = : @` raw, as clients
    /// send them (`docs://a+b.txt`, `users://ada@example.com`), wherever its expression cannot
    /// use them as separators: `,` still separates variables and list items, `=` and `;`
    /// still structure `{;v}`, `&` and `=` a query. With `true`, `{v}` takes only unreserved
    /// characters and triplets, as expansion writes it. Default: `false`.
    ///
    /// ```
    /// # use rfc6570::{MatchError, UriTemplate, matching::MatchOptions};
    /// let t = UriTemplate::parse("docs://{name}")?;
    /// assert_eq!(t.match_uri("docs://report(1).pdf")?.get("name").unwrap().decoded(), "report(1).pdf");
    /// let strict = MatchOptions::new().strict_encoding(true);
    /// assert_eq!(t.match_uri_with("docs://report(1).pdf", &strict).unwrap_err(), MatchError::NoMatch);
    /// assert!(t.match_uri_with("docs://report%281%29.pdf", &strict).is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn strict_encoding(mut self, strict: bool) -> Self {
        self.strict_encoding = strict;
        self
    }

    /// Let variables outside query expressions be empty or absent, so that `users:///profile`
    /// matches `users://{id}/profile`. Default: `true` here, as expansion allows it;
    /// `false` for a router.
    ///
    /// ```
    /// # use rfc6570::{MatchError, UriTemplate, matching::MatchOptions};
    /// let t = UriTemplate::parse("users://{id}/profile")?;
    /// assert!(t.match_uri("users:///profile").is_ok());
    /// let required = MatchOptions::new().allow_empty_path_vars(false);
    /// assert_eq!(t.match_uri_with("users:///profile", &required).unwrap_err(), MatchError::NoMatch);
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub const fn allow_empty_path_vars(mut self, allow: bool) -> Self {
        self.allow_empty_path_vars = allow;
        self
    }

    /// Refuse templates that use a name more than once, as the Python MCP SDK does, rather
    /// than match them where the occurrences agree (the [semantics](crate::semantics),
    /// section 15). Such a template is then
    /// [`Unsupported::Shape`](super::Unsupported::Shape) with
    /// [`LintKind::RepeatedName`](crate::template::LintKind::RepeatedName) at the second
    /// occurrence. Default: `false`.
    ///
    /// ```
    /// # use rfc6570::{MatchError, UriTemplate, matching::{MatchOptions, Unsupported}};
    /// # use rfc6570::template::LintKind;
    /// let t = UriTemplate::parse("dict://{term:1}/{term}")?;
    /// assert_eq!(t.match_uri("dict://c/cat")?.get("term").unwrap().decoded(), "cat");
    /// let strict = MatchOptions::new().refuse_repeated_names(true);
    /// assert_eq!(
    ///     t.match_uri_with("dict://c/cat", &strict).unwrap_err(),
    ///     MatchError::Unsupported(Unsupported::Shape { kind: LintKind::RepeatedName, position: 17 })
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn refuse_repeated_names(mut self, refuse: bool) -> Self {
        self.refuse_repeated_names = refuse;
        self
    }

    /// The longest URI accepted, in bytes; a longer one is
    /// [`Malformed::TooLong`](super::Malformed::TooLong). Default:
    /// 32 KiB, chosen for resource identifiers: four times the 8,000 octets RFC 9110 asks
    /// every HTTP recipient to support, half the 64 KiB the Python MCP SDK accepts, and short
    /// enough that the costliest accepted template answers in well under a millisecond (the
    /// repository's `benches/RESULTS.md` measures it). Whatever it is set to, URIs of 4 GiB or more
    /// are refused: spans are kept as 32-bit offsets.
    ///
    /// ```
    /// # use rfc6570::{MatchError, UriTemplate, matching::{Malformed, MatchOptions}};
    /// let t = UriTemplate::parse("notes://{id}")?;
    /// let short = MatchOptions::new().max_uri_len(10);
    /// assert!(matches!(
    ///     t.match_uri_with("notes://12345", &short),
    ///     Err(MatchError::Malformed { reason: Malformed::TooLong { limit: 10 }, .. })
    /// ));
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub const fn max_uri_len(mut self, max: usize) -> Self {
        self.max_uri_len = max;
        self
    }
}

impl Default for MatchOptions {
    fn default() -> Self {
        Self::DEFAULT
    }
}
