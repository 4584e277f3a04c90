//! Expansion (RFC 6570 §3.2): writing a template with variables into any `fmt::Write`.
//!
//! The expander walks the compiled nodes once. Literals are copied with non-ASCII characters
//! percent-encoded; each expression follows the algorithm of RFC 6570 Appendix A, writing every
//! value straight through an [`Encoder`] that percent-encodes it (and cuts it to its prefix
//! length) as it goes, so no intermediate string is built.

use std::fmt::{self, Write};

use percent_encoding::{percent_encode_byte, utf8_percent_encode, CONTROLS};

use crate::error::{Error, ErrorKind};
use crate::template::{Node, Operator, UriTemplate, VarNode};
#[cfg(feature = "json")]
use crate::vars::AsVarValue;
use crate::vars::{VarList, VarMap, VarValue, Vars, Visit, VisitError, VisitErrorKind};

/// Expands `template` with `vars` into `out`.
pub(crate) fn expand<V, W>(template: &UriTemplate, vars: &V, out: &mut W) -> Result<(), Error>
where
    V: Vars + ?Sized,
    W: Write + ?Sized,
{
    // Walks the compiled nodes directly: a literal, or an expression header and its variables.
    let nodes = template.nodes();
    let mut i = 0;
    while i < nodes.len() {
        match nodes[i] {
            Node::Literal { start, end } => {
                write_literal(template.span(start, end), out)
                    .map_err(|_| Error::new(ErrorKind::Write, None, template.as_str()))?;
                i += 1;
            }
            Node::Expression {
                op,
                vars: count,
                start,
                ..
            } => {
                let specs = &nodes[i + 1..i + 1 + usize::from(count)];
                expand_expression(template, Style::of(op), specs, vars, out).map_err(|kind| {
                    // A writer failure is not about the template, wherever it happens.
                    let at = (kind != ErrorKind::Write).then_some(start as usize);
                    Error::new(kind, at, template.as_str())
                })?;
                i += 1 + usize::from(count);
            }
            Node::Var(_) => unreachable!("variables follow their expression"),
        }
    }
    Ok(())
}

/// A variable spec as the expander reads it off a [`Node::Var`].
#[derive(Clone, Copy)]
struct Spec<'t> {
    name: &'t str,
    prefix: u16,
    explode: bool,
}

impl<'t> Spec<'t> {
    #[inline]
    fn of(template: &'t UriTemplate, node: &Node) -> Self {
        match *node {
            Node::Var(VarNode {
                name_start,
                name_end,
                prefix,
                explode,
            }) => Self {
                name: template.span(name_start, name_end),
                prefix,
                explode,
            },
            _ => unreachable!("an expression's nodes are variables"),
        }
    }

    fn name(&self) -> &'t str {
        self.name
    }

    fn prefix(&self) -> Option<u16> {
        (self.prefix != 0).then_some(self.prefix)
    }

    fn is_exploded(&self) -> bool {
        self.explode
    }
}

/// Copies a literal, percent-encoding its non-ASCII characters (RFC 6570 §3.1). Triplets
/// already in the literal are valid (the grammar checked them) and are copied as they are.
fn write_literal<W: Write + ?Sized>(text: &str, out: &mut W) -> fmt::Result {
    if text.is_ascii() {
        return out.write_str(text);
    }
    utf8_percent_encode(text, CONTROLS).try_for_each(|chunk| out.write_str(chunk))
}

/// How an operator expands: its row of the table in RFC 6570 Appendix A. The expander reads
/// these as fields, once per expression, rather than matching on the operator for each
/// variable and item.
struct Style {
    /// `first`: written before the first defined value.
    first: &'static str,
    /// `sep`: written between values and between exploded items.
    sep: &'static str,
    /// `named`: values are written as `name=value`.
    named: bool,
    /// `ifemp`: written after the name of an empty value.
    if_empty: &'static str,
    /// `allow` is `U+R`: reserved characters and triplets pass through.
    reserved: bool,
}

impl Style {
    const fn new(op: Operator) -> Self {
        Self {
            first: op.prefix(),
            sep: sep_str(op),
            named: op.is_named(),
            if_empty: op.if_empty(),
            reserved: op.allows_reserved(),
        }
    }

    fn of(op: Operator) -> &'static Self {
        &STYLES[op as usize]
    }
}

/// The rows of [`Style`], in the order the operators are declared (a test checks it).
static STYLES: [Style; 8] = {
    use Operator::*;
    [
        Style::new(Simple),
        Style::new(Reserved),
        Style::new(Fragment),
        Style::new(Label),
        Style::new(Path),
        Style::new(PathParam),
        Style::new(Query),
        Style::new(QueryContinuation),
    ]
};

fn expand_expression<V, W>(
    template: &UriTemplate,
    style: &Style,
    specs: &[Node],
    vars: &V,
    out: &mut W,
) -> Result<(), ErrorKind>
where
    V: Vars + ?Sized,
    W: Write + ?Sized,
{
    let mut first = true;
    for node in specs {
        let spec = Spec::of(template, node);
        let value = vars.get(spec.name());
        let lead = if first { style.first } else { style.sep };
        let wrote =
            expand_value(style, &spec, value, lead, out).map_err(
                |VisitError(kind)| match kind {
                    VisitErrorKind::Write => ErrorKind::Write,
                    VisitErrorKind::Nested => composite_error(&spec, value),
                },
            )?;
        first &= !wrote;
    }
    Ok(())
}

/// Writes text that needs no encoding. Separators and operator prefixes are one byte or none:
/// `write_char` appends a byte without the copy call that `write_str` makes. A one-byte `str`
/// is ASCII, but only the guard tells the compiler so, which lets it drop the multi-byte half
/// of `String::push`.
#[inline]
fn write_raw<W: Write + ?Sized>(out: &mut W, s: &str) -> fmt::Result {
    match s.as_bytes() {
        [] => Ok(()),
        &[b] if b.is_ascii() => out.write_char(char::from(b)),
        _ => out.write_str(s),
    }
}

fn composite_error(spec: &Spec<'_>, value: VarValue<'_>) -> ErrorKind {
    let var = spec.name().to_owned();
    match (spec.prefix(), value) {
        (Some(_), VarValue::List(_) | VarValue::Map(_)) => ErrorKind::PrefixOnComposite { var },
        _ => ErrorKind::NestedComposite { var },
    }
}

const WRITE: VisitError = VisitError(VisitErrorKind::Write);
const NESTED: VisitError = VisitError(VisitErrorKind::Nested);

const fn sep_str(op: Operator) -> &'static str {
    match op.separator() {
        b'.' => ".",
        b'/' => "/",
        b';' => ";",
        b'&' => "&",
        _ => ",",
    }
}

/// RFC 6570 §2.3: undefined, `null`, and lists or maps with no defined members are skipped. A
/// member that is itself a list or map, even an empty one, counts as defined, so that expansion
/// refuses it as nested.
fn is_defined(value: VarValue<'_>) -> bool {
    let member = |v: VarValue<'_>| !matches!(v, VarValue::Undefined);
    match value {
        VarValue::Undefined => false,
        VarValue::String(_) | VarValue::Display(_) => true,
        VarValue::List(list) => {
            !list.is_empty() && each_item(list, |v| stop_if(member(v))).is_err()
        }
        VarValue::Map(map) => {
            !map.is_empty() && each_entry(map, |_, v| stop_if(member(v))).is_err()
        }
    }
}

/// A visit callback result that stops the walk when `stop` holds.
fn stop_if(stop: bool) -> Visit {
    if stop {
        Err(NESTED)
    } else {
        Ok(())
    }
}

fn is_empty_scalar(value: VarValue<'_>) -> bool {
    matches!(value, VarValue::String(""))
}

/// Writes one variable, `lead` (its expression's prefix or separator) first, and says whether
/// it wrote anything. A list or map is written in one pass: `lead` goes out with its first
/// defined item, and one without any is undefined and writes nothing (RFC 6570 §2.3).
///
/// The item callbacks are inlined (`#[inline(always)]`) into the loops of [`each_item`] and
/// [`each_entry`]: each is used twice, for JSON and for other values, and the compiler would
/// otherwise keep it out of line, paying a call per item even for JSON.
fn expand_value<W: Write + ?Sized>(
    style: &Style,
    spec: &Spec<'_>,
    value: VarValue<'_>,
    lead: &str,
    out: &mut W,
) -> Result<bool, VisitError> {
    let mut enc = Encoder::new(out, style.reserved);
    // Whether no item has been written yet, for lists and maps.
    let mut first = true;
    match value {
        VarValue::Undefined => return Ok(false),
        VarValue::String(_) | VarValue::Display(_) => {
            enc.raw(lead)?;
            if style.named {
                enc.raw(spec.name())?;
                if is_empty_scalar(value) {
                    enc.raw(style.if_empty)?;
                    return Ok(true);
                }
                enc.raw("=")?;
            }
            match (value, spec.prefix()) {
                // The common case, without the detours a prefix or a number takes.
                (VarValue::String(s), None) => enc.encode(s).map_err(|_| WRITE)?,
                (_, prefix) => {
                    enc.limit = prefix.map(usize::from);
                    enc.scalar(value)?;
                }
            }
            return Ok(true);
        }
        VarValue::List(_) | VarValue::Map(_) if spec.prefix().is_some() => {
            return if is_defined(value) {
                Err(NESTED)
            } else {
                Ok(false)
            };
        }
        VarValue::List(list) if !spec.is_exploded() => each_item(
            list,
            #[inline(always)]
            |item| {
                if matches!(item, VarValue::Undefined) {
                    return Ok(());
                }
                if std::mem::take(&mut first) {
                    enc.raw(lead)?;
                    if style.named {
                        enc.raw(spec.name())?;
                        enc.raw(if joins_to_empty(value) {
                            style.if_empty
                        } else {
                            "="
                        })?;
                    }
                } else {
                    enc.raw(",")?;
                }
                enc.scalar(item)
            },
        )?,
        VarValue::List(list) => each_item(
            list,
            #[inline(always)]
            |item| {
                if matches!(item, VarValue::Undefined) {
                    return Ok(());
                }
                enc.before_item(&mut first, lead, style.sep)?;
                if style.named {
                    enc.raw(spec.name())?;
                    if is_empty_scalar(item) {
                        return enc.raw(style.if_empty);
                    }
                    enc.raw("=")?;
                }
                enc.scalar(item)
            },
        )?,
        VarValue::Map(map) if !spec.is_exploded() => each_entry(
            map,
            #[inline(always)]
            |key, v| {
                if matches!(v, VarValue::Undefined) {
                    return Ok(());
                }
                if std::mem::take(&mut first) {
                    enc.raw(lead)?;
                    if style.named {
                        enc.raw(spec.name())?;
                        enc.raw("=")?;
                    }
                } else {
                    enc.raw(",")?;
                }
                enc.scalar(VarValue::String(key))?;
                enc.raw(",")?;
                enc.scalar(v)
            },
        )?,
        VarValue::Map(map) => each_entry(
            map,
            #[inline(always)]
            |key, v| {
                if matches!(v, VarValue::Undefined) {
                    return Ok(());
                }
                enc.before_item(&mut first, lead, style.sep)?;
                enc.scalar(VarValue::String(key))?;
                if style.named && is_empty_scalar(v) {
                    return enc.raw(style.if_empty);
                }
                enc.raw("=")?;
                enc.scalar(v)
            },
        )?,
    }
    Ok(!first)
}

/// Calls `f` with each item of `list`. A JSON array is walked here, in a loop that the
/// compiler can inline `f` into; any other list through its callback, one dynamic call per
/// item (on the spec examples, the callbacks cost about a third of all instructions).
///
/// Strings, most items, get a call of their own: in that copy of `f` the compiler knows the
/// value is a string and drops the dispatch on the `VarValue` that `to_value` would build.
#[inline(always)]
fn each_item(list: &dyn VarList, mut f: impl FnMut(VarValue<'_>) -> Visit) -> Visit {
    #[cfg(feature = "json")]
    if let Some(items) = list.as_json() {
        return items.iter().try_for_each(|item| match item {
            serde_json::Value::String(s) => f(VarValue::String(s)),
            _ => f(item.as_var_value()),
        });
    }
    list.for_each_item(&mut f)
}

/// Calls `f` with each entry of `map`; a JSON object is walked here, as in [`each_item`].
#[inline(always)]
fn each_entry(map: &dyn VarMap, mut f: impl FnMut(&str, VarValue<'_>) -> Visit) -> Visit {
    #[cfg(feature = "json")]
    if let Some(entries) = map.as_json() {
        return entries.iter().try_for_each(|(k, v)| match v {
            serde_json::Value::String(s) => f(k, VarValue::String(s)),
            _ => f(k, v.as_var_value()),
        });
    }
    map.for_each_entry(&mut f)
}

/// Whether a non-exploded list's joined value is the empty string: one empty item.
fn joins_to_empty(list: VarValue<'_>) -> bool {
    let VarValue::List(list) = list else {
        return false;
    };
    let mut items = 0;
    let mut empty = true;
    let _ = each_item(list, |item| {
        if is_defined(item) {
            items += 1;
            empty &= is_empty_scalar(item);
        }
        stop_if(items > 1)
    });
    items == 1 && empty
}

/// Writes values percent-encoded for one operator, optionally cut to a prefix length.
pub(crate) struct Encoder<'w, W: ?Sized> {
    out: &'w mut W,
    reserved: bool,
    /// Characters still allowed by a prefix modifier; `None` without one.
    limit: Option<usize>,
}

impl<'w, W: Write + ?Sized> Encoder<'w, W> {
    pub(crate) fn new(out: &'w mut W, reserved: bool) -> Self {
        Self {
            out,
            reserved,
            limit: None,
        }
    }

    /// Writes text that needs no encoding (names, separators).
    fn raw(&mut self, s: &str) -> Visit {
        write_raw(self.out, s).map_err(|_| WRITE)
    }

    /// Writes what goes before an item of a list or map: `lead` before the first, `sep`
    /// before the others.
    fn before_item(&mut self, first: &mut bool, lead: &str, sep: &str) -> Visit {
        self.raw(if std::mem::take(first) { lead } else { sep })
    }

    /// Writes one scalar value; composite values here are nested and refused. Always inline:
    /// it runs for every item of a list or map, and the callbacks that write items would
    /// otherwise pay a call and a dispatch on the value for each (on the spec examples, 3% of
    /// all instructions).
    #[inline(always)]
    fn scalar(&mut self, value: VarValue<'_>) -> Visit {
        match value {
            VarValue::String(s) => self.write_str(s).map_err(|_| WRITE),
            VarValue::Display(d) => self.display(d),
            VarValue::Undefined => Ok(()),
            VarValue::List(_) | VarValue::Map(_) => Err(NESTED),
        }
    }

    /// Writes a number or a boolean through its `Display`. Kept out of line: the formatting
    /// machinery's stack frame would otherwise be paid by every string.
    #[inline(never)]
    fn display(&mut self, d: &dyn fmt::Display) -> Visit {
        write!(self, "{d}").map_err(|_| WRITE)
    }

    /// Percent-encodes `s` for the operator: runs of bytes that need no encoding are written as
    /// one slice, every other byte as its triplet. In reserved expansion a `%` that starts a
    /// triplet is passed through, and any other `%` is encoded.
    fn encode(&mut self, s: &str) -> fmt::Result {
        let table = if self.reserved {
            &ENCODE_U_R
        } else {
            &ENCODE_U
        };
        match s.bytes().position(|b| table[usize::from(b)]) {
            None => self.out.write_str(s),
            Some(first) => self.encode_from(s, first, table),
        }
    }

    /// Encodes what is left of the prefix length `limit` (out of line, as prefixes are rare).
    #[inline(never)]
    fn encode_prefix(&mut self, s: &str, limit: usize) -> fmt::Result {
        let (end, used) = prefix_end(s, limit, self.reserved);
        self.limit = Some(limit - used);
        self.encode(&s[..end])
    }

    /// [`encode`](Self::encode) once a byte at `first` needs encoding; out of line, so that
    /// values with nothing to encode (most) pay only for the scan.
    #[inline(never)]
    fn encode_from(&mut self, s: &str, first: usize, table: &[bool; 256]) -> fmt::Result {
        let bytes = s.as_bytes();
        // Runs end only at ASCII bytes or at encoded (non-ASCII) bytes, so every slice below
        // starts and ends on a character boundary.
        let needs = |b: &u8| table[usize::from(*b)];
        let mut i = first;
        let mut run = 0;
        loop {
            if run < i {
                self.out.write_str(&s[run..i])?;
            }
            let b = bytes[i];
            if b == b'%' && self.reserved && is_triplet(&bytes[i..]) {
                self.out.write_str(&s[i..i + 3])?;
                i += 3;
            } else {
                self.out.write_str(percent_encode_byte(b))?;
                i += 1;
            }
            run = i;
            match bytes[i..].iter().position(needs) {
                Some(next) => i += next,
                None => break,
            }
        }
        if run < bytes.len() {
            self.out.write_str(&s[run..])?;
        }
        Ok(())
    }
}

/// Which bytes [`Encoder::encode`] writes as triplets for `allow: U` (everything but the
/// unreserved characters, and every non-ASCII byte).
static ENCODE_U: [bool; 256] = encode_table(false);

/// The same for `allow: U+R` (everything but the unreserved and reserved characters, and every
/// non-ASCII byte); `%` is in it and handled apart.
static ENCODE_U_R: [bool; 256] = encode_table(true);

const fn encode_table(reserved: bool) -> [bool; 256] {
    let mut table = [true; 256];
    let mut b = 0;
    while b < 128 {
        let byte = b as u8;
        let unreserved = crate::pct::is_unreserved(byte);
        let reserved_char = crate::pct::is_reserved(byte);
        table[b] = !(unreserved || reserved && reserved_char);
        b += 1;
    }
    table
}

impl<W: Write + ?Sized> Write for Encoder<'_, W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        match self.limit {
            None => self.encode(s),
            Some(limit) => self.encode_prefix(s, limit),
        }
    }
}

pub(crate) fn is_triplet(b: &[u8]) -> bool {
    b.len() >= 3 && b[0] == b'%' && b[1].is_ascii_hexdigit() && b[2].is_ascii_hexdigit()
}

/// The byte length of the first `limit` characters of `s`, and how many characters that is.
/// In reserved expansion a run of triplets that encodes one UTF-8 character counts once.
fn prefix_end(s: &str, limit: usize, reserved: bool) -> (usize, usize) {
    let bytes = s.as_bytes();
    let (mut i, mut count) = (0, 0);
    while i < bytes.len() {
        let (len, starts_char) = if reserved && is_triplet(&bytes[i..]) {
            (3, !is_continuation_triplet(bytes, i))
        } else {
            (utf8_len(bytes[i]), true)
        };
        if starts_char {
            if count == limit {
                break;
            }
            count += 1;
        }
        i += len;
    }
    (i, count)
}

fn is_continuation_triplet(bytes: &[u8], i: usize) -> bool {
    let hex = |b: u8| (b as char).to_digit(16).unwrap_or(0) as u8;
    let byte = hex(bytes[i + 1]) << 4 | hex(bytes[i + 2]);
    byte & 0xC0 == 0x80 && i >= 3 && is_triplet(&bytes[i - 3..])
}

fn utf8_len(lead: u8) -> usize {
    match lead {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

impl UriTemplate {
    /// Expands the template with `vars` into a new `String`.
    ///
    /// Variables come from anything that implements [`Vars`]: a `serde_json::Value` object, a
    /// map, a slice of `(name, value)` pairs, or your own type. Strings are percent-encoded as
    /// the operator requires; numbers and booleans expand as their JSON text; undefined
    /// variables, `null`, and empty lists and maps are skipped (RFC 6570 §2.3).
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
    /// [`ErrorKind::PrefixOnComposite`] when a prefix modifier meets a list or map, and
    /// [`ErrorKind::NestedComposite`] when a list or map holds another one; the error's position
    /// is the offending expression.
    pub fn expand<V: Vars + ?Sized>(&self, vars: &V) -> Result<String, Error> {
        let mut out = String::with_capacity(self.as_str().len() + 16);
        expand(self, vars, &mut out)?;
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
    /// As [`expand`](Self::expand), plus [`ErrorKind::Write`] when the writer fails.
    pub fn expand_to<V, W>(&self, vars: &V, out: &mut W) -> Result<(), Error>
    where
        V: Vars + ?Sized,
        W: Write + ?Sized,
    {
        expand(self, vars, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use percent_encoding::AsciiSet;

    /// Everything but the unreserved characters (ALPHA, DIGIT, `-`, `.`, `_`, `~`): the `allow: U`
    /// set of simple, label, path and query expansion.
    const UNRESERVED_ONLY: &AsciiSet = &CONTROLS
        .add(b' ')
        .add(b'!')
        .add(b'"')
        .add(b'#')
        .add(b'$')
        .add(b'%')
        .add(b'&')
        .add(b'\'')
        .add(b'(')
        .add(b')')
        .add(b'*')
        .add(b'+')
        .add(b',')
        .add(b'/')
        .add(b':')
        .add(b';')
        .add(b'<')
        .add(b'=')
        .add(b'>')
        .add(b'?')
        .add(b'@')
        .add(b'[')
        .add(b'\\')
        .add(b']')
        .add(b'^')
        .add(b'`')
        .add(b'{')
        .add(b'|')
        .add(b'}');

    /// The `allow: U+R` set of reserved and fragment expansion: reserved characters stay, and `%`
    /// is encoded here only when it does not start a triplet (see [`Encoder`]).
    const UNRESERVED_AND_RESERVED: &AsciiSet = &CONTROLS
        .add(b' ')
        .add(b'"')
        .add(b'%')
        .add(b'<')
        .add(b'>')
        .add(b'\\')
        .add(b'^')
        .add(b'`')
        .add(b'{')
        .add(b'|')
        .add(b'}');

    /// JSON arrays and objects take their own loop; other lists and maps the callback. Both
    /// write the same, for every operator, exploded or not.
    #[cfg(feature = "json")]
    #[test]
    fn json_lists_and_maps_expand_like_other_ones() {
        use std::collections::BTreeMap;
        let items = ["a b", "", "c/d"];
        let entries = [("k", "v w"), ("e", ""), ("x", "y")];
        let json = serde_json::json!({
            "l": items,
            "m": entries.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<BTreeMap<_, _>>(),
        });
        let list: Vec<&str> = items.to_vec();
        let map: BTreeMap<&str, &str> = entries.into_iter().collect();
        for op in ["", "+", "#", ".", "/", ";", "?", "&"] {
            for explode in ["", "*"] {
                let t = UriTemplate::parse(&format!("{{{op}l{explode},m{explode}}}")).unwrap();
                let plain: [(&str, VarValue<'_>); 2] =
                    [("l", VarValue::List(&list)), ("m", VarValue::Map(&map))];
                assert_eq!(t.expand(&json).unwrap(), t.expand(&plain).unwrap(), "{t}");
            }
        }
    }

    #[test]
    fn styles_are_the_operators_rows() {
        let ops: Vec<Operator> = std::iter::once(Operator::Simple)
            .chain(b"+#./;?&".iter().filter_map(|&b| Operator::from_byte(b)))
            .collect();
        assert_eq!(ops.len(), STYLES.len());
        for op in ops {
            let style = Style::of(op);
            assert_eq!(style.first, op.prefix(), "{op:?}");
            assert_eq!(style.sep.as_bytes(), [op.separator()], "{op:?}");
            assert_eq!(style.named, op.is_named(), "{op:?}");
            assert_eq!(style.if_empty, op.if_empty(), "{op:?}");
            assert_eq!(style.reserved, op.allows_reserved(), "{op:?}");
        }
    }

    #[test]
    fn encode_tables_agree_with_the_ascii_sets() {
        for b in 0..=255u8 {
            let s = [b];
            let u = percent_encoding::percent_encode(&s, UNRESERVED_ONLY).to_string();
            let r = percent_encoding::percent_encode(&s, UNRESERVED_AND_RESERVED).to_string();
            assert_eq!(ENCODE_U[usize::from(b)], u.len() == 3, "U {b:#x}");
            assert_eq!(ENCODE_U_R[usize::from(b)], r.len() == 3, "U+R {b:#x}");
        }
    }

    #[test]
    fn encoder_writes_runs_and_triplets() {
        let enc = |s: &str, reserved: bool| {
            let mut out = String::new();
            Encoder::new(&mut out, reserved).encode(s).unwrap();
            out
        };
        assert_eq!(enc("Hello World!", false), "Hello%20World%21");
        assert_eq!(enc("Hello World!", true), "Hello%20World!");
        assert_eq!(enc("caf\u{e9} %41%4x%", true), "caf%C3%A9%20%41%254x%25");
        assert_eq!(enc("caf\u{e9} %41", false), "caf%C3%A9%20%2541");
        assert_eq!(enc("", false), "");
        assert_eq!(enc("plain", true), "plain");
    }

    #[test]
    fn prefixes_count_characters() {
        assert_eq!(prefix_end("abc", 2, false), (2, 2));
        assert_eq!(prefix_end("\u{e9}t\u{e9}", 2, false), (3, 2));
        assert_eq!(prefix_end("%C3%A9x", 1, true), (6, 1));
        assert_eq!(prefix_end("%C3%A9x", 1, false), (1, 1));
        assert_eq!(prefix_end("ab", 5, false), (2, 2));
    }
}
