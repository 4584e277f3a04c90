//! A case: a template, values, the URI they expand to, and what matching and routing that URI
//! must give; and the checks that compare it with what the code under test did.

use std::fmt;

use super::layout::{Layout, Place};
use super::oracle::{decode, fault, normalize, query_shape};
use super::shape::{shape_template, shape_values};
use super::template::GenTemplate;
use super::value::{Value, Values};
use crate::matching::Malformed;
use crate::safety::{Rule, SafetyPolicy};
use crate::template::Operator;
use crate::{Captures, MatchError, RouteError, Routed, UriTemplate};

/// What matching or routing a case's URI must give.
///
/// ```
/// use rfc6570::testing::{Case, Expected, Value, Values};
/// use rfc6570::safety::Rule;
///
/// let t = rfc6570::UriTemplate::parse("file:///{+path}")?;
/// let case = Case::new(&t, Values::new().with("path", Value::text("../etc/passwd")))?;
/// assert_eq!(case.uri(), "file:///../etc/passwd");
/// assert!(matches!(case.expected_match(), Expected::Match { .. }));
/// assert_eq!(
///     case.expected_route(),
///     &Expected::Unsafe { variable: "path".into(), rule: Rule::DotDotSegment },
/// );
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Expected {
    /// A match of the case's template. The variables of `exact` come out with exactly these
    /// decoded values. With `round_trip`, expanding all the captures gives the URI back
    /// (up to normalization, and with the query read as pairs).
    Match {
        /// The values a handler must see.
        exact: Values,
        /// Whether the captures must expand back to the URI.
        round_trip: bool,
    },
    /// Refused for path safety: `variable` breaks `rule` (a router only).
    Unsafe {
        /// The variable refused.
        variable: String,
        /// The rule it breaks.
        rule: Rule,
    },
    /// A malformed URI, at this byte, for this reason.
    Malformed {
        /// The byte offset in the URI.
        position: usize,
        /// What is wrong there.
        reason: Malformed,
    },
    /// No match.
    NotFound,
    /// No claim on the outcome, for matching a URI whose reading the template does not pin:
    /// only that it is a result, not a panic.
    Any,
    /// Whatever the outcome, no value that breaks a rule of the default safety policy is
    /// delivered. The semantics pick one reading of such a URI by a rule of their own
    /// (section 1), which this crate does not second-guess.
    NeverUnsafe,
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Match { exact, .. } if exact.is_empty() => f.write_str("a match"),
            Self::Match { exact, .. } => write!(f, "a match with {exact}"),
            Self::Unsafe { variable, rule } => write!(f, "unsafe({variable}, {})", rule.code()),
            Self::Malformed { position, reason } => {
                write!(f, "malformed({}, at {position})", reason.code())
            }
            Self::NotFound => f.write_str("not found"),
            Self::Any => f.write_str("any outcome"),
            Self::NeverUnsafe => f.write_str("anything but an unsafe value"),
        }
    }
}

/// A template, values, the URI they expand to, and what matching ([`Case::expected_match`])
/// and a default router ([`Case::expected_route`]) must give for it.
///
/// The expectations come from expansion and from the rules, not from the matcher: a value is
/// expected back exactly where the template pins it (a template without lints, a string in a
/// variable that its expression delimits), and every match must expand back to the URI.
///
/// ```
/// use rfc6570::testing::{Case, Value, Values};
/// use rfc6570::{Router, UriTemplate};
///
/// let t = UriTemplate::parse("log://build/{job_id}{?lines}")?;
/// let values = Values::new().with("job_id", Value::text("a+b")).with("lines", Value::text("1-9"));
/// let case = Case::new(&t, values)?;
/// assert_eq!(case.uri(), "log://build/a%2Bb?lines=1-9");
///
/// let mut router = Router::new();
/// router.insert(t.as_str(), ())?;
/// case.check_route(&router.at(case.uri()))?;
/// case.check_match(&t.match_uri(case.uri()))?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Case {
    pub(crate) template: UriTemplate,
    pub(crate) values: Values,
    pub(crate) uri: String,
    pub(crate) matched: Expected,
    pub(crate) routed: Expected,
    pub(crate) note: Option<String>,
}

impl Case {
    /// Expands `values` into `template` and works out what a match and a default router must
    /// give. Fails only where expansion does (a list or map under a prefix).
    ///
    /// The expectations are exact for values in the round-trip domain, as [`shape_values`]
    /// makes them (and the strategies and builders generate them) and for a template
    /// [`shape_template`] leaves as it is. Other values (a `?` under `{+v}`, a triplet that is
    /// not UTF-8, a map key given twice) get the weak labels: no claim on matching, and
    /// [`Expected::NeverUnsafe`] for a router.
    ///
    /// [`shape_values`]: super::shape_values
    /// [`shape_template`]: super::shape_template
    ///
    /// ```
    /// use rfc6570::testing::{Case, Expected, Value, Values};
    ///
    /// let t = rfc6570::UriTemplate::parse("users://{id}/profile")?;
    /// let case = Case::new(&t, Values::new())?; // `id` undefined
    /// assert_eq!(case.uri(), "users:///profile");
    /// assert_eq!(case.expected_route(), &Expected::NotFound); // a router needs path variables
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn new(template: &UriTemplate, values: Values) -> Result<Self, crate::Error> {
        let uri = template.expand(&values)?;
        let layout = Layout::of(template);
        if !in_domain(template, &values, &uri) {
            return Ok(Self {
                template: template.clone(),
                values,
                uri,
                matched: Expected::Any,
                routed: Expected::NeverUnsafe,
                note: None,
            });
        }
        let (exact, pinned) = exact_values(&layout, &values);
        let matched = Expected::Match {
            round_trip: !passes_triplets(template, &values),
            exact: exact.clone(),
        };
        let routed = if pinned {
            route_expectation(&layout, &values, &exact, &matched)
        } else {
            // Another split of the path could put safe text together into an unsafe value.
            Expected::NeverUnsafe
        };
        Ok(Self {
            template: template.clone(),
            values,
            uri,
            matched,
            routed,
            note: None,
        })
    }

    /// The template.
    ///
    /// ```
    /// # use rfc6570::testing::{Case, Values};
    /// let t = rfc6570::UriTemplate::parse("x://{a}")?;
    /// assert_eq!(Case::new(&t, Values::new())?.template(), &t);
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn template(&self) -> &UriTemplate {
        &self.template
    }

    /// The values the URI was made from. For a hostile variant, the variable it is about holds
    /// the decoded text of its spelling, where there is one.
    ///
    /// ```
    /// # use rfc6570::testing::{Case, Value, Values};
    /// let t = rfc6570::UriTemplate::parse("x://{a}")?;
    /// let case = Case::new(&t, Values::new().with("a", Value::text("1")))?;
    /// assert_eq!(case.values().get("a"), Some(&Value::text("1")));
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn values(&self) -> &Values {
        &self.values
    }

    /// The URI.
    ///
    /// ```
    /// # use rfc6570::testing::{Case, Value, Values};
    /// let t = rfc6570::UriTemplate::parse("x://{a}")?;
    /// assert_eq!(Case::new(&t, Values::new().with("a", Value::text("é")))?.uri(), "x://%C3%A9");
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// What [`UriTemplate::match_uri`] must give: a match ([`Expected::Match`]) for an
    /// expansion, and for a hostile variant its label without the safety rules, which matching
    /// alone does not apply.
    ///
    /// ```
    /// # use rfc6570::testing::{Case, Expected, Value, Values};
    /// let t = rfc6570::UriTemplate::parse("x://{a}")?;
    /// let case = Case::new(&t, Values::new().with("a", Value::text("1")))?;
    /// assert!(matches!(case.expected_match(), Expected::Match { round_trip: true, .. }));
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn expected_match(&self) -> &Expected {
        &self.matched
    }

    /// What a router with default options and this case's template must give: the match's
    /// expectation, then the router's own rules (path variables present and non-empty, path
    /// safety, section 5 and 7 of the [semantics](crate::semantics)).
    ///
    /// ```
    /// # use rfc6570::testing::{Case, Expected, Value, Values};
    /// # use rfc6570::safety::Rule;
    /// let t = rfc6570::UriTemplate::parse("x://{a}")?;
    /// let case = Case::new(&t, Values::new().with("a", Value::text("..")))?;
    /// assert_eq!(case.expected_route(), &Expected::Unsafe { variable: "a".into(), rule: Rule::DotDotSegment });
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn expected_route(&self) -> &Expected {
        &self.routed
    }

    /// What the case is, when it was made for a reason (a hostile spelling's name).
    ///
    /// ```
    /// # use rfc6570::testing::{Case, Values};
    /// let t = rfc6570::UriTemplate::parse("x://{a}")?;
    /// assert_eq!(Case::new(&t, Values::new())?.note(), None);
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// Checks what [`UriTemplate::match_uri`] gave for this case's URI. A template the
    /// matcher refuses when it compiles ([`MatchError::Unsupported`]) passes every check: it
    /// is never answered wrongly.
    ///
    /// ```
    /// # use rfc6570::testing::{Case, Value, Values};
    /// let t = rfc6570::UriTemplate::parse("x://{a}")?;
    /// let case = Case::new(&t, Values::new().with("a", Value::text("b c")))?;
    /// case.check_match(&t.match_uri(case.uri()))?;
    /// assert!(case.check_match(&t.match_uri("x://other")).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check_match(&self, got: &Result<Captures<'_>, MatchError>) -> Result<(), Mismatch> {
        let got = match got {
            // Refused when it compiles: never answered wrongly.
            Err(MatchError::Unsupported(_)) => return Ok(()),
            Ok(captures) => Got::Match(&self.template, captures),
            Err(MatchError::NoMatch) => Got::NotFound,
            Err(MatchError::Malformed { position, reason }) => Got::Malformed(*position, *reason),
            Err(other) => Got::Other(other.to_string()),
        };
        self.check(&self.matched, &got)
    }

    /// Checks what a router gave for this case's URI: [`Router::at`](crate::Router::at) of a
    /// router with default options that holds this case's template. Routing to another
    /// template is a mismatch.
    ///
    /// ```
    /// # use rfc6570::testing::{Case, Value, Values};
    /// # use rfc6570::Router;
    /// let t = rfc6570::UriTemplate::parse("x://{a}")?;
    /// let mut router = Router::new();
    /// router.insert("x://{a}", 1)?;
    /// let case = Case::new(&t, Values::new().with("a", Value::text("%2e%2e")))?;
    /// case.check_route(&router.at(case.uri()))?; // the value is `%2e%2e`: not a dot segment
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check_route<T>(
        &self,
        got: &Result<Routed<'_, '_, T>, RouteError>,
    ) -> Result<(), Mismatch> {
        let got = match got {
            Err(RouteError::Unsupported(_)) => return Ok(()),
            Ok(routed) => Got::Match(routed.template, &routed.captures),
            Err(error) => Got::of_route_error(error),
        };
        self.check(&self.routed, &got)
    }

    /// Checks what [`mcp::Resources::at`](crate::mcp::Resources::at) gave for this case's URI:
    /// the registry routes as a default router does.
    ///
    /// ```
    /// use rfc6570::mcp::{ResourceTemplate, Resources};
    /// use rfc6570::testing::{Case, Value, Values};
    ///
    /// let mut resources = Resources::new();
    /// resources.insert(ResourceTemplate::parse("file:///{+path}", "files")?, ())?;
    /// let t = rfc6570::UriTemplate::parse("file:///{+path}")?;
    /// let case = Case::new(&t, Values::new().with("path", Value::text("C:/x")))?;
    /// case.check_read(&resources.at(case.uri()))?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "mcp")]
    #[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
    pub fn check_read<H>(
        &self,
        got: &Result<crate::mcp::ResourceMatch<'_, '_, H>, crate::mcp::ReadError>,
    ) -> Result<(), Mismatch> {
        let got = match got {
            Err(crate::mcp::ReadError::Route {
                error: RouteError::Unsupported(_),
                ..
            }) => return Ok(()),
            Ok(read) => Got::Match(read.template, &read.captures),
            Err(crate::mcp::ReadError::Route { error, .. }) => Got::of_route_error(error),
            Err(other) => Got::Other(other.to_string()),
        };
        self.check(&self.routed, &got)
    }

    fn check(&self, expected: &Expected, got: &Got<'_>) -> Result<(), Mismatch> {
        let fail = |part: Part, why: String| Err(self.mismatch(part, expected, got, why));
        match (expected, got) {
            (Expected::NeverUnsafe, Got::Match(_, captures)) => match unsafe_capture(captures) {
                Some(why) => fail(Part::Value, why),
                None => Ok(()),
            },
            (Expected::NeverUnsafe | Expected::Any, _) => Ok(()),
            (Expected::Match { exact, round_trip }, Got::Match(template, captures)) => {
                if *template != &self.template {
                    let why = format!(
                        "routed to {:?}, not {:?}",
                        template.as_str(),
                        self.template.as_str()
                    );
                    return fail(Part::Template, why);
                }
                self.check_captures(exact, *round_trip, captures)
                    .or_else(|why| fail(Part::Value, why))
            }
            (Expected::Unsafe { variable, rule }, Got::Unsafe(v, r))
                if variable == v && rule == r =>
            {
                Ok(())
            }
            (Expected::Malformed { position, reason }, Got::Malformed(p, r))
                if position == p && reason == r =>
            {
                Ok(())
            }
            (Expected::NotFound, Got::NotFound) => Ok(()),
            _ => fail(Part::Outcome, String::new()),
        }
    }

    fn check_captures(
        &self,
        exact: &Values,
        round_trip: bool,
        captures: &Captures<'_>,
    ) -> Result<(), String> {
        for (name, value) in exact.iter() {
            let got = captures.get(name).map(|c| Value::of(&c));
            if got.as_ref() != Some(value) {
                let got = got.map_or("absent".to_owned(), |v| v.to_string());
                return Err(format!("{name} is {got}, not {value}"));
            }
        }
        if !round_trip || reserved_capture_held_triplet(&self.template, captures) {
            return Ok(());
        }
        let again = Values::of(captures);
        let g = GenTemplate::from(&self.template);
        let (head, tail) = g.head_and_tail();
        let expand = |text: &str, values: &Values| {
            UriTemplate::parse(text)
                .and_then(|t| t.expand(values))
                .map_err(|e| e.to_string())
        };
        let (head_before, head_after) = (expand(&head, &self.values)?, expand(&head, &again)?);
        if normalize(&head_before) != normalize(&head_after) {
            return Err(format!(
                "captures expand to {head_after:?} before the query, not {head_before:?}"
            ));
        }
        let (tail_before, tail_after) = (expand(&tail, &self.values)?, expand(&tail, &again)?);
        if query_shape(&tail_before) != query_shape(&tail_after) {
            return Err(format!(
                "captures expand to the query {tail_after:?}, not {tail_before:?}"
            ));
        }
        Ok(())
    }

    fn mismatch(&self, part: Part, expected: &Expected, got: &Got<'_>, why: String) -> Mismatch {
        let mut line = format!(
            "template {:?} uri {:?} values {}",
            self.template.as_str(),
            self.uri,
            self.values
        );
        if let Some(note) = &self.note {
            line += &format!(" ({note})");
        }
        line += &format!(": {part} differs: expected {expected}, got {got}");
        if !why.is_empty() {
            line += &format!(" ({why})");
        }
        Mismatch { line }
    }
}

/// Which part of an outcome is not the expected one: what a [`Mismatch`] names first, so that
/// two outcomes that print alike (the same values from another template) read apart.
#[derive(Debug, Clone, Copy)]
enum Part {
    /// A match, of another template than the case's.
    Template,
    /// A match of the case's template, with a value that is not the expected one (or, where
    /// any outcome but an unsafe value is allowed, an unsafe one).
    Value,
    /// Another kind of outcome: a refusal for a match, another refusal, a match for one.
    Outcome,
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Template => "the template",
            Self::Value => "a value",
            Self::Outcome => "the outcome",
        })
    }
}

/// A case's outcome that is not the expected one, with everything needed to reproduce it.
/// Its [`Display`](fmt::Display) is one line: the template and the URI quoted as Rust writes
/// strings, the values as `name=value` ([`Values`]), which part differs (`the template`, `a
/// value` or `the outcome`), what was expected and what came. In a `proptest!` body, `?`
/// turns it into a failed case with that line.
///
/// ```
/// use rfc6570::testing::{Case, Value, Values};
///
/// let t = rfc6570::UriTemplate::parse("x://{a}")?;
/// let case = Case::new(&t, Values::new().with("a", Value::text("1")))?;
/// let mismatch = case.check_match(&t.match_uri("x://2")).unwrap_err();
/// assert_eq!(
///     mismatch.to_string(),
///     r#"template "x://{a}" uri "x://1" values a="1": a value differs: expected a match with a="1", got a match with a="2" (a is "2", not "1")"#,
/// );
///
/// // The same values from another template: the template is what differs.
/// let mut router = rfc6570::Router::new();
/// router.insert("x://{+a}", ())?;
/// let mismatch = case.check_route(&router.at(case.uri())).unwrap_err();
/// assert_eq!(
///     mismatch.to_string(),
///     r#"template "x://{a}" uri "x://1" values a="1": the template differs: expected a match with a="1", got a match with a="1" (routed to "x://{+a}", not "x://{a}")"#,
/// );
///
/// // A refusal where a match was expected: the outcome.
/// let mismatch = case.check_match(&t.match_uri("y://1")).unwrap_err();
/// assert_eq!(
///     mismatch.to_string(),
///     r#"template "x://{a}" uri "x://1" values a="1": the outcome differs: expected a match with a="1", got not found"#,
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    line: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line)
    }
}

impl std::error::Error for Mismatch {}

/// An outcome, read off a match, a route or a read.
enum Got<'a> {
    Match(&'a UriTemplate, &'a Captures<'a>),
    Unsafe(String, Rule),
    Malformed(usize, Malformed),
    NotFound,
    Other(String),
}

impl Got<'_> {
    fn of_route_error(error: &RouteError) -> Self {
        match error {
            RouteError::NotFound => Self::NotFound,
            RouteError::Unsafe { variable, rule, .. } => Self::Unsafe(variable.clone(), *rule),
            RouteError::Malformed { position, reason } => Self::Malformed(*position, *reason),
            // A refusal's reason is its source: said too.
            RouteError::Refused { source, .. } => Self::Other(format!("{error}: {source}")),
            other => Self::Other(other.to_string()),
        }
    }
}

impl fmt::Display for Got<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Match(_, captures) if captures.is_empty() => f.write_str("a match"),
            Self::Match(_, captures) => write!(f, "a match with {}", Values::of(captures)),
            Self::Unsafe(variable, rule) => write!(f, "unsafe({variable}, {})", rule.code()),
            Self::Malformed(position, reason) => {
                write!(f, "malformed({}, at {position})", reason.code())
            }
            Self::NotFound => f.write_str("not found"),
            Self::Other(error) => write!(f, "the error {error:?}"),
        }
    }
}

/// A capture that breaks the default policy, said in words.
fn unsafe_capture(captures: &Captures<'_>) -> Option<String> {
    captures.iter().find_map(|c| {
        let scope = if c.items_are_segments() {
            crate::safety::Scope::Segment
        } else {
            crate::safety::Scope::Crossing
        };
        let value = Value::of(&c);
        let rule = value
            .strings()
            .find_map(|s| SafetyPolicy::STRICT.verdict(s, scope).err())?;
        Some(format!(
            "{} delivered {value}, which holds {rule}",
            c.name()
        ))
    })
}

/// The decoded values a handler must see, where the template pins them: a template without
/// lints, a non-empty string in a variable its expression delimits, and no text before it, in
/// its own value or an earlier one, that holds what the template writes next (shortest-first
/// would end that variable there; section 1 of the semantics); in `{a,b}` and `{/a,b}`, only
/// when every variable of the expression is a string. Also says whether the split of the
/// path is pinned: every variable before the query ends where its expression says.
fn exact_values(layout: &Layout, values: &Values) -> (Values, bool) {
    let mut exact = Values::new();
    if !layout.lint_free {
        return (exact, false);
    }
    let is_text = |p: &Place| matches!(values.get(&p.name), Some(Value::Text(_)));
    let strings_only = |p: &Place| {
        !p.in_list
            || layout
                .places
                .iter()
                .filter(|q| q.expression == p.expression)
                .all(is_text)
    };
    let mut head_clean = true;
    for place in &layout.places {
        let value = values.get(&place.name);
        let written: Vec<String> = value
            .into_iter()
            .flat_map(Value::strings)
            .map(|s| expand_alone(place, s, place.prefix))
            .collect();
        let clean = !written.iter().any(|w| place.holds_next(w));
        let clean = clean && strings_only(place);
        let clean_before = if place.in_tail { true } else { head_clean };
        if !place.in_tail {
            head_clean &= clean;
        }
        let Some(Value::Text(text)) = value else {
            continue;
        };
        if text.is_empty() || place.exploded || !place.delimited || !clean || !clean_before {
            continue;
        }
        // A repeated name's value is its whole occurrence's, not a prefix one's.
        let repeated = layout
            .places
            .iter()
            .filter(|p| p.name == place.name)
            .count()
            > 1;
        if repeated && place.prefix.is_some() {
            continue;
        }
        if let Ok(decoded) = decode(&written[0]) {
            exact.set(place.name.clone(), Value::Text(decoded));
        }
    }
    (exact, head_clean)
}

/// The text a variable's value is written as, alone: what follows its operator's prefix or
/// its `name=`.
pub(super) fn expand_alone(place: &Place, text: &str, prefix: Option<u16>) -> String {
    let op = match place.op {
        Operator::Reserved | Operator::Fragment => "+",
        _ => "",
    };
    let prefix = prefix.map(|n| format!(":{n}")).unwrap_or_default();
    let t = UriTemplate::parse(&format!("{{{op}v{prefix}}}")).expect("a one-variable template");
    t.expand(&[("v", text)]).expect("a string expands")
}

/// What a default router must give, from the match's expectation.
fn route_expectation(
    layout: &Layout,
    values: &Values,
    exact: &Values,
    matched: &Expected,
) -> Expected {
    let required: Vec<&Place> = layout.places.iter().filter(|p| p.required()).collect();
    let missing = |p: &&Place| match values.get(&p.name) {
        None => true,
        Some(Value::Text(t)) => t.is_empty(),
        Some(v) => v.is_undefined(),
    };
    if !layout.lint_free {
        return Expected::NeverUnsafe;
    }
    if required.iter().any(missing) {
        // With a variable empty, the literal after it could be read into a non-empty one
        // (`x://{a}-{b}` on `x://-x-y` is `a = "-x"`), where a later value holds that literal.
        let absorbable = layout.places.iter().enumerate().any(|(k, p)| {
            p.required()
                && missing(&p)
                && layout.places[k + 1..].iter().any(|later| {
                    !later.in_tail
                        && values
                            .get(&later.name)
                            .into_iter()
                            .flat_map(Value::strings)
                            .any(|s| p.holds_next(&expand_alone(later, s, later.prefix)))
                })
        });
        return if absorbable {
            Expected::NeverUnsafe
        } else {
            Expected::NotFound
        };
    }
    if required.iter().any(|p| {
        values
            .get(&p.name)
            .is_some_and(|v| v.strings().any(str::is_empty))
    }) {
        return Expected::NeverUnsafe;
    }
    // The router checks captures in template order; the first unsafe one is refused.
    for place in &layout.places {
        let Some(value) = values.get(&place.name) else {
            continue;
        };
        let decoded: Vec<String> = match exact.get(&place.name) {
            Some(Value::Text(t)) => vec![t.clone()],
            _ => value
                .strings()
                .flat_map(|s| resplit(place, &expand_alone(place, s, None)))
                .map(|w| decode(&w).unwrap_or_default())
                .collect(),
        };
        let broken = decoded
            .iter()
            .find_map(|s| SafetyPolicy::STRICT.verdict(s, place.scope()).err());
        match (broken, exact.get(&place.name)) {
            (Some(rule), Some(_)) => {
                return Expected::Unsafe {
                    variable: place.name.clone(),
                    rule,
                };
            }
            (Some(_), None) => return Expected::NeverUnsafe,
            // Safe. A list or map not pinned exactly is still safe: the path's split is
            // pinned, and a split inside its expression only regroups the same strings.
            (None, _) => {}
        }
    }
    matched.clone()
}

/// The written text of an item not pinned exactly, and the pieces a router may read it as:
/// `{+v}` and `{#v}` write a `,` or `=` in a value raw, and those are where their lists and
/// maps split (`{+p*}` with the item `..,` writes `..,`, read as the items `..` and ``).
fn resplit(place: &Place, written: &str) -> Vec<String> {
    let mut pieces = vec![written.to_owned()];
    if matches!(place.op, Operator::Reserved | Operator::Fragment) {
        pieces.extend(written.split([',', '=']).map(str::to_owned));
    }
    pieces
}

/// Whether the values are in the round-trip domain of `template` ([`shape_values`] leaves them
/// as they are, and [`shape_template`] the template), and the URI has no fault.
fn in_domain(template: &UriTemplate, values: &Values, uri: &str) -> bool {
    let g = GenTemplate::from(template);
    let shaped = shape_values(&g, values);
    let unchanged = values
        .iter()
        .filter(|(name, _)| template.variables().any(|v| v.name() == *name))
        .all(|(name, value)| shaped.get(name) == Some(value));
    unchanged
        && shape_template(g.clone()) == g
        && fault(uri).is_none()
        && !repeats_a_triplet(template, values)
}

/// Whether a name used more than once holds a `%` that a `{+v}` or `{#v}` occurrence passes
/// through as a triplet: that occurrence then decodes to other text than the others, which
/// disagree (section 15 of the semantics compares decoded values).
fn repeats_a_triplet(template: &UriTemplate, values: &Values) -> bool {
    reserved_vars(template).any(|v| {
        template
            .variables()
            .filter(|u| u.name() == v.name())
            .count()
            > 1
            && values
                .get(v.name())
                .is_some_and(|v| v.strings().any(|s| s.contains('%')))
    })
}

/// The variables of `{+v}` and `{#v}` expressions, which pass a value's triplets through.
fn reserved_vars(t: &UriTemplate) -> impl Iterator<Item = crate::template::VarSpec<'_>> + '_ {
    t.expressions()
        .filter(|e| matches!(e.operator(), Operator::Reserved | Operator::Fragment))
        .flat_map(|e| e.variables())
}

/// Whether a value of a `{+v}` or `{#v}` expression holds a `%`, which expansion may pass
/// through as a triplet: its capture then comes back decoded, and expands differently.
fn passes_triplets(template: &UriTemplate, values: &Values) -> bool {
    reserved_vars(template).any(|v| {
        values
            .get(v.name())
            .is_some_and(|v| v.strings().any(|s| s.contains('%')))
    })
}

/// Whether a `{+v}` or `{#v}` variable captured text with a triplet, which comes back decoded.
fn reserved_capture_held_triplet(t: &UriTemplate, captures: &Captures<'_>) -> bool {
    reserved_vars(t).any(|v| {
        captures
            .get(v.name())
            .is_some_and(|c| c.raw().contains('%'))
    })
}
