//! [`UriTemplate`]: a parsed template with the engines that serve it.
//!
//! It sits above the parsed form, expansion and the matching engine: it owns what the engine
//! compiles for it on first use, and gives each operation to the layer that does it.

use std::fmt::{self, Write};
use std::hash::{Hash, Hasher};
use std::str::FromStr;
use std::sync::OnceLock;

use crate::engine::{self, Matcher, Policy};
use crate::matching::{MatchOptions, Spans, Unsupported};
use crate::template::{Components, Expression, Limits, Lint, Parsed, VarSpec};
use crate::vars::Vars;
use crate::{Captures, Error, MatchError, expand};
#[cfg(feature = "serde")]
use crate::{ErrorKind, vars::Serialized};

/// A parsed, validated RFC 6570 URI template.
///
/// Parse with [`UriTemplate::parse`] (or `str::parse`, `TryFrom<&str>`), then expand it with
/// variables ([`expand`](Self::expand), [`expand_to`](Self::expand_to)) or match a concrete URI
/// back to its variables ([`match_uri`](Self::match_uri)). Two templates are equal when their
/// text is equal; `Display` writes the text back.
///
/// ```
/// use rfc6570::UriTemplate;
///
/// let t: UriTemplate = "search://docs{?q,lang}".parse()?;
/// assert_eq!(t.to_string(), "search://docs{?q,lang}");
/// assert_eq!(t.expand(&[("q", "uri templates")])?, "search://docs?q=uri%20templates");
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Clone)]
pub struct UriTemplate {
    parsed: Parsed,
    /// What the engine compiles for matching, one per [`Policy`] (see [`Policy::index`]),
    /// on first use, so that parsing stays at two allocations.
    matchers: [OnceLock<Result<Box<Matcher>, Unsupported>>; 4],
}

impl UriTemplate {
    /// Parses and validates a template with the default [`Limits`].
    ///
    /// The whole template is checked against the grammar of RFC 6570 §2; the error names the
    /// first problem and its byte offset.
    ///
    /// ```
    /// use rfc6570::{ErrorKind, UriTemplate};
    ///
    /// let t = UriTemplate::parse("log://build/{job_id}{?lines}")?;
    /// assert_eq!(t.as_str(), "log://build/{job_id}{?lines}");
    ///
    /// let err = UriTemplate::parse("{var:0}").unwrap_err();
    /// assert_eq!(err.kind(), &ErrorKind::InvalidPrefix);
    /// assert_eq!(err.position(), Some(5));
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn parse(template: &str) -> Result<Self, Error> {
        Self::parse_with_limits(template, &Limits::DEFAULT)
    }

    /// Parses a template with explicit [`Limits`].
    ///
    /// ```
    /// use rfc6570::{ErrorKind, UriTemplate};
    /// use rfc6570::template::Limits;
    ///
    /// let limits = Limits::default().max_template_len(8);
    /// let err = UriTemplate::parse_with_limits("file:///{+path}", &limits).unwrap_err();
    /// assert_eq!(err.kind(), &ErrorKind::TemplateTooLong { limit: 8 });
    /// ```
    pub fn parse_with_limits(template: &str, limits: &Limits) -> Result<Self, Error> {
        Ok(Self {
            parsed: Parsed::parse_with_limits(template, limits)?,
            matchers: Default::default(),
        })
    }

    /// The template's source text.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let t = UriTemplate::parse("file:///{+path}")?;
    /// assert_eq!(t.as_str(), "file:///{+path}");
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn as_str(&self) -> &str {
        self.parsed.as_str()
    }

    /// The template's parts in order: literal text and expressions.
    ///
    /// ```
    /// use rfc6570::UriTemplate;
    /// use rfc6570::template::Component;
    ///
    /// let t = UriTemplate::parse("log://build/{job_id}")?;
    /// let parts: Vec<String> = t
    ///     .components()
    ///     .map(|c| match c {
    ///         Component::Literal(text) => format!("literal {text}"),
    ///         Component::Expression(e) => format!("expression {}", e.as_str()),
    ///     })
    ///     .collect();
    /// assert_eq!(parts, ["literal log://build/", "expression {job_id}"]);
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn components(&self) -> Components<'_> {
        self.parsed.components()
    }

    /// The template's expressions in order.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let t = UriTemplate::parse("/a{/b}{?c,d}")?;
    /// assert_eq!(t.expressions().count(), 2);
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn expressions(&self) -> impl Iterator<Item = Expression<'_>> + '_ {
        self.parsed.expressions()
    }

    /// Every variable spec of the template, in order (a name used twice appears twice).
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let t = UriTemplate::parse("log://build/{job_id}{?lines}")?;
    /// let names: Vec<&str> = t.variables().map(|v| v.name()).collect();
    /// assert_eq!(names, ["job_id", "lines"]);
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn variables(&self) -> impl Iterator<Item = VarSpec<'_>> + '_ {
        self.parsed.variables()
    }

    /// Whether the template has no expressions, so that it stands for exactly one URI.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// assert!(UriTemplate::parse("config://app")?.is_static());
    /// assert!(!UriTemplate::parse("notes://{id}")?.is_static());
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn is_static(&self) -> bool {
        self.parsed.is_static()
    }

    /// The template's lints: shapes where more than one assignment of the variables expands
    /// to the same URI (adjacent variables, more than one variable that can cross `/`, a
    /// prefix variable next to another), and those that matching refuses outright (a repeated
    /// name, a query after the fragment, and the others the [semantics](crate::semantics)'
    /// section 9 lists), each once, in template order (by [`position`](Lint::position)).
    /// Empty for most templates.
    ///
    /// A lint whose kind [refuses](crate::template::LintKind::refuses) the template is the
    /// reason [`match_uri`](Self::match_uri) gives for refusing it (the first such lint);
    /// the others are warnings, which never change what the template matches: `match_uri`
    /// answers an ambiguous one by the semantics' rule. A router refuses templates with
    /// warnings too with [`RouterOptions::deny_lints`](crate::router::RouterOptions::deny_lints).
    /// They are computed on each call, as a `Vec` so that they can be counted and kept.
    ///
    /// ```
    /// use rfc6570::UriTemplate;
    /// use rfc6570::template::LintKind;
    ///
    /// let t = UriTemplate::parse("file:///{+path}{ext}")?;
    /// let lints = t.lints();
    /// assert_eq!(lints.len(), 1);
    /// assert_eq!((lints[0].kind(), lints[0].position()), (LintKind::AdjacentVariables, 16));
    /// assert!(lints[0].to_string().starts_with("`ext` at byte 16 follows `path`"));
    /// // Still matched, by the documented rule.
    /// assert_eq!(t.match_uri("file:///a.md")?.get("ext").unwrap().decoded(), "a.md");
    ///
    /// assert!(UriTemplate::parse("file:///{+path}")?.lints().is_empty());
    ///
    /// // A lint that refuses the template is why it cannot be matched.
    /// let t = UriTemplate::parse("x{&a}{?b}")?;
    /// assert_eq!(t.lints()[0].kind(), LintKind::QueryAfterQuery);
    /// assert!(t.lints()[0].kind().refuses());
    /// assert!(t.match_uri("x&a=1").is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn lints(&self) -> Vec<Lint> {
        self.parsed.lints()
    }

    /// The parsed form, which expansion and the matching engine read.
    #[inline]
    pub(crate) fn parsed(&self) -> &Parsed {
        &self.parsed
    }

    /// The template compiled for matching under `policy`, on first use.
    fn matcher(&self, policy: Policy) -> Result<&Matcher, Unsupported> {
        policy.admits(&self.parsed)?;
        self.matchers[policy.index()]
            .get_or_init(|| Matcher::one(&self.parsed, policy).map(Box::new))
            .as_ref()
            .map(|m| &**m)
            .map_err(|&e| e)
    }
}

impl UriTemplate {
    /// Expands the template with `vars` into a new `String`.
    ///
    /// Variables come from anything that implements [`Vars`]: a `serde_json::Value` object, a
    /// map, a slice of `(name, value)` pairs, [`Serialized`](crate::vars::Serialized) or your
    /// own type; a `#[derive(Serialize)]` struct expands directly with
    /// [`expand_serialized`](Self::expand_serialized). Strings are percent-encoded as the
    /// operator requires; numbers and booleans expand as their JSON text; undefined variables,
    /// `null`, and empty lists and maps are skipped (RFC 6570 §2.3).
    ///
    /// ```
    /// use rfc6570::UriTemplate;
    /// use serde_json::json;
    ///
    /// let t = UriTemplate::parse("log://build/{job_id}{?lines}")?;
    /// assert_eq!(t.expand(&json!({"job_id": 42, "lines": "10-20"}))?, "log://build/42?lines=10-20");
    /// assert_eq!(t.expand(&json!({"job_id": "a b"}))?, "log://build/a%20b");
    ///
    /// let t = UriTemplate::parse("{/path*}{?tags}")?;
    /// let vars = json!({"path": ["docs", "a b.md"], "tags": ["x", "y"]});
    /// assert_eq!(t.expand(&vars)?, "/docs/a%20b.md?tags=x,y");
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::PrefixOnComposite`](crate::ErrorKind::PrefixOnComposite) when a prefix modifier meets a list or map, and
    /// [`ErrorKind::NestedComposite`](crate::ErrorKind::NestedComposite) when a list or map holds another one; the error's position
    /// is the offending expression.
    pub fn expand<V: Vars + ?Sized>(&self, vars: &V) -> Result<String, Error> {
        let mut out = String::with_capacity(self.as_str().len() + 16);
        expand::expand(&self.parsed, vars, &mut out)?;
        Ok(out)
    }

    /// Expands the template into any [`fmt::Write`], such as a reused `String`.
    ///
    /// Writing into a buffer that already has room performs no heap allocation. On error the
    /// buffer holds whatever was written before the failing expression.
    ///
    /// ```
    /// use rfc6570::UriTemplate;
    /// use serde_json::json;
    ///
    /// let t = UriTemplate::parse("notes://{id}")?;
    /// let mut buf = String::with_capacity(64);
    /// for id in [1, 2] {
    ///     buf.clear();
    ///     t.expand_to(&json!({"id": id}), &mut buf)?;
    ///     assert_eq!(buf, format!("notes://{id}"));
    /// }
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`expand`](Self::expand), plus [`ErrorKind::Write`](crate::ErrorKind::Write) when the writer fails.
    pub fn expand_to<V, W>(&self, vars: &V, out: &mut W) -> Result<(), Error>
    where
        V: Vars + ?Sized,
        W: Write + ?Sized,
    {
        expand::expand(&self.parsed, vars, out)
    }

    /// Expands the template with the fields of any `Serialize` value, such as your own
    /// `#[derive(Serialize)]` struct, into a new `String` (feature `serde`).
    ///
    /// The value is serialized into [`Serialized`](crate::vars::Serialized) variables, without
    /// building JSON, and expands as its `serde_json::to_value` would. To expand the same value
    /// into several templates or into a reused buffer, make the `Serialized` once and pass it
    /// to [`expand`](Self::expand) or [`expand_to`](Self::expand_to).
    ///
    /// ```
    /// use rfc6570::UriTemplate;
    ///
    /// #[derive(serde::Serialize)]
    /// struct Search { q: String, lang: Option<String>, tags: Vec<String> }
    ///
    /// let t = UriTemplate::parse("search://docs{?q,lang,tags}")?;
    /// let s = Search { q: "café".into(), lang: None, tags: vec!["a".into(), "b".into()] };
    /// assert_eq!(t.expand_serialized(&s)?, "search://docs?q=caf%C3%A9&tags=a,b");
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`expand`](Self::expand), plus [`ErrorKind::Serialize`](crate::ErrorKind::Serialize),
    /// without a position, when the value is not a struct or a map, has a map key that cannot
    /// be stringified, or fails to serialize:
    ///
    /// ```
    /// use rfc6570::{ErrorKind, UriTemplate};
    ///
    /// let t = UriTemplate::parse("{x}")?;
    /// let err = t.expand_serialized(&["not", "a", "struct"]).unwrap_err();
    /// assert!(matches!(err.kind(), ErrorKind::Serialize { .. }));
    /// assert_eq!(err.position(), None);
    /// assert_eq!(
    ///     err.to_string(),
    ///     "cannot serialize the variables: the top level must be a struct or a map, not a tuple in \"{x}\""
    /// );
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    #[cfg(feature = "serde")]
    pub fn expand_serialized<T: serde::Serialize + ?Sized>(
        &self,
        value: &T,
    ) -> Result<String, Error> {
        let vars = Serialized::new(value).map_err(|e| {
            let message = e.to_string();
            Error::new(ErrorKind::Serialize { message }, None, self.as_str())
        })?;
        self.expand(&vars)
    }
}

impl UriTemplate {
    /// Matches a concrete URI against this template and returns the variables that produce it.
    ///
    /// The URI matches when some assignment of the template's variables expands to it; the
    /// captures are that assignment, each value percent-decoded exactly once when read, for
    /// every operator. URIs as clients write them match too: values may hold raw
    /// sub-delimiters where their expression does not use them as separators (a reading that
    /// an expansion writes wins), and literals compare under RFC 3986 normalization. Which
    /// assignment wins where several fit, how query parameters bind, what each operator may
    /// capture and the deliberate leniencies are the [semantics](crate::semantics). The match
    /// is linear in the URI's length, and allocates nothing for templates of up to 10
    /// variables once the thread's matcher cache is warm.
    ///
    /// ```
    /// use rfc6570::UriTemplate;
    ///
    /// let t = UriTemplate::parse("log://build/{job_id}{?lines,level}")?;
    /// let caps = t.match_uri("log://build/42?level=warn&lines=10-20")?;
    /// assert_eq!(caps.get("job_id").unwrap().decoded(), "42");
    ///
    /// let json = serde_json::to_value(&caps)?;
    /// assert_eq!(json, serde_json::json!({"job_id": "42", "lines": "10-20", "level": "warn"}));
    ///
    /// // `{+path}` keeps slashes but not the query.
    /// let t = UriTemplate::parse("file:///{+path}")?;
    /// assert_eq!(t.match_uri("file:///docs/a%20b.md")?.get("path").unwrap().decoded(), "docs/a b.md");
    /// assert_eq!(t.match_uri("file:///docs/a%2Bb.txt")?.get("path").unwrap().decoded(), "docs/a+b.txt");
    /// assert!(t.match_uri("file:///docs?x=1").is_err());
    ///
    /// // What clients send: a raw sub-delimiter, a triplet of an unreserved character.
    /// let t = UriTemplate::parse("docs://{name}")?;
    /// assert_eq!(t.match_uri("docs://report(1).pdf")?.get("name").unwrap().decoded(), "report(1).pdf");
    /// let t = UriTemplate::parse("x://users/profile/{id}")?;
    /// assert_eq!(t.match_uri("x://users/pro%66ile/7")?.get("id").unwrap().decoded(), "7");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// Matching alone judges no value: `file:///{+path}` reads `file:///..%2Fetc` back as
    /// `../etc`. A [`Router`](crate::Router) judges each value for path safety and refuses what
    /// a handler must not see (the [semantics](crate::semantics), section 7).
    ///
    /// # Errors
    ///
    /// [`MatchError::NoMatch`] when no assignment fits; [`MatchError::Malformed`] for bad
    /// percent-encoding, captured bytes that are not UTF-8, a character a URI may not hold
    /// (with its offset), or a URI over 32 KiB; [`MatchError::Query`] for a declared query
    /// parameter given twice; [`MatchError::DuplicateKey`] for a map that would hold a key
    /// twice; [`MatchError::Unsupported`] for a template whose shape cannot be matched
    /// correctly, with the reason.
    pub fn match_uri<'a>(&'a self, uri: &'a str) -> Result<Captures<'a>, MatchError> {
        self.match_uri_with(uri, &MatchOptions::DEFAULT)
    }

    /// [`match_uri`](Self::match_uri) with explicit [`MatchOptions`].
    ///
    /// ```
    /// use rfc6570::{MatchError, UriTemplate, matching::MatchOptions};
    ///
    /// let t = UriTemplate::parse("users://{id}/profile")?;
    /// let required = MatchOptions::new().allow_empty_path_vars(false);
    /// assert_eq!(t.match_uri_with("users:///profile", &required).unwrap_err(), MatchError::NoMatch);
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn match_uri_with<'a>(
        &'a self,
        uri: &'a str,
        options: &MatchOptions,
    ) -> Result<Captures<'a>, MatchError> {
        let limit = engine::limit(options.max_uri_len);
        let matcher = match self.matcher(Policy::of(options)) {
            Ok(matcher) => matcher,
            Err(reason) => {
                // The URI's own faults first, whatever the template: as a router reports them.
                engine::check_uri(uri, limit)?;
                return Err(MatchError::Unsupported(reason));
            }
        };
        let mut spans = Spans::new(matcher.width());
        let found = matcher
            .find(uri, limit, &mut spans, &self.parsed)?
            .ok_or(MatchError::NoMatch)?;
        found.finish(&self.parsed, uri, &mut spans, options.strict_query)?;
        Ok(Captures::new(&self.parsed, uri, spans))
    }
}

impl fmt::Debug for UriTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("UriTemplate").field(&self.as_str()).finish()
    }
}

impl fmt::Display for UriTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.parsed.as_str())
    }
}

impl PartialEq for UriTemplate {
    fn eq(&self, other: &Self) -> bool {
        self.parsed.as_str() == other.parsed.as_str()
    }
}

impl Eq for UriTemplate {}

impl Hash for UriTemplate {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.parsed.as_str().hash(state);
    }
}

impl PartialOrd for UriTemplate {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for UriTemplate {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.parsed.as_str().cmp(other.parsed.as_str())
    }
}

impl FromStr for UriTemplate {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        Self::parse(s)
    }
}

impl TryFrom<&str> for UriTemplate {
    type Error = Error;

    fn try_from(s: &str) -> Result<Self, Error> {
        Self::parse(s)
    }
}

impl AsRef<str> for UriTemplate {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for UriTemplate {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for UriTemplate {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = UriTemplate;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an RFC 6570 URI template")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<UriTemplate, E> {
                UriTemplate::parse(v).map_err(E::custom)
            }
        }
        d.deserialize_str(Visitor)
    }
}
