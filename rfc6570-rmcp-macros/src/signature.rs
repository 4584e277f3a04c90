//! A template's variables against a method's parameters: every variable is a parameter of its
//! own name, every parameter (but `&self` and one rmcp `RequestContext`) is a variable, a
//! variable that may be absent is an `Option`, an exploded one a `Vec` or a map.

use rfc6570::template::Operator;
use rfc6570::UriTemplate;
use syn::ext::IdentExt;
use syn::spanned::Spanned;
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
    let mut inputs = method.sig.inputs.iter();
    match inputs.next() {
        Some(FnArg::Receiver(r)) if is_shared_self(r) => {}
        other => errors.push(syn::Error::new(
            other.map_or(method.sig.ident.span(), |a| a.span()),
            "a resource method takes `&self` first: the server's state",
        )),
    }
    let mut context_seen = false;
    for input in inputs {
        let FnArg::Typed(typed) = input else { continue };
        if is_path_ending(&typed.ty, "RequestContext") {
            if context_seen {
                errors.push(syn::Error::new(
                    typed.span(),
                    "a resource method takes at most one `RequestContext`",
                ));
            }
            context_seen = true;
            args.push(Arg::Context);
            continue;
        }
        let Pat::Ident(pat) = &*typed.pat else {
            errors.push(syn::Error::new(
                typed.pat.span(),
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
            errors.push(syn::Error::new(
                pat.ident.span(),
                format!(
                    "`{name}` is not a variable of `{}` ({listed}); a resource method's \
                     parameters are the template's variables, and maybe one `RequestContext`",
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
        if !bound {
            errors.push(syn::Error::new(literal.span(), missing(shape, method)));
        }
    }
    errors.finish().map(|()| args)
}

fn missing(shape: &Shape, method: &ImplItemFn) -> String {
    let method = &method.sig.ident;
    let name = &shape.name;
    let is_ident = syn::parse_str::<Ident>(name).is_ok();
    if !is_ident {
        return format!(
            "template variable `{name}` is not a Rust identifier, so no parameter of \
             `{method}` can bind it; register this template with `ResourceRouter::template` \
             and read `captures()`"
        );
    }
    let ty = match (shape.may_be_absent, shape.exploded) {
        (true, true) => "Option<Vec<String>>",
        (true, false) => "Option<String>",
        (false, true) => "Vec<String>",
        (false, false) => "String",
    };
    format!("template variable `{name}` has no parameter: add `{name}: {ty}` to `{method}`")
}

fn check_type(shape: &Shape, ty: &Type) -> syn::Result<()> {
    let name = &shape.name;
    if let Type::Reference(r) = ty {
        return Err(syn::Error::new(
            r.span(),
            format!("`{name}` must be an owned type (`String`, not `&str`): captures are decoded"),
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
                return Err(syn::Error::new(
                    ty.span(),
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
        return Err(syn::Error::new(
            inner.span(),
            format!(
                "`{name}` is exploded (`{}`): it holds a list, so use `Vec<String>` (or a map \
                 such as `BTreeMap<String, String>` for key=value pairs)",
                shape.expression
            ),
        ));
    }
    Ok(())
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
