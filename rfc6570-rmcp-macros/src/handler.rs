//! `#[resource_handler]` on `impl ServerHandler for X`: adds the resource methods the impl does
//! not write itself, each a one-line call into the router, and merges the resource and
//! completion capabilities into `get_info` rather than replacing it.
//!
//! Stacked with rmcp's `#[tool_handler]` or `#[prompt_handler]`, it lets them expand first (it
//! moves itself behind them), so that it merges into the `get_info` they write.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{ImplItem, ItemImpl};

use crate::args::HandlerArgs;

/// rmcp's handler attributes, which expand before this one.
const SIBLINGS: [&str; 2] = ["tool_handler", "prompt_handler"];

pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    match try_expand(attr, item.clone()) {
        Ok(out) => out,
        Err(e) => {
            let mut out = e.to_compile_error();
            out.extend(item);
            out
        }
    }
}

fn try_expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let mut block: ItemImpl = syn::parse2(item).map_err(|_| {
        syn::Error::new(
            Span::call_site(),
            "#[resource_handler] goes on `impl ServerHandler for MyServer {}`, whose resource \
             methods it fills in, not on other items",
        )
    })?;
    match block.trait_.as_ref().map(|(path, _)| path) {
        Some(path)
            if path
                .segments
                .last()
                .is_some_and(|s| s.ident == "ServerHandler") => {}
        Some(path) => {
            let self_ty = &block.self_ty;
            return Err(syn::Error::new_spanned(
                path,
                format!(
                    "#[resource_handler] fills in rmcp's `ServerHandler`, not this trait: put it \
                     on `impl ServerHandler for {} {{}}`",
                    quote!(#self_ty)
                ),
            ));
        }
        None => {
            let self_ty = &block.self_ty;
            return Err(syn::Error::new_spanned(
                self_ty,
                format!(
                    "#[resource_handler] goes on `impl ServerHandler for {ty} {{}}`, whose \
                     resource methods it fills in; the #[resource] methods go in \
                     `#[resource_router] impl {ty} {{ .. }}`",
                    ty = quote!(#self_ty)
                ),
            ));
        }
    }
    let args: HandlerArgs = syn::parse2(attr.clone())?;
    // rmcp's #[tool_handler] writes `get_info` whenever it is there, #[prompt_handler] only
    // without it: the first of SIBLINGS present is the one that does.
    let sibling = SIBLINGS.into_iter().find(|name| {
        block.attrs.iter().any(|a| {
            a.path()
                .segments
                .last()
                .is_some_and(|last| last.ident == name)
        })
    });
    if let Some(sibling) = sibling {
        if let (Some(span), false) = (args.info_span, has_method(&block, "get_info")) {
            return Err(sibling_writes_get_info(span, sibling));
        }
        block
            .attrs
            .push(syn::parse_quote!(#[::rfc6570_rmcp::resource_handler(#attr)]));
        return Ok(quote!(#block));
    }
    let router = args.router.clone().unwrap_or_else(|| {
        syn::parse_quote!(<Self as ::rfc6570_rmcp::__private::HasResourceRouter>::cached_router())
    });
    let methods = Methods {
        router: quote!(::rfc6570_rmcp::__private::router_of::<Self, _>(&(#router))),
        rmcp: quote!(::rfc6570_rmcp::__private::rmcp),
    };
    let has = |name: &str| has_method(&block, name);
    let mut added: Vec<TokenStream> = Vec::new();
    for (name, body) in methods.resources(has("list_prompts")) {
        if !has(name) {
            added.push(body);
        }
    }
    if let Some(subscriptions) = &args.subscriptions {
        for (name, body) in methods.subscriptions(subscriptions) {
            if !has(name) {
                added.push(body);
            }
        }
    }
    if args.directory_read {
        for (name, body) in methods.directory_read() {
            if !has(name) {
                added.push(body);
            }
        }
    }
    let subscribe = args.subscriptions.is_some();
    let directory_read = args.directory_read;
    if has("get_info") {
        if let Some(span) = args.info_span {
            return Err(syn::Error::new(
                span,
                "this impl has a `get_info`, so `name`, `version` and `instructions` belong \
                 there (`.with_server_info(Implementation::new(name, version))`, \
                 `.with_instructions(..)`); #[resource_handler] only merges the resource \
                 capabilities into what it returns. If rmcp's #[tool_handler] is above this \
                 attribute, it wrote that `get_info`: give it the `name` and `version` \
                 instead, or put #[resource_handler] first",
            ));
        }
        merge_into_get_info(&mut block, subscribe, directory_read);
    } else {
        added.push(methods.get_info(&args, subscribe, directory_read));
    }
    for method in added {
        block.items.push(syn::parse2(method)?);
    }
    Ok(quote!(#block))
}

/// `name`, `version` or `instructions` given to this attribute while rmcp's `sibling`, which
/// expands first, writes `get_info`: they belong on #[tool_handler], which takes them; rmcp's
/// #[prompt_handler] takes none, so with it alone they belong in a `get_info` of the user's.
fn sibling_writes_get_info(span: Span, sibling: &str) -> syn::Error {
    let fix = if sibling == "tool_handler" {
        "so `name`, `version` and `instructions` go on it: \
         `#[tool_handler(name = \"..\", version = \"..\")]`"
            .to_owned()
    } else {
        format!(
            "and #[{sibling}] takes no `name` or `version`: write `get_info` in this impl \
             (`ServerConfig::new(..).with_server_info(Implementation::new(name, version))`), \
             which every attribute here then leaves alone"
        )
    };
    syn::Error::new(
        span,
        format!(
            "rmcp's #[{sibling}] writes this impl's `get_info`, {fix}; #[resource_handler] \
             merges the resource capabilities into that `get_info`"
        ),
    )
}

fn has_method(block: &ItemImpl, name: &str) -> bool {
    block
        .items
        .iter()
        .any(|item| matches!(item, ImplItem::Fn(f) if f.sig.ident == name))
}

/// The generated methods, as (name, tokens).
struct Methods {
    /// `&ResourceRouter<Self>`.
    router: TokenStream,
    rmcp: TokenStream,
}

impl Methods {
    fn resources(&self, has_prompts: bool) -> Vec<(&'static str, TokenStream)> {
        let Self { router, rmcp } = self;
        let context = quote!(#rmcp::service::RequestContext<#rmcp::RoleServer>);
        let error = quote!(#rmcp::ErrorData);
        // A prompt's argument is the prompt side's to complete; rmcp's has no completion, so
        // with prompts the answer is "no candidates", and without them the reference is wrong.
        let prompt = if has_prompts {
            quote!(::core::result::Result::Ok(#rmcp::model::CompleteResult::default()))
        } else {
            quote!(::core::result::Result::Err(#error::invalid_params(
                "this server has no prompts to complete",
                ::core::option::Option::None,
            )))
        };
        vec![
            (
                "list_resources",
                quote! {
                    async fn list_resources(
                        &self,
                        request: ::core::option::Option<#rmcp::model::PaginatedRequestParams>,
                        context: #context,
                    ) -> ::core::result::Result<#rmcp::model::ListResourcesResult, #error> {
                        #router.list_resources(request, &context)
                    }
                },
            ),
            (
                "list_resource_templates",
                quote! {
                    async fn list_resource_templates(
                        &self,
                        request: ::core::option::Option<#rmcp::model::PaginatedRequestParams>,
                        context: #context,
                    ) -> ::core::result::Result<#rmcp::model::ListResourceTemplatesResult, #error> {
                        #router.list_resource_templates(request, &context)
                    }
                },
            ),
            (
                "read_resource",
                quote! {
                    async fn read_resource(
                        &self,
                        request: #rmcp::model::ReadResourceRequestParams,
                        context: #context,
                    ) -> ::core::result::Result<#rmcp::model::ReadResourceResponse, #error> {
                        #router.read_resource(self, request, context).await
                    }
                },
            ),
            (
                "complete",
                quote! {
                    async fn complete(
                        &self,
                        request: #rmcp::model::CompleteRequestParams,
                        context: #context,
                    ) -> ::core::result::Result<#rmcp::model::CompleteResult, #error> {
                        match #router.complete(self, request, &context).await? {
                            ::core::option::Option::Some(result) => ::core::result::Result::Ok(result),
                            ::core::option::Option::None => #prompt,
                        }
                    }
                },
            ),
        ]
    }

    fn subscriptions(&self, subscriptions: &syn::Expr) -> Vec<(&'static str, TokenStream)> {
        let Self { router, rmcp } = self;
        let context = quote!(#rmcp::service::RequestContext<#rmcp::RoleServer>);
        let error = quote!(#rmcp::ErrorData);
        vec![
            (
                "subscribe",
                quote! {
                    async fn subscribe(
                        &self,
                        request: #rmcp::model::SubscribeRequestParams,
                        context: #context,
                    ) -> ::core::result::Result<(), #error> {
                        ::rfc6570_rmcp::__private::subscribe(&(#subscriptions), #router, request, context).await
                    }
                },
            ),
            (
                "unsubscribe",
                quote! {
                    async fn unsubscribe(
                        &self,
                        request: #rmcp::model::UnsubscribeRequestParams,
                        context: #context,
                    ) -> ::core::result::Result<(), #error> {
                        ::rfc6570_rmcp::__private::unsubscribe(&(#subscriptions), request, context)
                    }
                },
            ),
            (
                "accepted_subscription_filter",
                quote! {
                    fn accepted_subscription_filter(
                        &self,
                        requested: &#rmcp::model::SubscriptionFilter,
                    ) -> ::core::option::Option<#rmcp::model::SubscriptionFilter> {
                        ::rfc6570_rmcp::__private::accept(&(#subscriptions), #router, requested)
                    }
                },
            ),
            (
                "listen",
                quote! {
                    async fn listen(
                        &self,
                        context: #rmcp::service::SubscriptionContext,
                    ) -> ::core::result::Result<(), #error> {
                        ::rfc6570_rmcp::__private::listen(&(#subscriptions), context).await
                    }
                },
            ),
        ]
    }

    /// SEP-2640: `resources/directory/read`, and `skills/list` (the extension that declares
    /// directory reads also declares skills; this server has none).
    fn directory_read(&self) -> Vec<(&'static str, TokenStream)> {
        let Self { router, rmcp } = self;
        let context = quote!(#rmcp::service::RequestContext<#rmcp::RoleServer>);
        let error = quote!(#rmcp::ErrorData);
        vec![
            (
                "read_resource_directory",
                quote! {
                    async fn read_resource_directory(
                        &self,
                        request: #rmcp::model::ReadResourceDirectoryRequestParams,
                        context: #context,
                    ) -> ::core::result::Result<#rmcp::model::ReadResourceDirectoryResult, #error> {
                        #router.read_resource_directory(request, &context)
                    }
                },
            ),
            (
                "list_skills",
                quote! {
                    async fn list_skills(
                        &self,
                        _request: ::core::option::Option<#rmcp::model::PaginatedRequestParams>,
                        _context: #context,
                    ) -> ::core::result::Result<#rmcp::model::ListSkillsResult, #error> {
                        ::core::result::Result::Ok(#rmcp::model::ListSkillsResult::with_all_items(
                            ::std::vec::Vec::new(),
                        ))
                    }
                },
            ),
        ]
    }

    /// `get_info` when the impl has none: the resource capabilities, and the user's crate's
    /// name and version (`env!` expands in the user's crate, not in rmcp's).
    fn get_info(&self, args: &HandlerArgs, subscribe: bool, directory_read: bool) -> TokenStream {
        let rmcp = &self.rmcp;
        let name = args
            .name
            .as_ref()
            .map_or_else(|| quote!(::core::env!("CARGO_CRATE_NAME")), |n| quote!(#n));
        let version = args
            .version
            .as_ref()
            .map_or_else(|| quote!(::core::env!("CARGO_PKG_VERSION")), |v| quote!(#v));
        let instructions = args
            .instructions
            .as_ref()
            .map(|i| quote!(let info = info.with_instructions(#i);));
        quote! {
            fn get_info(&self) -> #rmcp::model::ServerConfig {
                let mut info = #rmcp::model::ServerConfig::new(::core::default::Default::default());
                ::rfc6570_rmcp::__private::merge_capabilities(
                    &mut info.capabilities,
                    #subscribe,
                    #directory_read,
                );
                let info = info.with_server_info(#rmcp::model::Implementation::new(#name, #version));
                #instructions
                info
            }
        }
    }
}

/// Wraps the impl's own `get_info` so that the resource capabilities are added to what it
/// returns; a `return` in its body still returns from it.
fn merge_into_get_info(block: &mut ItemImpl, subscribe: bool, directory_read: bool) {
    for item in &mut block.items {
        let ImplItem::Fn(f) = item else { continue };
        if f.sig.ident != "get_info" {
            continue;
        }
        let body = &f.block;
        let output = match &f.sig.output {
            syn::ReturnType::Type(_, ty) => quote!(#ty),
            syn::ReturnType::Default => quote!(()),
        };
        f.block = syn::parse_quote!({
            let mut __info: #output = (|| -> #output #body)();
            ::rfc6570_rmcp::__private::merge_capabilities(
                &mut __info.capabilities,
                #subscribe,
                #directory_read,
            );
            __info
        });
    }
}
