//! One captured variable, [`Capture`]: its name and raw text, the shape read off that text
//! (a string, a list or a map), and its decoded value, items or entries, split and decoded
//! when asked for, without allocating but for values that hold triplets.

use std::borrow::Cow;
use std::fmt;

use crate::pct;
use crate::template::{Operator, Parsed, VarNode};

/// The names a query tail declares, for telling undeclared parameters apart.
#[derive(Clone, Copy)]
pub(super) struct TailNames<'a> {
    pub(super) template: &'a Parsed,
    pub(super) first_var: usize,
}

impl TailNames<'_> {
    pub(super) fn declares(&self, name: &str) -> bool {
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
pub(super) enum Shape {
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
    pub(super) fn of(op: Operator, spec: &VarNode, raw: &str) -> Self {
        let sep = op.separator();
        let reserved = op.allows_reserved();
        if !spec.explode {
            // A prefix applies to strings only: a query value such as `a,b` for `{?v:3}` is
            // the string "a,b", as expansion could not write a list there.
            return if !reserved && spec.prefix == 0 && raw.as_bytes().contains(&b',') {
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
        if raw.as_bytes().contains(&b'=') {
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
    pub(super) name: &'a str,
    pub(super) raw: &'a str,
    pub(super) op: Operator,
    pub(super) spec: VarNode,
    /// The shape of an exploded query variable (see [`Capture::shape`]).
    pub(super) query_shape: Option<Shape>,
    pub(super) in_tail: bool,
    pub(super) tail: TailNames<'a>,
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

    /// A key this map capture holds twice (decoded), if one is. Keys compare decoded (`a` and
    /// `%61` are one key); a few are compared pairwise without allocating, many are sorted.
    pub(super) fn repeated_key(&self) -> Option<String> {
        const PAIRWISE: usize = 16;
        let keys = || self.raw_entries().map(|(k, _)| k);
        if keys().nth(PAIRWISE).is_none() {
            return keys()
                .enumerate()
                .find(|&(i, k)| keys().take(i).any(|earlier| pct::same_decoded(earlier, k)))
                .map(|(_, k)| pct::decode(k).into_owned());
        }
        let mut sorted: Vec<Cow<'_, str>> = keys().map(pct::decode).collect();
        crate::sort::sort(&mut sorted);
        sorted
            .windows(2)
            .find(|w| w[0] == w[1])
            .map(|w| w[0].clone().into_owned())
    }

    /// Whether the value is empty, as an undefined one's expansion is in some places: an
    /// empty string, or one empty item (`{;v*}` of `[""]` writes `;v`).
    pub(super) fn is_empty_value(&self) -> bool {
        let mut parts = self.raw_parts();
        parts.next().is_none_or(str::is_empty) && parts.next().is_none()
    }

    /// Whether this occurrence of a repeated name agrees with the capture that gives the
    /// name's value: a prefix one is the value's first characters (the value a single
    /// string), a whole one has the same items, keys and values, decoded (an explode of a
    /// string writes one item). A `{+v}` or `{#v}` text with a raw comma agrees as a string,
    /// and with a list or map whose parts, decoded and joined by commas, are its text decoded:
    /// such an expansion writes a list's items raw, commas included, a comma between them.
    /// (Such a text gives the name's value only where every other whole occurrence is an
    /// explode of one item or such a text too, and then as a string: a value is never read off
    /// it as a list.)
    pub(super) fn agrees_with(&self, value: &Capture<'_>) -> bool {
        if self.spec.prefix != 0 {
            let mut parts = value.raw_parts();
            let (Some(whole), None) = (parts.next(), parts.next()) else {
                return false;
            };
            return pct::is_decoded_prefix(self.raw, whole, usize::from(self.spec.prefix));
        }
        same_parts(self, value) || self.may_be_list() && joins_to(value, self.raw)
    }

    /// Whether expansion writes this text from a list or map as well as from a string: a
    /// whole `{+v}` or `{#v}` occurrence holding a raw comma, which such an expansion writes
    /// between items and passes through in a string (`{+v}` of `[a, b]` and of `"a,b"` both
    /// write `a,b`). It reads as a string (section 2).
    pub(super) fn may_be_list(&self) -> bool {
        self.op.allows_reserved()
            && !self.spec.explode
            && self.spec.prefix == 0
            && self.raw.as_bytes().contains(&b',')
    }

    /// Whether each item of this capture is bound to one path segment: a value of an
    /// expression that cannot cross `/`, or an item of `{/v*}`, whose separator is `/`. (Query
    /// parameters are not segments.)
    pub(crate) fn items_are_segments(&self) -> bool {
        items_are_segments(self.op, self.in_tail)
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

/// Whether two captures have the same [raw parts](Capture::raw_parts), in order, decoded.
/// Out of line: only repeated names ask.
#[inline(never)]
fn same_parts(mine: &Capture<'_>, theirs: &Capture<'_>) -> bool {
    let mut theirs = theirs.raw_parts();
    mine.raw_parts().all(|part| {
        theirs
            .next()
            .is_some_and(|other| pct::same_decoded(part, other))
    }) && theirs.next().is_none()
}

/// Whether `value`'s [raw parts](Capture::raw_parts), decoded and joined by commas, are what
/// `text` decodes to: how a `{+v}` or `{#v}` occurrence's text agrees with a list or map
/// (see [`Capture::agrees_with`]). Byte by byte, without a buffer.
#[inline(never)]
fn joins_to(value: &Capture<'_>, text: &str) -> bool {
    let mut text = pct::decoded_bytes(text);
    for (i, part) in value.raw_parts().enumerate() {
        if i > 0 && text.next() != Some(b',') {
            return false;
        }
        if !pct::decoded_bytes(part).all(|b| text.next() == Some(b)) {
            return false;
        }
    }
    text.next().is_none()
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

/// Whether the items of a variable under `op` are path segments, which cannot hold a `/`: not
/// in the query tail, and not where reserved characters are allowed.
pub(super) fn items_are_segments(op: Operator, in_tail: bool) -> bool {
    !in_tail && !op.allows_reserved()
}
