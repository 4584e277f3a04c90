//! The arguments of the attributes: `#[resource("template", key = value, ..)]`,
//! `#[resource_router(..)]` and `#[resource_handler(..)]`, parsed by hand so that every mistake
//! gets a message that says how to fix it.

use proc_macro2::Span;
use syn::parse::{Parse, ParseStream};
use syn::{Expr, Ident, LitInt, LitStr, Path, Token, Visibility};

/// `#[resource("template", name = "..", title = "..", description = "..", mime_type = "..",
/// size = N, ttl_ms = N, cache_scope = "public" | "private", complete(var = Self::method, ..),
/// free_text(var, ..))]`.
pub struct ResourceArgs {
    pub template: LitStr,
    pub name: Option<LitStr>,
    pub title: Option<LitStr>,
    pub description: Option<LitStr>,
    pub mime_type: Option<LitStr>,
    /// `size = N`, with its key for an error that points at both.
    pub size: Option<(Ident, LitInt)>,
    pub complete: Vec<(Ident, Path)>,
    pub free_text: Vec<Ident>,
    /// The cache hints of its reads: `ttl_ms = N`, `cache_scope = "public"` or `"private"`.
    pub ttl_ms: Option<LitInt>,
    pub cache_scope: Option<CacheScope>,
}

/// `cache_scope = ".."`: who may share a cached read.
#[derive(Clone, Copy)]
pub enum CacheScope {
    Public,
    Private,
}

const RESOURCE_OPTIONS: &str =
    "name, title, description, mime_type, size, ttl_ms, cache_scope, complete, free_text";

impl Parse for ResourceArgs {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let template = if input.peek(LitStr) {
            input.parse()?
        } else if input.is_empty() {
            return Err(input.error(
                "#[resource] needs a URI template first: #[resource(\"users://{user_id}/profile\")]",
            ));
        } else {
            let what: proc_macro2::TokenTree = input.parse()?;
            return Err(syn::Error::new(
                what.span(),
                "the URI template must come first, as a string literal, so that it can be \
                 checked at compile time: #[resource(\"users://{user_id}/profile\", ..)]",
            ));
        };
        let mut args = Self {
            template,
            name: None,
            title: None,
            description: None,
            mime_type: None,
            size: None,
            complete: Vec::new(),
            free_text: Vec::new(),
            ttl_ms: None,
            cache_scope: None,
        };
        while !input.is_empty() {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            let key: Ident = input.parse()?;
            match key.to_string().as_str() {
                "name" => set(&mut args.name, &key, string_value(input)?)?,
                "title" => set(&mut args.title, &key, string_value(input)?)?,
                "description" => set(&mut args.description, &key, string_value(input)?)?,
                "mime_type" => set(&mut args.mime_type, &key, string_value(input)?)?,
                "size" => {
                    input.parse::<Token![=]>()?;
                    set(&mut args.size, &key, (key.clone(), input.parse()?))?;
                }
                "ttl_ms" => {
                    input.parse::<Token![=]>()?;
                    set(&mut args.ttl_ms, &key, input.parse()?)?;
                }
                "cache_scope" => set(&mut args.cache_scope, &key, cache_scope(input)?)?,
                "complete" => args.complete.extend(completers(input)?),
                "free_text" => args.free_text.extend(idents(input)?),
                other => return Err(unknown(&key, other, RESOURCE_OPTIONS)),
            }
        }
        Ok(args)
    }
}

/// `= "public"` or `= "private"`, after `cache_scope`.
fn cache_scope(input: ParseStream) -> syn::Result<CacheScope> {
    let value = string_value(input)?;
    match value.value().as_str() {
        "public" => Ok(CacheScope::Public),
        "private" => Ok(CacheScope::Private),
        other => Err(syn::Error::new(
            value.span(),
            format!(
                "`cache_scope` is \"public\" or \"private\", as MCP spells it, not \"{other}\""
            ),
        )),
    }
}

/// `key = "text"`, after the key.
fn string_value(input: ParseStream) -> syn::Result<LitStr> {
    input.parse::<Token![=]>()?;
    if !input.peek(LitStr) {
        return Err(input.error("expected a string literal"));
    }
    input.parse()
}

/// `(var = path, ..)`.
fn completers(input: ParseStream) -> syn::Result<Vec<(Ident, Path)>> {
    let content;
    syn::parenthesized!(content in input);
    let mut out = Vec::new();
    while !content.is_empty() {
        let var: Ident = content.parse()?;
        content.parse::<Token![=]>()?;
        out.push((var, content.parse()?));
        if !content.is_empty() {
            content.parse::<Token![,]>()?;
        }
    }
    Ok(out)
}

/// `(a, b, ..)`.
fn idents(input: ParseStream) -> syn::Result<Vec<Ident>> {
    let content;
    syn::parenthesized!(content in input);
    Ok(content
        .parse_terminated(Ident::parse, Token![,])?
        .into_iter()
        .collect())
}

fn set<T>(slot: &mut Option<T>, key: &Ident, value: T) -> syn::Result<()> {
    if slot.is_some() {
        return Err(syn::Error::new(
            key.span(),
            format!("`{key}` is given twice"),
        ));
    }
    *slot = Some(value);
    Ok(())
}

fn unknown(key: &Ident, given: &str, expected: &str) -> syn::Error {
    let hint = match crate::signature::near(given, expected.split(", ")) {
        Some(known) => format!("; did you mean `{known}`?"),
        None => String::new(),
    };
    syn::Error::new(
        key.span(),
        format!("unknown option `{given}` (expected one of: {expected}){hint}"),
    )
}

/// `#[resource_router(vis = pub(crate))]`: the visibility of `resource_router()` (private by
/// default, like rmcp's `tool_router()`). Written bare, or quoted as rmcp's macros spell it
/// (`vis = "pub"`).
pub struct RouterArgs {
    pub vis: Visibility,
}

impl Parse for RouterArgs {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut vis = Visibility::Inherited;
        while !input.is_empty() {
            let key: Ident = input.parse()?;
            match key.to_string().as_str() {
                "vis" => {
                    input.parse::<Token![=]>()?;
                    vis = if input.peek(syn::LitStr) {
                        input.parse::<syn::LitStr>()?.parse()?
                    } else {
                        input.parse()?
                    };
                }
                other => return Err(unknown(&key, other, "vis")),
            }
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
        }
        Ok(Self { vis })
    }
}

/// `#[resource_handler(router = expr, subscriptions = expr, directory_read, name = "..",
/// version = "..", instructions = "..")]`.
pub struct HandlerArgs {
    pub router: Option<Expr>,
    pub subscriptions: Option<Expr>,
    /// Answer SEP-2640's `resources/directory/read` for the router's directories.
    pub directory_read: bool,
    pub name: Option<LitStr>,
    pub version: Option<LitStr>,
    pub instructions: Option<LitStr>,
    /// The first of `name`, `version`, `instructions`, for an error that points at it.
    pub info_span: Option<Span>,
}

impl Parse for HandlerArgs {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut args = Self {
            router: None,
            subscriptions: None,
            directory_read: false,
            name: None,
            version: None,
            instructions: None,
            info_span: None,
        };
        while !input.is_empty() {
            let key: Ident = input.parse()?;
            match key.to_string().as_str() {
                "router" => {
                    input.parse::<Token![=]>()?;
                    set(&mut args.router, &key, input.parse()?)?;
                }
                "subscriptions" => {
                    input.parse::<Token![=]>()?;
                    set(&mut args.subscriptions, &key, input.parse()?)?;
                }
                "directory_read" => args.directory_read = true,
                "name" | "version" | "instructions" => {
                    args.info_span.get_or_insert(key.span());
                    let value = string_value(input)?;
                    let slot = match key.to_string().as_str() {
                        "name" => &mut args.name,
                        "version" => &mut args.version,
                        _ => &mut args.instructions,
                    };
                    set(slot, &key, value)?;
                }
                other => {
                    return Err(unknown(
                        &key,
                        other,
                        "router, subscriptions, directory_read, name, version, instructions",
                    ));
                }
            }
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
        }
        Ok(args)
    }
}
