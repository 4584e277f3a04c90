//! Expansion (RFC 6570 §3.2): writing a template with variables into any `fmt::Write`.
//!
//! The expander walks the compiled nodes once. Literals are copied with non-ASCII characters
//! percent-encoded; each expression follows the algorithm of RFC 6570 Appendix A, writing every
//! value straight through an [`Encoder`] that percent-encodes it (and cuts it to its prefix
//! length) as it goes, so no intermediate string is built.

use std::fmt::{self, Write};

use crate::error::{Error, ErrorKind};
use crate::pct::{Encoder, write_literal};
use crate::template::{Node, Operator, Parsed, VarNode, VarSpec};
#[cfg(feature = "json")]
use crate::vars::AsVarValue;
use crate::vars::{VarList, VarMap, VarValue, Vars, Visit, VisitError, VisitErrorKind};

/// Expands `template` with `vars` into `out`.
pub(crate) fn expand<V, W>(template: &Parsed, vars: &V, out: &mut W) -> Result<(), Error>
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

/// Writes one variable of an expression with operator `op`, and says whether it wrote
/// anything. `first` says that nothing of the expression was written before it, so that it
/// leads with the operator's `first` rather than its separator. Partial expansion writes the
/// variables it was given with this, one at a time.
pub(crate) fn expand_var<W: Write + ?Sized>(
    op: Operator,
    spec: &VarSpec<'_>,
    value: VarValue<'_>,
    first: bool,
    out: &mut W,
) -> Result<bool, ErrorKind> {
    let spec = Spec {
        name: spec.name(),
        prefix: spec.prefix().unwrap_or(0),
        explode: spec.is_exploded(),
    };
    write_var(Style::of(op), &spec, value, first, out)
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
    fn of(template: &'t Parsed, node: &Node) -> Self {
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
    template: &Parsed,
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
        first &= !write_var(style, &spec, vars.get(spec.name()), first, out)?;
    }
    Ok(())
}

/// Writes one variable, led by `first` or `sep`, and says whether it wrote anything. Never
/// inlined: expansion and partial expansion then share one copy of it per writer type, rather
/// than one each (the WebAssembly module's size counts).
#[inline(never)]
fn write_var<W: Write + ?Sized>(
    style: &Style,
    spec: &Spec<'_>,
    value: VarValue<'_>,
    first: bool,
    out: &mut W,
) -> Result<bool, ErrorKind> {
    let lead = if first { style.first } else { style.sep };
    expand_value(style, spec, value, lead, out).map_err(|VisitError(kind)| match kind {
        VisitErrorKind::Write => ErrorKind::Write,
        VisitErrorKind::Nested => composite_error(spec, value),
    })
}

/// The error for a list or map that a scalar's place holds: under a prefix modifier, or nested.
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
pub(crate) fn is_defined(value: VarValue<'_>) -> bool {
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
    if stop { Err(NESTED) } else { Ok(()) }
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
                    enc.set_prefix(prefix);
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
/// item.
///
/// Strings, most items, get a call of their own: in that copy of `f` the compiler knows the
/// value is a string and drops the dispatch on the `VarValue` that `to_value` would build.
#[inline]
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
#[inline]
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

/// What expansion writes through an encoder: separators and names as they are, scalars
/// encoded, and refusals as [`Visit`] errors that the expander turns into its own.
trait WriteValues {
    fn raw(&mut self, s: &str) -> Visit;
    fn before_item(&mut self, first: &mut bool, lead: &str, sep: &str) -> Visit;
    fn scalar(&mut self, value: VarValue<'_>) -> Visit;
    fn display(&mut self, d: &dyn fmt::Display) -> Visit;
}

impl<W: Write + ?Sized> WriteValues for Encoder<'_, W> {
    /// Writes text that needs no encoding (names, separators).
    fn raw(&mut self, s: &str) -> Visit {
        self.verbatim(s).map_err(|_| WRITE)
    }

    /// Writes what goes before an item of a list or map: `lead` before the first, `sep`
    /// before the others.
    fn before_item(&mut self, first: &mut bool, lead: &str, sep: &str) -> Visit {
        self.raw(if std::mem::take(first) { lead } else { sep })
    }

    /// Writes one scalar value; composite values here are nested and refused. Always inline:
    /// it runs for every item of a list or map, and the callbacks that write items would
    /// otherwise pay a call and a dispatch on the value for each.
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
                let t = Parsed::parse(&format!("{{{op}l{explode},m{explode}}}")).unwrap();
                let plain: [(&str, VarValue<'_>); 2] =
                    [("l", VarValue::List(&list)), ("m", VarValue::Map(&map))];
                let text = |vars: &dyn Fn(&mut String) -> Result<(), Error>| {
                    let mut out = String::new();
                    vars(&mut out).map(|()| out)
                };
                assert_eq!(
                    text(&|out| expand(&t, &json, out)).unwrap(),
                    text(&|out| expand(&t, &plain[..], out)).unwrap(),
                    "{t:?}"
                );
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
}
