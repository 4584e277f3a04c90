//! The variables recovered by a match: [`Captures`], over the spans the engine found. Each
//! variable's [`Capture`] is `capture.rs`.
//!
//! A match records only where each variable's text starts and ends in the URI. Everything else
//! (whether a value is a string, a list or a map, splitting items, percent-decoding) happens when
//! it is asked for, on text borrowed from the URI; decoding allocates only for values that hold
//! percent-triplets.

use std::fmt;

use super::capture::{Capture, CaptureKind, Shape, TailNames, items_are_segments};
use super::query;
use super::spans::Spans;
use crate::pct;
use crate::safety::Rule;
use crate::template::{Node, Operator, Parsed, VarNode};

/// The variables of a successful match, borrowed from the template and the URI.
///
/// Look a variable up by name with [`get`](Self::get), or walk the defined ones in template order
/// with [`iter`](Self::iter). With the `serde` feature, `Captures` serializes to a map of each
/// defined variable to a string, a list of strings or a map of strings, all percent-decoded, and
/// [`deserialize`](Self::deserialize) extracts a typed struct.
///
/// ```
/// use rfc6570::UriTemplate;
///
/// let t = UriTemplate::parse("file:///{+path}{?rev}")?;
/// let caps = t.match_uri("file:///docs/caf%C3%A9.md?rev=3")?;
/// assert_eq!(caps.get("path").unwrap().decoded(), "docs/café.md");
/// assert_eq!(caps.get("path").unwrap().raw(), "docs/caf%C3%A9.md");
/// assert_eq!(caps.get("rev").unwrap().decoded(), "3");
/// assert!(caps.get("missing").is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Captures<'a> {
    template: &'a Parsed,
    uri: &'a str,
    spans: Spans,
}

impl<'a> Captures<'a> {
    pub(crate) fn new(template: &'a Parsed, uri: &'a str, spans: Spans) -> Self {
        Self {
            template,
            uri,
            spans,
        }
    }

    /// The spans back, once the captures have been read.
    pub(super) fn into_spans(self) -> Spans {
        self.spans
    }

    /// The first map capture that holds a key twice, with that key (decoded): a map cannot
    /// hold it.
    pub(super) fn repeated_key(&self) -> Option<(String, String)> {
        self.iter()
            .filter(|c| c.kind() == CaptureKind::Map)
            .find_map(|c| Some((c.name.to_owned(), c.repeated_key()?)))
    }

    /// The URI that was matched.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let t = UriTemplate::parse("notes://{id}")?;
    /// assert_eq!(t.match_uri("notes://7")?.uri(), "notes://7");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn uri(&self) -> &'a str {
        self.uri
    }

    /// The URI's fragment, without its `#` and as sent, when the template has no fragment
    /// part (no `{#..}` and no literal `#`) and so set it aside to match the rest (RFC 3986
    /// section 3.5: a fragment is the client's, not the resource's). `None` when the URI has
    /// none, or when the template matched it.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let t = UriTemplate::parse("logs://{service}{?level}")?;
    /// let caps = t.match_uri("logs://api?level=error#section1")?;
    /// assert_eq!(caps.get("level").unwrap().decoded(), "error");
    /// assert_eq!(caps.fragment(), Some("section1"));
    /// assert_eq!(caps.uri(), "logs://api?level=error#section1");
    ///
    /// let page = UriTemplate::parse("x://page{#section}")?;
    /// assert_eq!(page.match_uri("x://page#intro")?.fragment(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fragment(&self) -> Option<&'a str> {
        if self.template.has_fragment_part() {
            return None;
        }
        self.uri.split_once('#').map(|(_, fragment)| fragment)
    }

    /// The variable `name`, if the match defined it.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let t = UriTemplate::parse("db://users/{id}/profile")?;
    /// let caps = t.match_uri("db://users/ada/profile")?;
    /// assert_eq!(caps.get("id").unwrap().decoded(), "ada");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get(&self, name: &str) -> Option<Capture<'a>> {
        self.iter().find(|c| c.name == name)
    }

    /// The defined variables in template order, each name once (a name the template repeats
    /// where it first appears, with the value its occurrences agree on).
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let t = UriTemplate::parse("log://build/{job_id}{?lines,level}")?;
    /// let caps = t.match_uri("log://build/42?level=warn")?;
    /// let names: Vec<&str> = caps.iter().map(|c| c.name()).collect();
    /// assert_eq!(names, ["job_id", "level"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = Capture<'a>> + '_ {
        let t = self.template;
        let mut var = 0;
        let mut op = Operator::Simple;
        let mut expr_start = 0;
        t.nodes().iter().filter_map(move |node| match node {
            Node::Expression { op: o, .. } => {
                op = *o;
                expr_start = var;
                None
            }
            Node::Literal { .. } => None,
            Node::Var(spec) => {
                let index = var;
                var += 1;
                if t.has_repeats() {
                    // A repeated name is one variable, where its name first appears.
                    return (t.first_of(index) == index)
                        .then(|| self.representative(index))
                        .flatten();
                }
                self.occurrence(index, op, *spec, expr_start)
            }
        })
    }

    /// Occurrence `var` of a name, as a capture of its own, if it is defined: found by
    /// walking the template, for templates that repeat a name.
    fn at(&self, var: usize) -> Option<Capture<'a>> {
        let mut index = 0;
        let mut op = Operator::Simple;
        let mut expr_start = 0;
        for node in self.template.nodes() {
            match node {
                Node::Expression { op: o, .. } => {
                    op = *o;
                    expr_start = index;
                }
                Node::Literal { .. } => {}
                Node::Var(spec) => {
                    if index == var {
                        return self.occurrence(index, op, *spec, expr_start);
                    }
                    index += 1;
                }
            }
        }
        None
    }

    /// The occurrence of the name of variable `first` that gives its value, the one that says
    /// most of its kind: of the defined whole ones, the first that is a map (a list written
    /// without explode may be a map's keys and values), else the first not exploded other
    /// than a `{+v}` or `{#v}` one with a raw comma, else the first exploded one of several
    /// items, else the first `{+v}` or `{#v}` one with a raw comma (a list's items or a
    /// string's characters), else the first (an explode of one item does not say whether it
    /// was a string); failing those, the defined prefix one with the most characters.
    fn representative(&self, first: usize) -> Option<Capture<'a>> {
        // One pass: the best rank so far, and for prefix ones the most characters.
        let mut best: Option<(u8, usize, Capture<'a>)> = None;
        for capture in self.template.occurrences(first).filter_map(|v| self.at(v)) {
            let (rank, chars) = match capture.spec {
                spec if spec.prefix != 0 => (0, pct::char_count(capture.raw.as_bytes())),
                _ if capture.kind() == CaptureKind::Map => (5, 0),
                _ if capture.may_be_list() => (2, 0),
                spec if !spec.explode => (4, 0),
                _ if capture.raw_parts().nth(1).is_some() => (3, 0),
                _ => (1, 0),
            };
            if best
                .as_ref()
                .is_none_or(|&(r, c, _)| rank > r || rank == r && chars > c)
            {
                best = Some((rank, chars, capture));
            }
        }
        best.map(|(_, _, capture)| capture)
    }

    /// Whether every occurrence of the name of variable `first` agrees with the value its
    /// [`representative`](Self::representative) gives: whole ones decode to the same items,
    /// a prefix one to the first characters of the value. An empty value agrees with an
    /// undefined one, and a query parameter left out with any value (a query tail's
    /// parameters are optional).
    pub(super) fn occurrences_agree(&self, first: usize) -> bool {
        let t = self.template;
        if t.occurrences(first).nth(1).is_none() {
            return true;
        }
        let value = self.representative(first);
        t.occurrences(first).all(|v| match (self.at(v), &value) {
            (None, _) if self.in_tail(v) => true,
            (None, value) => value.as_ref().is_none_or(Capture::is_empty_value),
            (Some(one), None) => one.is_empty_value(),
            (Some(one), Some(value)) => one.agrees_with(value),
        })
    }

    /// The number of defined variables.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let t = UriTemplate::parse("search://docs{?q,lang}")?;
    /// assert_eq!(t.match_uri("search://docs?q=rust")?.len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    /// Whether no variable is defined.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let t = UriTemplate::parse("search://docs{?q,lang}")?;
    /// assert!(t.match_uri("search://docs")?.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }

    /// Whether every recorded span is [plain](crate::pct::is_inert): then nothing needs
    /// decoding and no value, item or key can break a safety rule, whatever its shape.
    pub(crate) fn all_plain(&self) -> bool {
        let uri = self.uri.as_bytes();
        self.spans
            .first(self.template.var_count())
            .flatten()
            .all(|span| uri.get(span).is_none_or(crate::pct::is_inert))
    }

    /// Judges each raw part (as [`Capture::try_for_each_raw_part`] gives them) of every
    /// defined capture whose text is not [inert](crate::pct::is_inert), in template order, by
    /// `judge` (given the capture's name, the part, and whether its items are segments): what
    /// a safety check reads. Answers the first refusal, with the capture's name. Where the
    /// template repeats no name, a variable's capture is its span, and most are strings:
    /// those are read off the spans, without making a [`Capture`] of each.
    pub(crate) fn judge_unplain_parts(
        &self,
        judge: &mut dyn FnMut(&'a str, &'a str, bool) -> Result<(), Rule>,
    ) -> Result<(), (&'a str, Rule)> {
        type Judge<'j, 'a> = &'j mut dyn FnMut(&'a str, &'a str, bool) -> Result<(), Rule>;
        fn each<'a>(capture: &Capture<'a>, judge: Judge<'_, 'a>) -> Result<(), (&'a str, Rule)> {
            let single = capture.items_are_segments();
            capture
                .try_for_each_raw_part(|part| judge(capture.name, part, single))
                .map_err(|rule| (capture.name, rule))
        }
        let t = self.template;
        let (mut var, mut op, mut expr_start) = (0, Operator::Simple, 0);
        for node in t.nodes() {
            let spec = match node {
                Node::Expression { op: o, .. } => {
                    (op, expr_start) = (*o, var);
                    continue;
                }
                Node::Literal { .. } => continue,
                Node::Var(spec) => spec,
            };
            let index = var;
            var += 1;
            if t.has_repeats() {
                // A repeated name is one capture, where it first appears, as `iter` has it.
                let capture = (t.first_of(index) == index)
                    .then(|| self.representative(index))
                    .flatten();
                if let Some(capture) = capture.filter(|c| !pct::is_inert(c.raw.as_bytes())) {
                    each(&capture, judge)?;
                }
                continue;
            }
            // An empty text is inert: only defined captures are left.
            let Some(raw) = self.spans.get(index).map(|span| &self.uri[span]) else {
                continue;
            };
            if pct::is_inert(raw.as_bytes()) {
                continue;
            }
            if Shape::of(op, spec, raw) == Shape::Scalar {
                let name = t.span(spec.name_start, spec.name_end);
                let single = items_are_segments(op, self.in_tail(index));
                judge(name, raw, single).map_err(|rule| (name, rule))?;
            } else if let Some(capture) = self.occurrence(index, op, *spec, expr_start) {
                each(&capture, judge)?;
            }
        }
        Ok(())
    }

    fn occurrence(
        &self,
        index: usize,
        op: Operator,
        spec: VarNode,
        expr_first_var: usize,
    ) -> Option<Capture<'a>> {
        let raw = &self.uri[self.spans.get(index)?];
        let in_tail = self.in_tail(index);
        let name = self.template.span(spec.name_start, spec.name_end);
        // An exploded query variable's shape decides whether it is defined at all; others are
        // read off their text when asked for (most handlers only ask for the decoded value).
        let query_shape = if in_tail && spec.explode {
            Some(self.query_shape(name, index)?)
        } else {
            None
        };
        // A defined empty value that wrote nothing (`{v}` or `{+v}` alone) cannot be told from
        // an undefined one: report it absent.
        if raw.is_empty() && !in_tail && matches!(op, Operator::Simple | Operator::Reserved) {
            let expr_vars = self.expression_vars(expr_first_var);
            let others = (expr_first_var..expr_first_var + expr_vars)
                .filter(|&i| i != index)
                .any(|i| self.spans.get(i).is_some());
            if !others {
                return None;
            }
        }
        Some(Capture {
            name,
            raw,
            op,
            spec,
            query_shape,
            in_tail,
            tail: self.tail_names(),
        })
    }

    /// Whether variable `index` is in the query tail.
    #[inline]
    fn in_tail(&self, index: usize) -> bool {
        self.template.tail_var().is_some_and(|first| index >= first)
    }

    fn expression_vars(&self, first_var: usize) -> usize {
        let mut var = 0;
        for node in self.template.nodes() {
            if let Node::Expression { vars, .. } = node {
                if var == first_var {
                    return usize::from(*vars);
                }
                var += usize::from(*vars);
            }
        }
        0
    }

    fn tail_names(&self) -> TailNames<'a> {
        TailNames {
            template: self.template,
            first_var: self.template.tail_var().unwrap_or(usize::MAX),
        }
    }

    /// An exploded query variable collects the parameters named after it; failing those, the
    /// first such variable collects the undeclared parameters as a map. Out of line: rare,
    /// and its reading of the query would cost every other capture registers.
    #[inline(never)]
    fn query_shape(&self, name: &str, index: usize) -> Option<Shape> {
        let region = &self.uri[self.spans.get(index)?];
        if query::pairs(region, 0).any(|(n, _, _)| pct::equivalent(n, name)) {
            return Some(Shape::QueryList);
        }
        let tail = self.tail_names();
        let first_free_exploded = self
            .template
            .variables()
            .enumerate()
            .skip(tail.first_var)
            .filter(|(_, v)| v.is_exploded())
            .find(|(_, v)| !query::pairs(region, 0).any(|(n, _, _)| pct::equivalent(n, v.name())))
            .map(|(i, _)| i);
        let has_undeclared = query::pairs(region, 0).any(|(n, _, _)| !tail.declares(n));
        (first_free_exploded == Some(index) && has_undeclared).then_some(Shape::QueryMap)
    }
}

impl fmt::Debug for Captures<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.iter().map(|c| (c.name, c)))
            .finish()
    }
}
