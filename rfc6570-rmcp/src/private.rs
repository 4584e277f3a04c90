//! What the macros' generated code names. Not public API: it changes with the macros.

pub use rfc6570::mcp::Resource;
pub use rfc6570::router::RouteOptions;
pub use rfc6570::safety::SafetyPolicy;
pub use rmcp;
pub use rmcp::model::ReadResourceResult;
pub use serde;

use rfc6570::mcp::ResourceTemplate;
use rmcp::model::{SKILLS_EXTENSION_ID, ServerCapabilities};

use crate::complete::IntoCompletions;
use rmcp::model::{SubscribeRequestParams, SubscriptionFilter, UnsubscribeRequestParams};
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer};

use crate::router::{RegisterError, ResourceRouter};
use crate::subscriptions::Subscriptions;

/// The MIME type that contents of type `T` are served as, as the macro lists it for a method
/// without `mime_type`: `(&MimeOf::<T>(PhantomData)).mime()` is `T::MIME_TYPE` where `T` is
/// [`IntoContents`](crate::IntoContents), and `None` where it is not (method resolution tries
/// the impl on `MimeOf<T>` before the one on `&MimeOf<T>`), so that a method returning
/// something else is refused once, where its read is checked, and not here again.
pub struct MimeOf<T>(pub std::marker::PhantomData<T>);

/// [`MimeOf`] of contents.
pub trait MimeOfContents {
    fn mime(&self) -> Option<&'static str>;
}

impl<T: crate::IntoContents> MimeOfContents for MimeOf<T> {
    fn mime(&self) -> Option<&'static str> {
        T::MIME_TYPE
    }
}

/// [`MimeOf`] of anything else: none.
pub trait MimeOfAnything {
    fn mime(&self) -> Option<&'static str> {
        None
    }
}

impl<T> MimeOfAnything for &MimeOf<T> {}

/// A template the macro has parsed already.
pub fn template(text: &str, name: &str) -> ResourceTemplate {
    ResourceTemplate::parse(text, name)
        .unwrap_or_else(|e| panic!("#[resource] template {text:?} checked at compile time: {e}"))
}

/// A registration the macro has checked already (templates parse and do not conflict).
pub fn registered<S>(
    result: Result<ResourceRouter<S>, RegisterError>,
    method: &str,
) -> ResourceRouter<S> {
    result.unwrap_or_else(|e| {
        let mut text = e.to_string();
        let mut source = std::error::Error::source(&e);
        while let Some(cause) = source {
            text = format!("{text}: {cause}");
            source = cause.source();
        }
        panic!("#[resource] on `{method}`: {text}")
    })
}

/// The router of a `#[resource_router]` impl block, which `#[resource_handler]` serves unless
/// told `router = ..`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no `#[resource_router]` impl block, whose resources \
               `#[resource_handler]` would serve",
    label = "serves the resources of `{Self}`'s `#[resource_router]` impl block",
    note = "add `#[resource_router]` to the impl block of `{Self}`'s `#[resource]` methods, or \
            name a router: `#[resource_handler(router = self.router)]`"
)]
pub trait HasResourceRouter: Sized {
    /// The router, or a reference to the one built once.
    type Router: AsRef<ResourceRouter<Self>>;

    /// The router of the `#[resource]` methods.
    fn cached_router() -> Self::Router;
}

/// The router behind a handler's `router = ..` expression: a router, a reference, an `Arc`.
pub fn router_of<S, R: AsRef<ResourceRouter<S>> + ?Sized>(router: &R) -> &ResourceRouter<S> {
    router.as_ref()
}

/// Adds resources (with `subscribe` and `listChanged` when the handler answers subscriptions:
/// `Subscriptions::notify_list_changed` is how it sends list changes), completions and,
/// with `directory_read`, SEP-2640's directory reads to capabilities that may already hold
/// tools, prompts or other extensions.
pub fn merge_capabilities(
    capabilities: &mut ServerCapabilities,
    subscribe: bool,
    directory_read: bool,
) {
    let resources = capabilities.resources.get_or_insert_with(Default::default);
    if subscribe {
        resources.subscribe = Some(true);
        resources.list_changed = Some(true);
    }
    capabilities
        .completions
        .get_or_insert_with(Default::default);
    if directory_read {
        let skills = capabilities
            .extensions
            .get_or_insert_with(Default::default)
            .entry(SKILLS_EXTENSION_ID.to_owned())
            .or_default();
        skills.insert("directoryRead".to_owned(), true.into());
    }
}

/// What a `#[resource]` completer returned, as candidates. The macro spans the call at the
/// completer's return type, so that one that returns no candidates is an error there.
pub fn completions(candidates: impl IntoCompletions) -> Vec<String> {
    candidates.into_completions()
}

/// The legacy `resources/subscribe`, for `#[resource_handler(subscriptions = ..)]`.
pub async fn subscribe<S>(
    subscriptions: &Subscriptions,
    router: &ResourceRouter<S>,
    request: SubscribeRequestParams,
    context: RequestContext<RoleServer>,
) -> Result<(), ErrorData> {
    subscriptions.subscribe(router, request, context).await
}

/// The legacy `resources/unsubscribe`.
pub fn unsubscribe(
    subscriptions: &Subscriptions,
    request: UnsubscribeRequestParams,
    context: RequestContext<RoleServer>,
) -> Result<(), ErrorData> {
    subscriptions.unsubscribe(request, context)
}

/// What a `subscriptions/listen` filter is granted.
pub fn accept<S>(
    subscriptions: &Subscriptions,
    router: &ResourceRouter<S>,
    requested: &SubscriptionFilter,
) -> Option<SubscriptionFilter> {
    subscriptions.accept(router, requested)
}

/// A `subscriptions/listen` stream, held until it ends.
pub async fn listen(
    subscriptions: &Subscriptions,
    context: SubscriptionContext,
) -> Result<(), ErrorData> {
    subscriptions.listen(context).await
}
