//! The one error type for parsing and expanding templates.
//!
//! Every [`Error`] carries an [`ErrorKind`] to match on, the byte offset in the template where the
//! problem is (when there is one), and the template text, so that its `Display` can quote the
//! template and point at the offset. Parse errors and expansion errors are told apart by
//! [`Error::is_parse`] and [`Error::is_expansion`].

use std::fmt;

/// What went wrong while parsing or expanding a template.
///
/// ```
/// use rfc6570::{ErrorKind, UriTemplate};
///
/// let err = UriTemplate::parse("{x..y}").unwrap_err();
/// assert_eq!(err.kind(), &ErrorKind::InvalidVarName);
/// assert_eq!(err.position(), Some(2));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    // --- parse errors ---
    /// A character that RFC 6570 does not allow in a literal (space, `"`, `<`, `>`, `\`, `^`,
    /// `` ` ``, `|`, a control character, a lone `}`). (`'` is allowed, as the official test
    /// suite expects, although the RFC's grammar leaves it out.)
    InvalidLiteral,
    /// A `%` that is not followed by two hexadecimal digits.
    InvalidPercentEncoding,
    /// An expression opened with `{` that is never closed.
    UnclosedExpression,
    /// An operator reserved by RFC 6570 for future extensions: `=`, `,`, `!`, `@` or `|`.
    ReservedOperator(char),
    /// A variable name that is empty or has characters other than ALPHA, DIGIT, `_`,
    /// percent-triplets and single dots between them.
    InvalidVarName,
    /// A prefix modifier that is not a number from 1 to 9999 without leading zeros.
    InvalidPrefix,
    /// A character that cannot appear at this point of an expression.
    UnexpectedCharacter(char),
    /// A variable with both a prefix and an explode modifier (`{x*:3}`, `{x:3*}`): RFC 6570
    /// allows one modifier per variable.
    PrefixAndExplode,
    /// The template is longer than [`Limits::max_template_len`](crate::template::Limits) bytes.
    TemplateTooLong {
        /// The limit in force.
        limit: usize,
    },
    /// The template has more than [`Limits::max_expressions`](crate::template::Limits) expressions.
    TooManyExpressions {
        /// The limit in force.
        limit: usize,
    },

    // --- expansion errors ---
    /// A prefix modifier (`{var:3}`) applied to a list or an associative array, which RFC 6570
    /// §2.4.1 does not allow.
    PrefixOnComposite {
        /// The variable's name.
        var: String,
    },
    /// A list item or map value that is itself a list or a map: RFC 6570 values are one level
    /// deep.
    NestedComposite {
        /// The variable's name.
        var: String,
    },
    /// The output writer reported an error.
    Write,
    /// The value given to
    /// [`UriTemplate::expand_serialized`](crate::UriTemplate::expand_serialized) could not be
    /// made into variables: it is not a struct or a map, a map key is not one that can be
    /// stringified, or its `Serialize` failed.
    Serialize {
        /// What went wrong and where, as the
        /// [`SerializeError`](crate::vars::SerializeError) said it.
        message: String,
    },
}

impl ErrorKind {
    /// A stable `snake_case` name for logs and machine-readable output.
    ///
    /// ```
    /// use rfc6570::{ErrorKind, UriTemplate};
    ///
    /// let err = UriTemplate::parse("{x..y}").unwrap_err();
    /// assert_eq!(err.kind().code(), "invalid_var_name");
    /// ```
    pub fn code(&self) -> &'static str {
        match self {
            Self::InvalidLiteral => "invalid_literal",
            Self::InvalidPercentEncoding => "invalid_percent_encoding",
            Self::UnclosedExpression => "unclosed_expression",
            Self::ReservedOperator(_) => "reserved_operator",
            Self::InvalidVarName => "invalid_var_name",
            Self::InvalidPrefix => "invalid_prefix",
            Self::UnexpectedCharacter(_) => "unexpected_character",
            Self::PrefixAndExplode => "prefix_and_explode",
            Self::TemplateTooLong { .. } => "template_too_long",
            Self::TooManyExpressions { .. } => "too_many_expressions",
            Self::PrefixOnComposite { .. } => "prefix_on_composite",
            Self::NestedComposite { .. } => "nested_composite",
            Self::Write => "write",
            Self::Serialize { .. } => "serialize",
        }
    }

    fn is_expansion(&self) -> bool {
        matches!(
            self,
            Self::PrefixOnComposite { .. }
                | Self::NestedComposite { .. }
                | Self::Write
                | Self::Serialize { .. }
        )
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidLiteral => f.write_str("character not allowed in a literal"),
            Self::InvalidPercentEncoding => f.write_str("`%` not followed by two hex digits"),
            Self::UnclosedExpression => f.write_str("expression is not closed with `}`"),
            Self::ReservedOperator(c) => write!(f, "operator `{c}` is reserved by RFC 6570"),
            Self::InvalidVarName => f.write_str("invalid variable name"),
            Self::InvalidPrefix => f.write_str("prefix must be a number from 1 to 9999"),
            Self::UnexpectedCharacter(c) => write!(f, "unexpected character {c:?} in expression"),
            Self::PrefixAndExplode => f.write_str(
                "a variable cannot have both a prefix (`:N`) and an explode (`*`) modifier",
            ),
            Self::TemplateTooLong { limit } => write!(f, "template longer than {limit} bytes"),
            Self::TooManyExpressions { limit } => {
                write!(f, "template has more than {limit} expressions")
            }
            Self::PrefixOnComposite { var } => {
                write!(f, "prefix modifier on `{var}`, which is a list or map")
            }
            Self::NestedComposite { var } => {
                write!(f, "`{var}` holds a nested list or map")
            }
            Self::Write => f.write_str("the output writer failed"),
            Self::Serialize { message } => write!(f, "cannot serialize the variables: {message}"),
        }
    }
}

/// An error from parsing or expanding a template.
///
/// `Display` says what is wrong and where; the alternate form (`{:#}`) adds the template on a
/// line of its own with a caret under the offending byte:
///
/// ```
/// use rfc6570::UriTemplate;
///
/// let err = UriTemplate::parse("log://{job id}").unwrap_err();
/// assert_eq!(err.position(), Some(10));
/// assert_eq!(
///     err.to_string(),
///     "unexpected character ' ' in expression at byte 10 of \"log://{job id}\""
/// );
/// assert_eq!(
///     format!("{err:#}"),
///     "unexpected character ' ' in expression at byte 10\n  log://{job id}\n            ^"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct Error {
    kind: ErrorKind,
    position: Option<usize>,
    template: Box<str>,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, position: Option<usize>, template: &str) -> Self {
        Self {
            kind,
            position,
            template: template.into(),
        }
    }

    /// What went wrong.
    ///
    /// ```
    /// # use rfc6570::{ErrorKind, UriTemplate};
    /// let err = UriTemplate::parse("{!x}").unwrap_err();
    /// assert_eq!(err.kind(), &ErrorKind::ReservedOperator('!'));
    /// ```
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// The byte offset in the template where the problem is: the offending character for parse
    /// errors, the expression for expansion errors; `None` for template-wide limits, writer
    /// failures and values that could not be serialized.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// assert_eq!(UriTemplate::parse("a{b").unwrap_err().position(), Some(1));
    /// ```
    pub fn position(&self) -> Option<usize> {
        self.position
    }

    /// The template text the error is about.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// assert_eq!(UriTemplate::parse("a{b").unwrap_err().template(), "a{b");
    /// ```
    pub fn template(&self) -> &str {
        &self.template
    }

    /// Whether the template itself is invalid.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// assert!(UriTemplate::parse("{=x}").unwrap_err().is_parse());
    /// ```
    pub fn is_parse(&self) -> bool {
        !self.kind.is_expansion()
    }

    /// Whether the template is valid but the variables could not be expanded into it.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let t = UriTemplate::parse("{list:2}").unwrap();
    /// let err = t.expand(&[("list", vec!["a", "b"])]).unwrap_err();
    /// assert!(err.is_expansion());
    /// ```
    pub fn is_expansion(&self) -> bool {
        self.kind.is_expansion()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind)?;
        let quoted = Excerpt::of(&self.template, self.position);
        let Some(pos) = self.position else {
            return write!(f, " in {:?}", quoted.text);
        };
        if !f.alternate() {
            return write!(f, " at byte {pos} of {:?}", quoted.text);
        }
        write!(f, " at byte {pos}\n  {}\n  ", quoted.text)?;
        write!(f, "{:column$}^", "", column = quoted.column)
    }
}

/// The part of a template that an error quotes: all of it up to [`Excerpt::WHOLE`] characters;
/// of a longer one, the characters around the error's position (or the first ones), with `…`
/// where text is left out, so that a template of 100 KB is not written out whole.
struct Excerpt {
    text: String,
    /// The column, in characters, of the character at the error's position in `text`.
    column: usize,
}

impl Excerpt {
    /// The longest template quoted whole, in characters.
    const WHOLE: usize = 100;
    /// How many characters of a longer template are quoted on each side of the position.
    const SIDE: usize = 40;

    fn of(template: &str, position: Option<usize>) -> Self {
        // Columns count characters, not bytes.
        let column = |pos: usize| template.get(..pos).map_or(pos, |s| s.chars().count());
        let at = position.map_or(0, column);
        let total = template.chars().count();
        if total <= Self::WHOLE {
            return Self {
                text: template.to_owned(),
                column: at,
            };
        }
        let first = at.saturating_sub(Self::SIDE);
        let last = (at + Self::SIDE).min(total);
        let mut text = String::new();
        if first > 0 {
            text.push('\u{2026}');
        }
        text.extend(template.chars().skip(first).take(last - first));
        if last < total {
            text.push('\u{2026}');
        }
        Self {
            text,
            column: at - first + usize::from(first > 0),
        }
    }
}
