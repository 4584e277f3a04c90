//! A template's variables against a method's parameters: every variable is a parameter of its
//! own name, every parameter (but `&self` and one rmcp `RequestContext`) is a variable, a
//! variable that may be absent is an `Option`, an exploded one a `Vec` or a map.

use rfc6570::UriTemplate;
use rfc6570::template::Operator;
use syn::ext::IdentExt;
use syn::{FnArg, Ident, ImplItemFn, LitStr, Pat, Type};

/// What the generated adapter passes, in the method's order.
pub enum Arg {
    /// A template variable, deserialized as the parameter's type.
    Var {
        ident: Ident,
        name: String,
        ty: Box<Type>,
    },
    /// rmcp's request context.
    Context,
}

/// How a variable may be captured.
struct Shape {
    name: String,
    /// In a `{?..}` or `{&..}` expression: a URI may leave it out.
    may_be_absent: bool,
    exploded: bool,
    expression: String,
}

fn shapes(template: &UriTemplate) -> Vec<Shape> {
    let mut out = Vec::new();
    for expression in template.expressions() {
        let in_query = matches!(
            expression.operator(),
            Operator::Query | Operator::QueryContinuation
        );
        for var in expression.variables() {
            // A name the template repeats is one variable, and one parameter: a URI may leave
            // it out only where every occurrence may be left out.
            if let Some(seen) = out.iter_mut().find(|s: &&mut Shape| s.name == var.name()) {
                seen.may_be_absent &= in_query;
                seen.exploded |= var.is_exploded();
                continue;
            }
            out.push(Shape {
                name: var.name().to_owned(),
                may_be_absent: in_query,
                exploded: var.is_exploded(),
                expression: expression.as_str().to_owned(),
            });
        }
    }
    out
}

/// The arguments of `method`, checked against `template`; every mistake at once.
pub fn check(
    method: &ImplItemFn,
    template: &UriTemplate,
    literal: &LitStr,
) -> syn::Result<Vec<Arg>> {
    let shapes = shapes(template);
    let mut errors = Errors::default();
    let mut args = Vec::new();
    let mut inputs = method.sig.inputs.iter().peekable();
    if let Some(FnArg::Receiver(receiver)) = inputs.peek() {
        if let Err(e) = check_receiver(receiver) {
            errors.push(e);
        }
        inputs.next();
    } else {
        // No receiver: what comes first is a parameter, and is checked as one below.
        let method = &method.sig.ident;
        errors.push(syn::Error::new(
            method.span(),
            format!(
                "`{method}` has no `self`: a resource method takes `&self` first, the server's \
                 state (`async fn {method}(&self, ..)`)"
            ),
        ));
    }
    let mut context_seen = false;
    let mut misspelled: Vec<String> = Vec::new();
    for input in inputs {
        let FnArg::Typed(typed) = input else { continue };
        if is_path_ending(&typed.ty, "RequestContext") {
            if context_seen {
                errors.push(syn::Error::new_spanned(
                    typed,
                    "a resource method takes at most one `RequestContext`: remove this one, \
                     and use the first",
                ));
            }
            context_seen = true;
            args.push(Arg::Context);
            continue;
        }
        let Pat::Ident(pat) = &*typed.pat else {
            errors.push(syn::Error::new_spanned(
                &typed.pat,
                "a parameter binds the template variable of its name: write `name: Type`",
            ));
            continue;
        };
        let name = pat.ident.unraw().to_string();
        let Some(shape) = shapes.iter().find(|s| s.name == name) else {
            let names: Vec<&str> = shapes.iter().map(|s| s.name.as_str()).collect();
            let listed = if names.is_empty() {
                "it has none".to_owned()
            } else {
                format!("its variables: {}", names.join(", "))
            };
            let hint = match near(&name, names.iter().copied()) {
                Some(near) => {
                    // Its variable is reported here, not once more as a variable without
                    // a parameter.
                    misspelled.push(near.to_owned());
                    format!("; did you mean `{near}`?")
                }
                None => String::new(),
            };
            errors.push(syn::Error::new(
                pat.ident.span(),
                format!(
                    "`{name}` is not a variable of `{}` ({listed}); a resource method's \
                     parameters are the template's variables, and maybe one \
                     `RequestContext`{hint}",
                    literal.value()
                ),
            ));
            continue;
        };
        if let Err(e) = check_type(shape, &typed.ty) {
            errors.push(e);
        }
        args.push(Arg::Var {
            ident: pat.ident.clone(),
            name,
            ty: typed.ty.clone(),
        });
    }
    for shape in &shapes {
        let bound = args
            .iter()
            .any(|a| matches!(a, Arg::Var { name, .. } if *name == shape.name));
        if !bound && !misspelled.contains(&shape.name) {
            errors.push(syn::Error::new(literal.span(), missing(shape, method)));
        }
    }
    errors.finish().map(|()| args)
}

fn missing(shape: &Shape, method: &ImplItemFn) -> String {
    let method = &method.sig.ident;
    let name = &shape.name;
    let Some(param) = parameter_name(name) else {
        return format!(
            "template variable `{name}` is not a Rust identifier, so no parameter of \
             `{method}` can bind it; register this template with `ResourceRouter::template` \
             and read `captures()`"
        );
    };
    let ty = match (shape.may_be_absent, shape.exploded) {
        (true, true) => "Option<Vec<String>>",
        (true, false) => "Option<String>",
        (false, true) => "Vec<String>",
        (false, false) => "String",
    };
    format!("template variable `{name}` has no parameter: add `{param}: {ty}` to `{method}`")
}

/// The parameter that binds variable `name`: the name itself, or `r#name` for a keyword
/// (`{type}`); `None` when no identifier can be it (`{user.id}`, `{self}`).
fn parameter_name(name: &str) -> Option<String> {
    if syn::parse_str::<Ident>(name).is_ok() {
        return Some(name.to_owned());
    }
    let raw = format!("r#{name}");
    syn::parse_str::<Ident>(&raw).is_ok().then_some(raw)
}

/// The receiver of a resource method: `&self`.
fn check_receiver(receiver: &syn::Receiver) -> syn::Result<()> {
    let why = match &receiver.kind {
        syn::ReceiverKind::Reference(_, _, None) => return Ok(()),
        syn::ReceiverKind::Reference(_, _, Some(_)) => {
            "not `&mut self`: reads of several resources may run at the same time, so state \
             that changes goes behind a `Mutex` or an atomic"
        }
        syn::ReceiverKind::Value => {
            "not `self`: the server is lent to every read, never given away"
        }
        _ => "the server's state, lent to every read",
    };
    Err(syn::Error::new_spanned(
        receiver,
        format!("a resource method takes `&self`, {why}"),
    ))
}

/// The candidate that `given` most likely misspells: the same letters but for `_` and case,
/// or one edit away.
pub fn near<'a>(given: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let squash = |s: &str| s.replace('_', "").to_lowercase();
    let candidates: Vec<&str> = candidates.into_iter().collect();
    candidates
        .iter()
        .find(|c| squash(c) == squash(given))
        .or_else(|| candidates.iter().find(|c| edit_distance(c, given) <= 1))
        .copied()
}

/// Levenshtein distance, in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

fn check_type(shape: &Shape, ty: &Type) -> syn::Result<()> {
    let name = &shape.name;
    if let Some(r) = reference_in(ty) {
        return Err(syn::Error::new_spanned(
            r,
            format!(
                "`{name}` must be an owned type (`String`, not `&str`): captures are decoded \
                 into new strings, which the parameter keeps"
            ),
        ));
    }
    let inner = if shape.may_be_absent {
        match option_inner(ty) {
            Some(inner) => inner,
            None => {
                let (what, suggestion) = if shape.exploded {
                    ("an exploded query variable", "Option<Vec<String>>")
                } else {
                    ("a query variable", "Option<String>")
                };
                return Err(syn::Error::new_spanned(
                    ty,
                    format!(
                        "`{name}` may be absent ({what}, `{}`): use `{suggestion}`",
                        shape.expression
                    ),
                ));
            }
        }
    } else {
        ty
    };
    let collection = ["Vec", "VecDeque", "HashMap", "BTreeMap", "IndexMap"]
        .iter()
        .any(|c| is_path_ending(inner, c));
    if shape.exploded && !collection {
        return Err(syn::Error::new_spanned(
            inner,
            format!(
                "`{name}` is exploded (`{}`): it holds a list, so use `Vec<String>` (or a map \
                 such as `BTreeMap<String, String>` for key=value pairs)",
                shape.expression
            ),
        ));
    }
    Ok(())
}

/// The first reference in `ty`: `&str`, or the `&str` of `Option<&str>` or `Vec<&str>`.
fn reference_in(ty: &Type) -> Option<&syn::TypeReference> {
    match ty {
        Type::Reference(r) => Some(r),
        Type::Group(g) => reference_in(&g.elem),
        Type::Paren(p) => reference_in(&p.elem),
        Type::Array(a) => reference_in(&a.elem),
        Type::Slice(s) => reference_in(&s.elem),
        Type::Tuple(t) => t.elems.iter().find_map(reference_in),
        Type::Path(p) => p.path.segments.iter().find_map(|s| match &s.arguments {
            syn::PathArguments::AngleBracketed(args) => args.args.iter().find_map(|a| match a {
                syn::GenericArgument::Type(t) => reference_in(t),
                _ => None,
            }),
            _ => None,
        }),
        _ => None,
    }
}

/// `T` of `Option<T>`.
fn option_inner(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != "Option" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        syn::GenericArgument::Type(inner) => Some(inner),
        _ => None,
    }
}

/// `&self`, not `self`, `&mut self` or `self: Box<Self>`.
pub fn is_shared_self(receiver: &syn::Receiver) -> bool {
    matches!(receiver.kind, syn::ReceiverKind::Reference(_, _, None))
}

/// Whether `ty` is a path whose last segment is `name` (`Vec<_>`, `std::vec::Vec<_>`).
pub fn is_path_ending(ty: &Type, name: &str) -> bool {
    match ty {
        Type::Path(p) => p.path.segments.last().is_some_and(|s| s.ident == name),
        Type::Group(g) => is_path_ending(&g.elem, name),
        _ => false,
    }
}

/// Errors gathered so that one compile shows every mistake.
#[derive(Default)]
pub struct Errors(Option<syn::Error>);

impl Errors {
    pub fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(error),
            None => self.0 = Some(error),
        }
    }

    pub fn finish(self) -> syn::Result<()> {
        self.0.map_or(Ok(()), Err)
    }
}
