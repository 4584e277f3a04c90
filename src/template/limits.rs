//! How large a template a parse accepts.

/// Limits applied when parsing a template; [`Limits::default`] documents the defaults.
///
/// ```
/// use rfc6570::{ErrorKind, UriTemplate};
/// use rfc6570::template::Limits;
///
/// let limits = Limits::default().max_expressions(2);
/// let err = UriTemplate::parse_with_limits("{a}{b}{c}", &limits).unwrap_err();
/// assert_eq!(err.kind(), &ErrorKind::TooManyExpressions { limit: 2 });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub(crate) max_template_len: usize,
    pub(crate) max_expressions: usize,
}

impl Limits {
    /// The default limits: 64 KiB templates with at most 1,024 expressions.
    pub const DEFAULT: Self = Self {
        max_template_len: 64 * 1024,
        max_expressions: 1024,
    };

    /// The defaults, as [`DEFAULT`](Self::DEFAULT).
    ///
    /// ```
    /// # use rfc6570::template::Limits;
    /// assert_eq!(Limits::new(), Limits::default());
    /// ```
    pub const fn new() -> Self {
        Self::DEFAULT
    }

    /// The longest template accepted, in bytes; a longer one is
    /// [`ErrorKind::TemplateTooLong`](crate::ErrorKind::TemplateTooLong). Default: 65,536
    /// (64 KiB). Templates of 4 GiB or more are refused whatever it says: offsets are 32-bit.
    ///
    /// ```
    /// # use rfc6570::{template::Limits, UriTemplate};
    /// assert!(UriTemplate::parse_with_limits("{a}", &Limits::new().max_template_len(2)).is_err());
    /// ```
    pub const fn max_template_len(mut self, max: usize) -> Self {
        self.max_template_len = max;
        self
    }

    /// The most expressions a template may have; more is
    /// [`ErrorKind::TooManyExpressions`](crate::ErrorKind::TooManyExpressions). Default: 1,024.
    ///
    /// ```
    /// # use rfc6570::{template::Limits, UriTemplate};
    /// assert!(UriTemplate::parse_with_limits("{a}{b}", &Limits::new().max_expressions(1)).is_err());
    /// ```
    pub const fn max_expressions(mut self, max: usize) -> Self {
        self.max_expressions = max;
        self
    }
}

impl Default for Limits {
    fn default() -> Self {
        Self::DEFAULT
    }
}
