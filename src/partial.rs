//! Partial expansion: [`UriTemplate::partial`] writes the variables it is given into the
//! template and keeps the others as expressions, in a [`Partial`].
//!
//! The one rule (semantics, section 17): expanding the rest later gives exactly what expanding
//! everything at once would. Where an operator lets a given variable stand alone (`/`, `.`,
//! `;`, `&`, and `?` once its first value is settled), it is written and the unknown ones around
//! it are regrouped; where it does not, the expression is kept whole and the given values stay
//! bound to the result, owned, for its expansion to use.
//!
//! It sits above expansion and [`UriTemplate`]: it walks a template's public parts and writes
//! each given variable with the expander's own code, so what it writes is what expansion
//! writes.

use std::fmt::{self, Write as _};

use crate::expand::{expand_var, is_defined};
use crate::template::{Component, Expression, Limits, Operator, VarSpec};
use crate::vars::{VarList, VarMap, VarValue, Vars, Visit};
use crate::{Error, ErrorKind, UriTemplate};

/// A template with some of its variables written in: what [`UriTemplate::partial`] returns.
///
/// Its [`template`](Self::template) holds the variables still to give; values that could not be
/// written into it stay [bound](Self::bound_names), and [`expand`](Self::expand) uses them.
/// `Display` writes the template's text; two are equal when their templates and bound values are.
///
/// ```
/// use rfc6570::UriTemplate;
///
/// let t = UriTemplate::parse("search://docs{?q,lang,page}")?;
/// let p = t.partial(&[("q", "uri templates"), ("page", "2")])?;
/// assert_eq!(p.to_string(), "search://docs?q=uri%20templates{&lang}&page=2");
/// assert_eq!(p.expand(&[("lang", "en")])?, t.expand(&[("q", "uri templates"), ("lang", "en"), ("page", "2")])?);
///
/// // `{x,y}` with `x` alone cannot be written: the `,` before `y` depends on `y`.
/// let p = UriTemplate::parse("{x,y}")?.partial(&[("x", "1")])?;
/// assert_eq!((p.to_string(), p.bound_names().collect::<Vec<_>>()), ("{x,y}".into(), vec!["x"]));
/// assert_eq!(p.expand(&[("y", "2")])?, "1,2");
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Partial {
    template: UriTemplate,
    bound: Bound,
}

impl UriTemplate {
    /// Expands the variables of `vars` that are defined and keeps the others, so that
    /// [`Partial::expand`] with the rest gives what [`expand`](Self::expand) with all of them
    /// would. Undefined values (absent, `null`, empty lists and maps) are not given: their
    /// expressions stay.
    ///
    /// ```
    /// use rfc6570::UriTemplate;
    ///
    /// let t = UriTemplate::parse("file:///{+root}{/a,b,c}")?;
    /// let p = t.partial(&[("root", "srv/data"), ("b", "x y")])?;
    /// assert_eq!(p.to_string(), "file:///srv/data{/a}/x%20y{/c}");
    /// assert_eq!(p.expand(&[("c", "z")])?, "file:///srv/data/x%20y/z");
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// What [`expand`](Self::expand) would refuse in the given values (a list under a prefix
    /// modifier, a nested list), with the same kind and position.
    pub fn partial<V: Vars + ?Sized>(&self, vars: &V) -> Result<Partial, Error> {
        partial_of(self, &vars)
    }
}

/// [`UriTemplate::partial`], compiled once: through `dyn` values and writers, so that each
/// caller's type of variables adds no copy of the expander (the WebAssembly module's size
/// counts).
fn partial_of(template: &UriTemplate, vars: &dyn Vars) -> Result<Partial, Error> {
    // Each given value is written, or checked as it is bound: whatever expansion refuses in
    // them is refused here, at the same expression.
    let mut text = String::with_capacity(template.as_str().len());
    let mut bound = Bound::default();
    for component in template.components() {
        match component {
            Component::Literal(literal) => text.push_str(literal),
            Component::Expression(e) => {
                let rewrite = if e.operator().separator() == b',' {
                    rewrite_whole
                } else {
                    rewrite_each
                };
                rewrite(&e, vars, &mut text, &mut bound)
                    .map_err(|kind| Error::new(kind, Some(e.offset()), template.as_str()))?;
            }
        }
    }
    // The result is no larger than the template and the values written into it, which the
    // caller has already accepted: the parse limits were for the template alone.
    let unlimited = Limits::new()
        .max_template_len(usize::MAX)
        .max_expressions(usize::MAX);
    let template = UriTemplate::parse_with_limits(&text, &unlimited)?;
    Ok(Partial { template, bound })
}

impl Partial {
    /// The template of the variables still to give.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let p = UriTemplate::parse("log://build/{job_id}{?lines}")?.partial(&[("job_id", 42)])?;
    /// let left: Vec<&str> = p.template().variables().map(|v| v.name()).collect();
    /// assert_eq!(left, ["lines"]);
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn template(&self) -> &UriTemplate {
        &self.template
    }

    /// The names of the values that could not be written into the template and are kept for
    /// its expansion, in the order they were met. Empty when the template alone says it all.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let t = UriTemplate::parse("{?x,y,z}")?;
    /// // `y`'s `?` or `&` depends on `x`, which is not given: `y` stays bound.
    /// let p = t.partial(&[("y", "2")])?;
    /// assert_eq!(p.bound_names().collect::<Vec<_>>(), ["y"]);
    /// assert_eq!(p.to_string(), "{?x,y,z}");
    /// assert_eq!(p.expand(&[("z", "3")])?, "?y=2&z=3");
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    pub fn bound_names(&self) -> impl Iterator<Item = &str> + '_ {
        self.bound.0.iter().map(|(name, _)| &**name)
    }

    /// Expands the rest: `vars` with the bound values. A bound value wins over one of the same
    /// name in `vars`, as a value already written into the template would.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let p = UriTemplate::parse("{/a,b}")?.partial(&[("b", "2")])?;
    /// assert_eq!(p.expand(&[("a", "1")])?, "/1/2");
    /// assert_eq!(p.expand(&[("b", "other")])?, "/2");
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// What [`UriTemplate::expand`] refuses; positions are offsets into
    /// [`template`](Self::template).
    pub fn expand<V: Vars + ?Sized>(&self, vars: &V) -> Result<String, Error> {
        self.template.expand(&self.with(vars))
    }

    /// Expands the rest into any `fmt::Write`, as [`expand`](Self::expand) does.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let p = UriTemplate::parse("{x,y}")?.partial(&[("x", "1")])?;
    /// let mut out = String::from("=> ");
    /// p.expand_to(&[("y", "2")], &mut out)?;
    /// assert_eq!(out, "=> 1,2");
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`expand`](Self::expand), and [`ErrorKind::Write`](crate::ErrorKind::Write) when
    /// `out` fails.
    pub fn expand_to<V, W>(&self, vars: &V, out: &mut W) -> Result<(), Error>
    where
        V: Vars + ?Sized,
        W: fmt::Write + ?Sized,
    {
        self.template.expand_to(&self.with(vars), out)
    }

    /// Expands some more of the rest: a partial expansion of this one, whose values and bound
    /// ones are given.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// let p = UriTemplate::parse("{x,y}{/z}")?.partial(&[("x", "1")])?;
    /// let q = p.partial(&[("y", "2")])?;
    /// assert_eq!((q.to_string(), q.bound_names().count()), ("1,2{/z}".into(), 0));
    /// # Ok::<(), rfc6570::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`UriTemplate::partial`].
    pub fn partial<V: Vars + ?Sized>(&self, vars: &V) -> Result<Partial, Error> {
        self.template.partial(&self.with(vars))
    }

    fn with<'a, V: Vars + ?Sized>(&'a self, rest: &'a V) -> WithBound<'a, V> {
        WithBound {
            bound: &self.bound,
            rest,
        }
    }
}

/// A template with nothing given: nothing written, nothing bound.
///
/// ```
/// use rfc6570::{Partial, UriTemplate};
///
/// let p = Partial::from(UriTemplate::parse("{x}{/y}")?);
/// assert_eq!((p.to_string(), p.bound_names().count()), ("{x}{/y}".into(), 0));
/// # Ok::<(), rfc6570::Error>(())
/// ```
impl From<UriTemplate> for Partial {
    fn from(template: UriTemplate) -> Self {
        Self {
            template,
            bound: Bound::default(),
        }
    }
}

impl fmt::Display for Partial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.template.as_str())
    }
}

impl fmt::Debug for Partial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Partial")
            .field("template", &self.template.as_str())
            .field("bound", &self.bound)
            .finish()
    }
}

/// Simple, `+` and `#` expressions join their values with `,`, which no operator writes first:
/// a given value can be written only when every other one of the expression is given too.
fn rewrite_whole(
    e: &Expression<'_>,
    vars: &dyn Vars,
    out: &mut String,
    bound: &mut Bound,
) -> Result<(), ErrorKind> {
    let given = e
        .variables()
        .filter(|spec| is_defined(vars.get(spec.name())))
        .count();
    if given == e.variables().len() {
        let mut first = true;
        for spec in e.variables() {
            first &= !expand_var(
                e.operator(),
                &spec,
                vars.get(spec.name()),
                first,
                writer(out),
            )?;
        }
        return Ok(());
    }
    out.push_str(e.as_str());
    for spec in e.variables() {
        bound.bind(e.operator(), &spec, vars.get(spec.name()))?;
    }
    Ok(())
}

/// `/`, `.`, `;` and `&` lead every value with their separator, so each variable stands
/// alone: given ones are written, and runs of unknown ones kept as one expression. `?` leads
/// its first value with `?` and the others with `&`: once a value is settled first, the rest
/// are `&`'s; until then, a given value after an unknown one cannot be written and stays bound.
fn rewrite_each(
    e: &Expression<'_>,
    vars: &dyn Vars,
    out: &mut String,
    bound: &mut Bound,
) -> Result<(), ErrorKind> {
    let op = e.operator();
    // The operator of the unknown variables that follow a given one.
    let after_given = match op {
        Operator::Query => Operator::QueryContinuation,
        other => other,
    };
    let lead_is_fixed = op.prefix().as_bytes() == [op.separator()];
    let mut kept = Kept::default();
    // Whether a defined value comes before, written or bound; and an unknown one.
    let (mut given_before, mut unknown_before) = (false, false);
    for spec in e.variables() {
        let value = vars.get(spec.name());
        if !is_defined(value) {
            kept.push(out, if given_before { after_given } else { op }, &spec);
            unknown_before = true;
        } else if unknown_before && !given_before && !lead_is_fixed {
            kept.push(out, op, &spec);
            bound.bind(op, &spec, value)?;
            given_before = true;
        } else {
            kept.close(out);
            expand_var(op, &spec, value, !given_before, writer(out))?;
            given_before = true;
        }
    }
    kept.close(out);
    Ok(())
}

/// The expression being written for kept variables, open until a written value or the end.
#[derive(Default)]
struct Kept {
    open: bool,
}

impl Kept {
    /// Adds `spec` to the open expression, or opens one with `op`.
    fn push(&mut self, out: &mut String, op: Operator, spec: &VarSpec<'_>) {
        if self.open {
            out.push(',');
        } else {
            out.push('{');
            out.extend(op.symbol());
            self.open = true;
        }
        let _ = write!(out, "{spec}");
    }

    fn close(&mut self, out: &mut String) {
        if std::mem::take(&mut self.open) {
            out.push('}');
        }
    }
}

/// The given values that could not be written, owned, by name.
#[derive(Clone, Default, PartialEq, Eq)]
struct Bound(Vec<(Box<str>, Owned)>);

impl Bound {
    /// Keeps a defined value, once per name, once expansion has taken it where it stands (so
    /// that what it refuses is refused now); undefined ones are for the caller to give.
    fn bind(
        &mut self,
        op: Operator,
        spec: &VarSpec<'_>,
        value: VarValue<'_>,
    ) -> Result<(), ErrorKind> {
        if !is_defined(value) {
            return Ok(());
        }
        expand_var(op, spec, value, true, &mut Discard as &mut dyn fmt::Write)?;
        let name = spec.name();
        if !self.0.iter().any(|(n, _)| &**n == name) {
            self.0.push((name.into(), Owned::of(value)));
        }
        Ok(())
    }
}

impl Vars for Bound {
    fn get(&self, name: &str) -> VarValue<'_> {
        self.0
            .iter()
            .find(|(n, _)| &**n == name)
            .map_or(VarValue::Undefined, |(_, v)| v.view())
    }
}

impl fmt::Debug for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.0.iter().map(|(n, v)| (n, v)))
            .finish()
    }
}

/// A value as expansion reads it, owned: numbers and booleans as their text.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Owned {
    Undefined,
    Text(Box<str>),
    List(Box<[Owned]>),
    Map(Box<[(Box<str>, Owned)]>),
}

impl Owned {
    fn of(value: VarValue<'_>) -> Self {
        match value {
            VarValue::Undefined => Self::Undefined,
            VarValue::String(s) => Self::Text(s.into()),
            VarValue::Display(d) => Self::Text(d.to_string().into()),
            VarValue::List(list) => {
                let mut items = Vec::new();
                let _ = list.for_each_item(&mut |item| {
                    items.push(Self::of(item));
                    Ok(())
                });
                Self::List(items.into())
            }
            VarValue::Map(map) => {
                let mut entries = Vec::new();
                let _ = map.for_each_entry(&mut |key, value| {
                    entries.push((key.into(), Self::of(value)));
                    Ok(())
                });
                Self::Map(entries.into())
            }
        }
    }

    fn view(&self) -> VarValue<'_> {
        match self {
            Self::Undefined => VarValue::Undefined,
            Self::Text(s) => VarValue::String(s),
            Self::List(items) => VarValue::List(items),
            Self::Map(entries) => VarValue::Map(entries),
        }
    }
}

impl VarList for Box<[Owned]> {
    fn is_empty(&self) -> bool {
        <[Owned]>::is_empty(self)
    }
    fn for_each_item(&self, f: &mut dyn FnMut(VarValue<'_>) -> Visit) -> Visit {
        self.iter().try_for_each(|item| f(item.view()))
    }
}

impl VarMap for Box<[(Box<str>, Owned)]> {
    fn is_empty(&self) -> bool {
        <[(Box<str>, Owned)]>::is_empty(self)
    }
    fn for_each_entry(&self, f: &mut dyn FnMut(&str, VarValue<'_>) -> Visit) -> Visit {
        self.iter()
            .try_for_each(|(key, value)| f(key, value.view()))
    }
}

/// The bound values over the caller's: what a [`Partial`] expands with.
struct WithBound<'a, V: ?Sized> {
    bound: &'a Bound,
    rest: &'a V,
}

impl<V: Vars + ?Sized> Vars for WithBound<'_, V> {
    fn get(&self, name: &str) -> VarValue<'_> {
        match self.bound.get(name) {
            VarValue::Undefined => self.rest.get(name),
            value => value,
        }
    }
}

/// `out` as the one writer type partial expansion writes through.
fn writer(out: &mut String) -> &mut dyn fmt::Write {
    out
}

/// A writer that keeps nothing: a value expanded for its refusals alone.
struct Discard;

impl fmt::Write for Discard {
    fn write_str(&mut self, _: &str) -> fmt::Result {
        Ok(())
    }
}
