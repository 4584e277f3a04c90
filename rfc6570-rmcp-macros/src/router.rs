//! `#[resource_router]`: reads every `#[resource(..)]` method of an impl block, checks each
//! template against its method and all of them against each other, and adds
//! `fn resource_router() -> ResourceRouter<Self>` with one hidden read adapter per resource.
//!
//! `#[resource]` itself expands to nothing new: the router marks the attributes it has read,
//! and a `#[resource]` without that mark is outside a router, which is an error.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use rfc6570::matching::Unsupported;
use rfc6570::router::RouteOptions;
use rfc6570::safety::SafetyPolicy;
use rfc6570::{InsertError, Router, UriTemplate};
use syn::spanned::Spanned;
use syn::{Attribute, FnArg, Ident, ImplItem, ImplItemFn, ItemImpl, LitStr, Type};

use crate::args::{CacheScope, ResourceArgs, RouterArgs};
use crate::signature::{self, Arg, Errors};

/// The argument a router writes into each `#[resource(..)]` it has read.
const MARK: &str = "__rfc6570_read_by_router";

/// `#[resource]` on its own: fine once a router has read it, an error anywhere else.
pub fn expand_resource(attr: TokenStream, item: TokenStream) -> TokenStream {
    let marked = matches!(
        syn::parse2::<Ident>(attr),
        Ok(ident) if ident == MARK
    );
    if marked {
        return item;
    }
    // A method and a free function look alike here; `self` tells them apart.
    let has_self = syn::parse2::<syn::ItemFn>(item.clone())
        .is_ok_and(|f| matches!(f.sig.inputs.first(), Some(FnArg::Receiver(_))));
    let message = if has_self {
        "#[resource] is read by the #[resource_router] of its impl block, and this impl block \
         has none: add #[resource_router] above `impl ..`"
    } else {
        "#[resource] goes on a `&self` method of an impl block that has #[resource_router]: \
         move this function into `#[resource_router] impl MyServer { .. }`, with `&self` first"
    };
    let error = syn::Error::new(Span::call_site(), message);
    let mut out = error.to_compile_error();
    out.extend(item);
    out
}

/// One `#[resource]` method, read and checked.
struct Found {
    method: ImplItemFn,
    args: ResourceArgs,
    template: UriTemplate,
    call: Vec<Arg>,
}

pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut block: ItemImpl = match syn::parse2(item.clone()) {
        Ok(block) => block,
        Err(_) => {
            let error = syn::Error::new(
                Span::call_site(),
                "#[resource_router] goes on an impl block: `#[resource_router] impl MyServer { .. }`",
            );
            let mut out = error.to_compile_error();
            out.extend(item);
            return out;
        }
    };
    let mut errors = Errors::default();
    let args = syn::parse2::<RouterArgs>(attr).unwrap_or_else(|e| {
        errors.push(e);
        RouterArgs {
            vis: syn::Visibility::Inherited,
        }
    });
    let (seen, found) = read_resources(&mut block, &mut errors);
    if seen == 0 {
        errors.push(syn::Error::new(
            block.self_ty.span(),
            "#[resource_router] found no #[resource] method in this impl block, so \
             `Self::resource_router()` would serve nothing; add `#[resource(\"scheme://{var}\")]` \
             to an async method",
        ));
    }
    check_completers(&block, &found, &mut errors);
    check_conflicts(&found, &mut errors);
    check_generated_names(&block, &mut errors);
    let vis = &args.vis;
    if let Err(e) = errors.finish() {
        let mut out = e.to_compile_error();
        // The router still exists, empty, so that the errors above are the only ones: none
        // from `#[resource_handler]` or other callers of `resource_router()`; unless the block
        // has a method of that name, which is the error.
        let taken = block
            .items
            .iter()
            .any(|item| matches!(item, ImplItem::Fn(m) if m.sig.ident == "resource_router"));
        if taken {
            out.extend(quote!(#block));
            return out;
        }
        block.items.push(syn::parse_quote! {
            #vis fn resource_router() -> ::rfc6570_rmcp::ResourceRouter<Self> {
                ::rfc6570_rmcp::ResourceRouter::new()
            }
        });
        let cached = cached_router(&block);
        out.extend(quote!(#block #cached));
        return out;
    }
    let adapters: Vec<TokenStream> = found.iter().map(read_adapter).collect();
    let registrations: Vec<TokenStream> = found.iter().map(|f| registration(&block, f)).collect();
    let cached = cached_router(&block);
    block.items.push(syn::parse_quote! {
        /// The resources of this impl block's `#[resource]` methods, for `#[resource_handler]`
        /// or a hand-written `ServerHandler` to answer with.
        #vis fn resource_router() -> ::rfc6570_rmcp::ResourceRouter<Self> {
            let router = ::rfc6570_rmcp::ResourceRouter::new();
            #( let router = #registrations; )*
            router
        }
    });
    for adapter in adapters {
        block
            .items
            .push(syn::parse2(adapter).expect("a read adapter is an impl item"));
    }
    quote!(#block #cached)
}

/// A method of the block may not take the name of one the router generates.
fn check_generated_names(block: &ItemImpl, errors: &mut Errors) {
    for item in &block.items {
        let ImplItem::Fn(method) = item else { continue };
        let name = method.sig.ident.to_string();
        if name == "resource_router" || name.starts_with("__rfc6570_") {
            errors.push(syn::Error::new(
                method.sig.ident.span(),
                format!(
                    "#[resource_router] generates `{name}` itself; give this method another name"
                ),
            ));
        }
    }
}

/// How many `#[resource]` methods there are, and those that passed their checks, with every
/// attribute marked as read.
fn read_resources(block: &mut ItemImpl, errors: &mut Errors) -> (usize, Vec<Found>) {
    let mut seen = 0;
    let mut found = Vec::new();
    for item in &mut block.items {
        let ImplItem::Fn(method) = item else { continue };
        let at: Vec<usize> = (0..method.attrs.len())
            .filter(|&i| is_resource(&method.attrs[i]))
            .collect();
        let Some(&first) = at.first() else {
            continue;
        };
        seen += 1;
        let mark = format_ident!("{}", MARK);
        for &i in &at[1..] {
            errors.push(syn::Error::new_spanned(
                &method.attrs[i],
                format!(
                    "`{}` has a #[resource] already: a method serves one template; write \
                     another method for this one",
                    method.sig.ident
                ),
            ));
        }
        let attr = method.attrs[first].clone();
        for &i in &at {
            let path = method.attrs[i].path().clone();
            method.attrs[i] = syn::parse_quote!(#[#path(#mark)]);
        }
        let parsed = match &attr.meta {
            syn::Meta::List(list) => syn::parse2::<ResourceArgs>(list.tokens.clone()),
            _ => Err(syn::Error::new_spanned(
                &attr,
                "#[resource] needs a URI template: #[resource(\"users://{user_id}/profile\")]",
            )),
        };
        let args = match parsed {
            Ok(args) => args,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        let template = match UriTemplate::parse(&args.template.value()) {
            Ok(t) => t,
            Err(e) => {
                errors.push(syn::Error::new(
                    args.template.span(),
                    format!("invalid URI template: {e:#}"),
                ));
                continue;
            }
        };
        let vars: Vec<&str> = template.variables().map(|v| v.name()).collect();
        for var in &args.free_text {
            if !vars.iter().any(|v| *var == v) {
                errors.push(syn::Error::new(
                    var.span(),
                    format!(
                        "`{var}` in free_text(..) is not a variable of `{}` ({}){}",
                        template.as_str(),
                        listed(&vars),
                        did_you_mean(&var.to_string(), &vars),
                    ),
                ));
            }
        }
        if let (Some((key, size)), false) = (&args.size, vars.is_empty()) {
            errors.push(syn::Error::new_spanned(
                quote!(#key = #size),
                format!(
                    "`size` is for a static resource, and `{}` is a template of many, each of \
                     its own size: remove `size = {size}`",
                    template.as_str()
                ),
            ));
        }
        match signature::check(method, &template, &args.template) {
            Ok(call) => found.push(Found {
                method: method.clone(),
                args,
                template,
                call,
            }),
            Err(e) => errors.push(e),
        }
    }
    (seen, found)
}

/// `its variables: a, b`, for a message that names what a template has.
fn listed(vars: &[&str]) -> String {
    if vars.is_empty() {
        "a static resource has no variables".to_owned()
    } else {
        format!("its variables: {}", vars.join(", "))
    }
}

/// `; did you mean `x`?`, when `given` looks like a misspelled variable.
fn did_you_mean(given: &str, vars: &[&str]) -> String {
    signature::near(given, vars.iter().copied())
        .map_or_else(String::new, |v| format!("; did you mean `{v}`?"))
}

fn is_resource(attr: &Attribute) -> bool {
    attr.path()
        .segments
        .last()
        .is_some_and(|s| s.ident == "resource")
}

/// Two templates that match the same URIs, or one the router cannot match: refused here, as
/// the router would refuse them at run time.
fn check_conflicts(found: &[Found], errors: &mut Errors) {
    let mut router = Router::new();
    for (i, f) in found.iter().enumerate() {
        let Err(e) = router.insert_with(f.template.clone(), i, route_options(&f.args)) else {
            continue;
        };
        let message = match &e {
            InsertError::Conflict { existing, .. } => {
                let other = found
                    .iter()
                    .find(|o| o.template.as_str() == existing)
                    .map_or_else(
                        || "another resource".to_owned(),
                        |o| format!("`{}`", o.method.sig.ident),
                    );
                format!(
                    "`{}` and {other} match the same URIs (`{}` and `{existing}`); change one \
                     template so that a URI reaches one method",
                    f.method.sig.ident,
                    f.template.as_str(),
                )
            }
            InsertError::Unsupported { template, reason } => {
                // A refused shape is the template's refusing lint, which names the variables
                // and the fix.
                let why = match reason {
                    Unsupported::Shape { .. } => f
                        .template
                        .lints()
                        .into_iter()
                        .find(|lint| lint.kind().refuses())
                        .map_or_else(|| reason.to_string(), |lint| lint.to_string()),
                    _ => reason.to_string(),
                };
                format!(
                    "the router cannot match `{template}`, the template of `{}`: {why}",
                    f.method.sig.ident
                )
            }
            other => format!(
                "the router refuses the template of `{}`: {}",
                f.method.sig.ident,
                with_sources(other)
            ),
        };
        errors.push(syn::Error::new(f.args.template.span(), message));
    }
}

fn route_options(args: &ResourceArgs) -> RouteOptions {
    args.free_text
        .iter()
        .fold(RouteOptions::default(), |o, var| {
            o.var_safety(&var.to_string(), SafetyPolicy::OFF)
        })
}

fn with_sources(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        text = format!("{text}: {e}");
        source = e.source();
    }
    text
}

/// Each `complete(var = Self::method)` names a variable of its template and a method of this
/// impl block that takes `&self` and, optionally, the prefix (`&str`) or the whole `Completing`.
fn check_completers(block: &ItemImpl, found: &[Found], errors: &mut Errors) {
    for f in found {
        let vars: Vec<&str> = f.template.variables().map(|v| v.name()).collect();
        let mut completed: Vec<&Ident> = Vec::new();
        for (var, path) in &f.args.complete {
            if !vars.iter().any(|v| *var == v) {
                let nothing = if vars.is_empty() {
                    ", so it has nothing to complete"
                } else {
                    ""
                };
                errors.push(syn::Error::new(
                    var.span(),
                    format!(
                        "`{var}` is not a variable of `{}` ({}){nothing}{}",
                        f.template.as_str(),
                        listed(&vars),
                        did_you_mean(&var.to_string(), &vars),
                    ),
                ));
            } else if completed.contains(&var) {
                errors.push(syn::Error::new(
                    var.span(),
                    format!("`{var}` has a completer already: one completer per variable"),
                ));
            }
            completed.push(var);
            if let Err(e) = completer(block, path) {
                errors.push(e);
            }
        }
    }
}

/// What a completer takes besides `&self`.
enum CompleterInput {
    Nothing,
    Prefix,
    Completing,
}

struct Completer<'a> {
    method: &'a ImplItemFn,
    input: CompleterInput,
}

fn completer<'a>(block: &'a ItemImpl, path: &syn::Path) -> syn::Result<Completer<'a>> {
    let takes = "a completer takes `(&self)`, `(&self, prefix: &str)` or \
                 `(&self, completing: Completing<'_>)`, and returns the candidates (`Vec<String>`)";
    let name = match path.segments.len() {
        1 => &path.segments[0].ident,
        2 if path.segments[0].ident == "Self" => &path.segments[1].ident,
        _ => {
            return Err(syn::Error::new_spanned(
                path,
                format!(
                    "a completer is a method of this impl block, named `Self::method`; {takes}"
                ),
            ));
        }
    };
    let method = block
        .items
        .iter()
        .find_map(|item| match item {
            ImplItem::Fn(m) if m.sig.ident == *name => Some(m),
            _ => None,
        })
        .ok_or_else(|| {
            syn::Error::new_spanned(
                path,
                format!(
                    "`{name}` is not a method of this impl block: a completer is one, such as \
                     `async fn {name}(&self, prefix: &str) -> Vec<String>`, named \
                     `Self::{name}`"
                ),
            )
        })?;
    let mut inputs = method.sig.inputs.iter().peekable();
    let receiver = match inputs.peek() {
        Some(FnArg::Receiver(r)) => {
            inputs.next();
            Some(r)
        }
        _ => None,
    };
    let rest: Vec<&FnArg> = inputs.collect();
    let input = match rest.as_slice() {
        [] => CompleterInput::Nothing,
        [FnArg::Typed(t)] if is_str_ref(&t.ty) => CompleterInput::Prefix,
        [FnArg::Typed(t)] if signature::is_path_ending(&t.ty, "Completing") => {
            CompleterInput::Completing
        }
        _ => {
            let rest = rest.iter();
            return Err(syn::Error::new_spanned(
                quote!(#(#rest),*),
                format!("`{name}` cannot complete a variable with these parameters: {takes}"),
            ));
        }
    };
    match receiver {
        Some(r) if signature::is_shared_self(r) => {}
        Some(r) => {
            return Err(syn::Error::new_spanned(
                r,
                format!("`{name}` must take `&self` to complete a variable: {takes}"),
            ));
        }
        None => {
            return Err(syn::Error::new(
                method.sig.ident.span(),
                format!("`{name}` has no `self`: {takes}"),
            ));
        }
    }
    Ok(Completer { method, input })
}

fn is_str_ref(ty: &Type) -> bool {
    matches!(ty, Type::Reference(r) if r.mutability.is_none() && signature::is_path_ending(&r.elem, "str"))
}

/// Where a method's return type is written, or its name when it has none.
fn output_span(method: &ImplItemFn) -> Span {
    match &method.sig.output {
        syn::ReturnType::Type(_, ty) => ty.span(),
        syn::ReturnType::Default => method.sig.ident.span(),
    }
}

fn read_adapter_name(f: &Found) -> Ident {
    format_ident!("__rfc6570_read_{}", f.method.sig.ident)
}

/// `fn __rfc6570_read_<method>(&self, request) -> BoxFuture<..>`: deserializes the captures into
/// the method's parameters, calls it, and turns what it returns into contents.
fn read_adapter(f: &Found) -> TokenStream {
    let name = read_adapter_name(f);
    let method = &f.method.sig.ident;
    // The adapter's own locals resolve apart from the user's names (a parameter may be called
    // `__target`): mixed-site hygiene.
    let local = |name: &str| Ident::new(name, Span::mixed_site());
    let (request, target, context_var) =
        (local("__request"), local("__target"), local("__context"));
    let vars: Vec<(&Ident, &String, &Type)> = f
        .call
        .iter()
        .filter_map(|a| match a {
            Arg::Var { ident, name, ty } => Some((ident, name, &**ty)),
            Arg::Context => None,
        })
        .collect();
    let params = if vars.is_empty() {
        quote!()
    } else {
        // Generic over the parameters' types, so that the derive needs nothing of them and a
        // type that is not `Deserialize` is one error, where `params` names the types.
        let generics: Vec<Ident> = (0..vars.len()).map(|i| format_ident!("__T{}", i)).collect();
        let fields = vars
            .iter()
            .zip(&generics)
            .map(|((ident, name, _), generic)| {
                quote! { #[serde(rename = #name)] #ident: #generic, }
            });
        let idents = vars.iter().map(|(ident, _, _)| ident);
        let types = vars.iter().map(|(_, _, ty)| ty);
        // `__Params<..>` spans the parameters' types, from the first to the last: rustc
        // points there when one of them is not `Deserialize`.
        let first = vars[0].2.span();
        let last = vars[vars.len() - 1]
            .2
            .to_token_stream()
            .into_iter()
            .last()
            .map_or(first, |t| t.span());
        let open = quote_spanned!(first=> #request.params::<__Params<);
        let close = quote_spanned!(last=> >>());
        quote! {
            #[derive(::rfc6570_rmcp::__private::serde::Deserialize)]
            #[serde(crate = "::rfc6570_rmcp::__private::serde")]
            struct __Params<#(#generics),*> { #(#fields)* }
            let __Params { #(#idents),* } = #open #(#types),* #close?;
        }
    };
    let takes_context = f.call.iter().any(|a| matches!(a, Arg::Context));
    let context = if takes_context {
        quote!(let #context_var = #request.into_context();)
    } else {
        quote!()
    };
    let args = f.call.iter().map(|a| match a {
        Arg::Var { ident, .. } => quote!(#ident),
        Arg::Context => quote!(#context_var),
    });
    // The call, and the conversion of what it returns, spanned at the method's return type:
    // rustc's error for a type that is not contents points there.
    let output = output_span(&f.method);
    let call = if f.method.sig.asyncness.is_some() {
        quote_spanned!(output=> Self::#method(self, #(#args),*).await)
    } else {
        quote_spanned!(output=> Self::#method(self, #(#args),*))
    };
    let into_result = quote_spanned! {output=>
        ::rfc6570_rmcp::IntoContents::into_result(#call, #target)
    };
    quote! {
        #[doc(hidden)]
        fn #name<'__a>(
            &'__a self,
            #request: ::rfc6570_rmcp::ReadRequest<'__a>,
        ) -> ::rfc6570_rmcp::BoxFuture<
            '__a,
            ::core::result::Result<::rfc6570_rmcp::__private::ReadResourceResult, ::rfc6570_rmcp::ReadError>,
        > {
            ::std::boxed::Box::pin(async move {
                // Taken before the parameters are bound, whatever their names.
                let #target = #request.target();
                #params
                #context
                #into_result
            })
        }
    }
}

/// The expression that registers one resource, and its completers, on `router`.
fn registration(block: &ItemImpl, f: &Found) -> TokenStream {
    let text = f.template.as_str();
    let method = f.method.sig.ident.to_string();
    let name = f
        .args
        .name
        .as_ref()
        .map_or_else(|| method.clone(), LitStr::value);
    let mut listing = TokenStream::new();
    if let Some(title) = &f.args.title {
        listing.extend(quote!(.title(#title)));
    }
    let description = f
        .args
        .description
        .as_ref()
        .map(LitStr::value)
        .or_else(|| doc_comment(&f.method.attrs));
    if let Some(description) = description {
        listing.extend(quote!(.description(#description)));
    }
    if let Some(mime) = &f.args.mime_type {
        listing.extend(quote!(.mime_type(#mime)));
    }
    // Without `mime_type`, what the read will answer, as the return type says it.
    let listed = |entry: TokenStream| match (&f.args.mime_type, served_type(&f.method)) {
        (None, Some(ty)) => quote! {{
            #[allow(unused_imports)]
            use ::rfc6570_rmcp::__private::{MimeOfAnything as _, MimeOfContents as _};
            let entry = #entry;
            match (&::rfc6570_rmcp::__private::MimeOf::<#ty>(::core::marker::PhantomData)).mime() {
                ::core::option::Option::Some(mime) => entry.mime_type(mime),
                ::core::option::Option::None => entry,
            }
        }},
        _ => entry,
    };
    let adapter = read_adapter_name(f);
    let register = if f.template.variables().next().is_none() {
        let size = f.args.size.as_ref().map(|(_, n)| quote!(.size(#n)));
        let entry =
            listed(quote!(::rfc6570_rmcp::__private::Resource::new(#text, #name) #listing #size));
        quote! {
            router.resource(#entry, Self::#adapter)
        }
    } else {
        let free = f.args.free_text.iter().map(|v| v.to_string());
        let entry = listed(quote!(::rfc6570_rmcp::__private::template(#text, #name) #listing));
        quote! {
            router.template_with(
                #entry,
                ::rfc6570_rmcp::__private::RouteOptions::default()
                    #( .var_safety(#free, ::rfc6570_rmcp::__private::SafetyPolicy::OFF) )*,
                Self::#adapter,
            )
        }
    };
    let mut out = quote!(::rfc6570_rmcp::__private::registered(#register, #method));
    if f.args.ttl_ms.is_some() || f.args.cache_scope.is_some() {
        let ttl = f
            .args
            .ttl_ms
            .as_ref()
            .map_or_else(|| quote!(0), |n| quote!(#n));
        let scope = match f.args.cache_scope {
            Some(CacheScope::Public) => quote!(Public),
            Some(CacheScope::Private) | None => quote!(Private),
        };
        out = quote! {
            ::rfc6570_rmcp::__private::registered(
                #out.read_cache(#text, #ttl, ::rfc6570_rmcp::__private::rmcp::model::CacheScope::#scope),
                #method,
            )
        };
    }
    for (var, path) in &f.args.complete {
        let Ok(c) = completer(block, path) else {
            continue;
        };
        let target = &c.method.sig.ident;
        let input = match c.input {
            CompleterInput::Nothing => quote!(),
            CompleterInput::Prefix => quote!(__completing.prefix()),
            CompleterInput::Completing => quote!(__completing),
        };
        let call = if c.method.sig.asyncness.is_some() {
            quote!(Self::#target(__state, #input).await)
        } else {
            quote!(Self::#target(__state, #input))
        };
        // Spanned at the completer's return type: rustc's error for one that returns no
        // candidates points there.
        let candidates = quote_spanned! {output_span(c.method)=>
            ::rfc6570_rmcp::__private::completions(__candidates)
        };
        let var = var.to_string();
        out = quote! {
            ::rfc6570_rmcp::__private::registered(
                #out.completer(#text, #var, |__state: &Self, __completing: ::rfc6570_rmcp::Completing<'_>| {
                    ::std::boxed::Box::pin(async move {
                        let __candidates = #call;
                        #candidates
                    })
                }),
                #method,
            )
        };
    }
    out
}

/// The doc comment, as the description: lines joined, one leading space dropped from each.
fn doc_comment(attrs: &[Attribute]) -> Option<String> {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        })
        .map(|line| line.strip_prefix(' ').map_or(line.clone(), str::to_owned))
        .collect();
    let text = lines.join("\n").trim().to_owned();
    (!text.is_empty()).then_some(text)
}

/// `impl HasResourceRouter`: the router built once, for `#[resource_handler]`. A static cannot
/// name `Self` or an impl's generics, so a generic impl builds it on every request. A trait
/// rather than a hidden method, so that a handler for a type without a router gets the trait's
/// message.
fn cached_router(block: &ItemImpl) -> TokenStream {
    let self_ty = &block.self_ty;
    let (impl_generics, _, where_clause) = block.generics.split_for_impl();
    let body = if block.generics.params.is_empty() {
        quote! {
            type Router = &'static ::rfc6570_rmcp::ResourceRouter<Self>;
            fn cached_router() -> Self::Router {
                static ROUTER: ::std::sync::OnceLock<::rfc6570_rmcp::ResourceRouter<#self_ty>> =
                    ::std::sync::OnceLock::new();
                ROUTER.get_or_init(<#self_ty>::resource_router)
            }
        }
    } else {
        quote! {
            type Router = ::rfc6570_rmcp::ResourceRouter<Self>;
            fn cached_router() -> Self::Router {
                <#self_ty>::resource_router()
            }
        }
    };
    quote! {
        impl #impl_generics ::rfc6570_rmcp::__private::HasResourceRouter for #self_ty
            #where_clause
        {
            #body
        }
    }
}

/// The type a resource method returns, where it can be named in generated code: not an
/// `impl Trait`, which has no name to ask for its MIME type.
fn served_type(method: &syn::ImplItemFn) -> Option<&syn::Type> {
    let syn::ReturnType::Type(_, ty) = &method.sig.output else {
        return None;
    };
    let named = !quote!(#ty).into_iter().any(|t| t.to_string() == "impl");
    named.then_some(&**ty)
}
