//! The variables recovered by a match: [`Captures`] and each variable's [`Capture`].
//!
//! A match records only where each variable's text starts and ends in the URI. Everything else
//! (whether a value is a string, a list or a map, splitting items, percent-decoding) happens when
//! it is asked for, on text borrowed from the URI; decoding allocates only for values that hold
//! percent-triplets.

use std::borrow::Cow;
use std::fmt;

use super::query;
use super::spans::Spans;
use crate::pct;
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
    /// hold it. Keys compare decoded (`a` and `%61` are one key); a few are compared pairwise
    /// without allocating, many are sorted.
    pub(super) fn repeated_key(&self) -> Option<(String, String)> {
        const PAIRWISE: usize = 16;
        for capture in self.iter().filter(|c| c.kind() == CaptureKind::Map) {
            let keys = || capture.raw_entries().map(|(k, _)| k);
            let repeated = if keys().nth(PAIRWISE).is_none() {
                keys()
                    .enumerate()
                    .find(|&(i, k)| keys().take(i).any(|earlier| pct::same_decoded(earlier, k)))
                    .map(|(_, k)| k)
            } else {
                let mut sorted: Vec<Cow<'_, str>> = keys().map(pct::decode).collect();
                crate::sort::sort(&mut sorted);
                return sorted
                    .windows(2)
                    .find(|w| w[0] == w[1])
                    .map(|w| (capture.name.to_owned(), w[0].clone().into_owned()));
            };
            if let Some(key) = repeated {
                return Some((capture.name.to_owned(), pct::decode(key).into_owned()));
            }
        }
        None
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
    /// without explode may be a map's keys and values), else the first not exploded (an
    /// explode of one item does not say whether it was a string), else the first; failing
    /// those, the defined prefix one with the most characters.
    fn representative(&self, first: usize) -> Option<Capture<'a>> {
        // One pass: the best rank so far, and for prefix ones the most characters.
        let mut best: Option<(u8, usize, Capture<'a>)> = None;
        for capture in self.template.occurrences(first).filter_map(|v| self.at(v)) {
            let (rank, chars) = match capture.spec {
                spec if spec.prefix != 0 => (0, pct::char_count(capture.raw.as_bytes())),
                _ if capture.kind() == CaptureKind::Map => (3, 0),
                spec if !spec.explode => (2, 0),
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
        let in_tail = |v: usize| t.tail_var().is_some_and(|tail| v >= tail);
        t.occurrences(first).all(|v| match (self.at(v), &value) {
            (None, _) if in_tail(v) => true,
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

    fn occurrence(
        &self,
        index: usize,
        op: Operator,
        spec: VarNode,
        expr_first_var: usize,
    ) -> Option<Capture<'a>> {
        let raw = &self.uri[self.spans.get(index)?];
        let in_tail = self.template.tail_var().is_some_and(|first| index >= first);
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

/// The names a query tail declares, for telling undeclared parameters apart.
#[derive(Clone, Copy)]
struct TailNames<'a> {
    template: &'a Parsed,
    first_var: usize,
}

impl TailNames<'_> {
    fn declares(&self, name: &str) -> bool {
        self.template
            .variables()
            .skip(self.first_var)
            .any(|v| pct::equivalent(v.name(), name))
    }
}

/// The kind of value a variable captured.
///
/// ```
/// use rfc6570::UriTemplate;
/// use rfc6570::matching::CaptureKind;
///
/// let t = UriTemplate::parse("{/path*}{?q}")?;
/// let caps = t.match_uri("/a/b?q=x")?;
/// assert_eq!(caps.get("path").unwrap().kind(), CaptureKind::List);
/// assert_eq!(caps.get("q").unwrap().kind(), CaptureKind::String);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CaptureKind {
    /// A single string.
    String,
    /// A list of strings.
    List,
    /// An associative array of strings.
    Map,
}

/// How a capture's raw text splits into items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Scalar,
    /// Items separated by a byte.
    List(u8),
    /// `k=v` (or bare `k`) items of a named explode (`{;v*}`), separated by a byte values never
    /// hold raw: a list if every key is the variable's name, a map otherwise.
    Named(u8),
    /// `k=v` items separated by a byte; a value may contain the separator (`{.m*}`), so
    /// entries are found from their `=` signs.
    Map(u8),
    QueryList,
    QueryMap,
}

impl Shape {
    /// Reads the shape off the text, as section 2 of the [semantics](crate::semantics) describes: raw commas
    /// separate the items of unexploded lists, the operator's separator those of exploded ones,
    /// and `=` marks maps.
    fn of(op: Operator, spec: &VarNode, raw: &str) -> Self {
        let sep = op.separator();
        let reserved = op.allows_reserved();
        if !spec.explode {
            // A prefix applies to strings only: a query value such as `a,b` for `{?v:3}` is
            // the string "a,b", as expansion could not write a list there.
            return if !reserved && spec.prefix == 0 && raw.contains(',') {
                Self::List(b',')
            } else {
                Self::Scalar
            };
        }
        if reserved {
            return Self::List(sep);
        }
        if op.is_named() {
            return Self::Named(sep);
        }
        if raw.contains('=') {
            Self::Map(sep)
        } else {
            Self::List(sep)
        }
    }
}

/// One captured variable: its name, its raw text, and its decoded value, items or entries.
///
/// ```
/// use rfc6570::UriTemplate;
/// use rfc6570::matching::CaptureKind;
///
/// let t = UriTemplate::parse("{?tags,q}")?;
/// let caps = t.match_uri("?tags=a,b%20c&q=x")?;
/// let tags = caps.get("tags").unwrap();
/// assert_eq!((tags.name(), tags.kind(), tags.raw()), ("tags", CaptureKind::List, "a,b%20c"));
/// assert_eq!(tags.items().collect::<Vec<_>>(), ["a", "b c"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Capture<'a> {
    name: &'a str,
    raw: &'a str,
    op: Operator,
    spec: VarNode,
    /// The shape of an exploded query variable (see [`Capture::shape`]).
    query_shape: Option<Shape>,
    in_tail: bool,
    tail: TailNames<'a>,
}

impl fmt::Debug for Capture<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Capture")
            .field("name", &self.name)
            .field("raw", &self.raw)
            .field("kind", &self.kind())
            .finish()
    }
}

impl<'a> Capture<'a> {
    /// Whether the value is a string, a list or a map, and how its items are separated.
    fn shape(&self) -> Shape {
        self.query_shape
            .unwrap_or_else(|| Shape::of(self.op, &self.spec, self.raw))
    }

    /// The variable's name.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let t = UriTemplate::parse("notes://{id}")?;
    /// assert_eq!(t.match_uri("notes://7")?.get("id").unwrap().name(), "id");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// The captured text as it stands in the URI, not decoded. For an exploded query variable
    /// this is the whole query, which its items are collected from.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let t = UriTemplate::parse("{/path*}")?;
    /// assert_eq!(t.match_uri("/a%20b/c")?.get("path").unwrap().raw(), "a%20b/c");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn raw(&self) -> &'a str {
        self.raw
    }

    /// Whether the value is a string, a list or a map: read off the text as expansion writes
    /// it (raw commas separate list items, `=` marks map entries in exploded variables).
    ///
    /// ```
    /// use rfc6570::UriTemplate;
    /// use rfc6570::matching::CaptureKind;
    ///
    /// let t = UriTemplate::parse("{/m*}")?;
    /// assert_eq!(t.match_uri("/a=1/b=2")?.get("m").unwrap().kind(), CaptureKind::Map);
    /// assert_eq!(t.match_uri("/a/b")?.get("m").unwrap().kind(), CaptureKind::List);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn kind(&self) -> CaptureKind {
        self.kind_of(self.shape())
    }

    /// [`kind`](Self::kind) for the capture's shape, read once by the caller.
    fn kind_of(&self, shape: Shape) -> CaptureKind {
        match shape {
            Shape::Scalar => CaptureKind::String,
            Shape::List(_) | Shape::QueryList => CaptureKind::List,
            Shape::Named(sep) if self.named_items_are_list(sep) => CaptureKind::List,
            Shape::Named(_) | Shape::Map(_) | Shape::QueryMap => CaptureKind::Map,
        }
    }

    /// The percent-decoded value: the string for a string capture; for lists and maps, the
    /// decoded raw text (use [`items`](Self::items) or [`entries`](Self::entries) for their
    /// parts). Borrows from the URI unless there was something to decode.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let t = UriTemplate::parse("notes://{id}")?;
    /// assert_eq!(t.match_uri("notes://my%20note")?.get("id").unwrap().decoded(), "my note");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn decoded(&self) -> Cow<'a, str> {
        self.decode(self.raw)
    }

    /// Decodes one part of this capture, once, whatever its operator: `{+v}` and `{#v}`
    /// values too (`docs%2Fa%2Bb` is `docs/a+b`), so that path safety judges what the value
    /// means.
    fn decode(&self, raw: &'a str) -> Cow<'a, str> {
        pct::decode(raw)
    }

    /// The decoded items of a list (a string yields itself; a map, its values).
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let t = UriTemplate::parse("search://docs{?tag*}")?;
    /// let caps = t.match_uri("search://docs?tag=a&tag=b%20c")?;
    /// let tags: Vec<_> = caps.get("tag").unwrap().items().collect();
    /// assert_eq!(tags, ["a", "b c"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn items(&self) -> impl Iterator<Item = Cow<'a, str>> + use<'a> {
        let this = self.clone();
        self.raw_entries().map(move |(_, v)| this.decode(v))
    }

    /// The decoded entries of a map (keys are `None`-free only for maps; a list yields its items
    /// with empty keys).
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let t = UriTemplate::parse("{;filters*}")?;
    /// let caps = t.match_uri(";lang=en;sort=new")?;
    /// let filters: Vec<_> = caps.get("filters").unwrap().entries().collect();
    /// assert_eq!(filters, [("lang".into(), "en".into()), ("sort".into(), "new".into())]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn entries(&self) -> impl Iterator<Item = (Cow<'a, str>, Cow<'a, str>)> + use<'a> {
        let this = self.clone();
        self.raw_entries()
            .map(move |(k, v)| (this.decode(k), this.decode(v)))
    }

    /// Every raw part a handler can read, not decoded, in URI order: each item as
    /// [`items`](Self::items) splits it, and for a map each key before its value. The shape
    /// is read once.
    pub(crate) fn raw_parts(&self) -> impl Iterator<Item = &'a str> + use<'a> {
        let shape = self.shape();
        let keys = self.kind_of(shape) == CaptureKind::Map;
        self.entries_of(shape)
            .flat_map(move |(k, v)| keys.then_some(k).into_iter().chain(Some(v)))
    }

    /// Calls `f` on each of [`raw_parts`](Self::raw_parts) until it fails: on the raw text
    /// itself, without the iterator, where the value is a string, as most values are.
    pub(crate) fn try_for_each_raw_part<E>(
        &self,
        mut f: impl FnMut(&'a str) -> Result<(), E>,
    ) -> Result<(), E> {
        match self.shape() {
            Shape::Scalar => f(self.raw),
            _ => self.raw_parts().try_for_each(f),
        }
    }

    /// Whether the value is empty, as an undefined one's expansion is in some places: an
    /// empty string, or one empty item (`{;v*}` of `[""]` writes `;v`).
    fn is_empty_value(&self) -> bool {
        let mut parts = self.raw_parts();
        parts.next().is_none_or(str::is_empty) && parts.next().is_none()
    }

    /// Whether this occurrence of a repeated name agrees with the capture that gives the
    /// name's value: a prefix one is the value's first characters (the value a single
    /// string), a whole one has the same items, keys and values, decoded (an explode of a
    /// string writes one item).
    fn agrees_with(&self, value: &Capture<'_>) -> bool {
        if self.spec.prefix != 0 {
            let mut parts = value.raw_parts();
            let (Some(whole), None) = (parts.next(), parts.next()) else {
                return false;
            };
            return pct::is_decoded_prefix(self.raw, whole, usize::from(self.spec.prefix));
        }
        let mut theirs = value.raw_parts();
        self.raw_parts().all(|part| {
            theirs
                .next()
                .is_some_and(|other| pct::same_decoded(part, other))
        }) && theirs.next().is_none()
    }

    /// Whether each item of this capture is bound to one path segment: a value of an
    /// expression that cannot cross `/`, or an item of `{/v*}`, whose separator is `/`. (Query
    /// parameters are not segments.)
    pub(crate) fn items_are_segments(&self) -> bool {
        !self.in_tail && !self.op.allows_reserved()
    }

    /// Whether every item of a named shape split at `sep` is named after the variable.
    fn named_items_are_list(&self, sep: u8) -> bool {
        self.raw
            .split(char::from(sep))
            .all(|item| pct::equivalent(item.split_once('=').map_or(item, |(k, _)| k), self.name))
    }

    /// The raw `(key, value)` parts; keys are empty for list items.
    fn raw_entries(&self) -> RawEntries<'a> {
        self.entries_of(self.shape())
    }

    /// [`raw_entries`](Self::raw_entries) for the capture's shape, read once by the caller.
    fn entries_of(&self, shape: Shape) -> RawEntries<'a> {
        let raw = Some(self.raw);
        match shape {
            Shape::Scalar => RawEntries::Once(raw),
            Shape::List(sep) => RawEntries::Split {
                rest: raw,
                sep,
                named: false,
            },
            Shape::Named(sep) => RawEntries::Split {
                rest: raw,
                sep,
                named: true,
            },
            Shape::Map(sep) => RawEntries::Map(MapItems {
                rest: self.raw,
                sep,
            }),
            Shape::QueryList => RawEntries::Query {
                rest: raw,
                collect: Collect::Named(self.name),
            },
            Shape::QueryMap => RawEntries::Query {
                rest: raw,
                collect: Collect::Undeclared(self.tail),
            },
        }
    }
}

/// The raw parts of a capture, split without allocating.
enum RawEntries<'a> {
    Once(Option<&'a str>),
    /// Items separated by a byte; named items are split at their first `=`.
    Split {
        rest: Option<&'a str>,
        sep: u8,
        named: bool,
    },
    Map(MapItems<'a>),
    /// The query pairs an exploded query variable collects.
    Query {
        rest: Option<&'a str>,
        collect: Collect<'a>,
    },
}

#[derive(Clone, Copy)]
enum Collect<'a> {
    Named(&'a str),
    Undeclared(TailNames<'a>),
}

/// Splits off the text before the first `sep`.
/// A separator compares normalized, as the matcher read it: `.` is also `%2E`.
fn split_first<'a>(rest: &mut Option<&'a str>, sep: u8) -> Option<&'a str> {
    let text = (*rest)?;
    match pct::find_unit(text, sep) {
        Some((i, len)) => {
            *rest = Some(&text[i + len..]);
            Some(&text[..i])
        }
        None => {
            *rest = None;
            Some(text)
        }
    }
}

impl<'a> Iterator for RawEntries<'a> {
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Self::Once(value) => value.take().map(|v| ("", v)),
            Self::Split { rest, sep, named } => {
                let item = split_first(rest, *sep)?;
                Some(if *named {
                    item.split_once('=').unwrap_or((item, ""))
                } else {
                    ("", item)
                })
            }
            Self::Map(items) => items.next(),
            Self::Query { rest, collect } => loop {
                let pair = split_first(rest, b'&')?;
                if pair.is_empty() {
                    continue;
                }
                let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
                let wanted = match collect {
                    Collect::Named(n) => pct::equivalent(name, n),
                    Collect::Undeclared(tail) => !tail.declares(name),
                };
                if wanted {
                    return Some((name, value));
                }
            },
        }
    }
}

/// Entries `k=v` separated by `sep`, where values may hold `sep`: each `=` ends a key, and the
/// last `sep` before the next `=` ends the value before it.
struct MapItems<'a> {
    rest: &'a str,
    sep: u8,
}

impl<'a> Iterator for MapItems<'a> {
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let Some((key, after)) = self.rest.split_once('=') else {
            let key = std::mem::take(&mut self.rest);
            return Some((key, ""));
        };
        // The separator compares normalized, as the matcher read it (`.` is also `%2E`).
        let (value_end, sep_len) = match after.find('=') {
            Some(next_eq) => pct::rfind_unit(&after[..next_eq], self.sep).unwrap_or((next_eq, 1)),
            None => (after.len(), 0),
        };
        let value = &after[..value_end];
        self.rest = after.get(value_end + sep_len..).unwrap_or("");
        Some((key, value))
    }
}
