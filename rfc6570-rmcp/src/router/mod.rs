//! The resource router: templates and static resources with their read handlers and
//! completers, over server state `S`, answering rmcp's resource requests. Why a registration
//! is refused is `error`; a handler's panic, caught, is `unwinding`.

mod error;
mod unwinding;

use std::collections::HashMap;
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use rfc6570::mcp::{self, ResourceTemplate, Resources, Revision};
use rfc6570::router::RouteOptions;
use rmcp::model::{
    CacheScope, CompleteRequestParams, CompleteResult, ErrorCode, ListResourceTemplatesResult,
    ListResourcesResult, PaginatedRequestParams, ReadResourceDirectoryRequestParams,
    ReadResourceDirectoryResult, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, Reference,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use crate::complete::{Completing, IntoCompletions};
use crate::convert;
use crate::directory::Directory;
use crate::read::{BoxFuture, IntoContents, ReadError, ReadRequest, ReadTarget};
pub use error::RegisterError;
use unwinding::{Panicked, Unwinding};

type ReadFn<S> = Arc<
    dyn for<'a> Fn(&'a S, ReadRequest<'a>) -> BoxFuture<'a, Result<ReadResourceResult, ReadError>>
        + Send
        + Sync,
>;
type CompleteFn<S> =
    Arc<dyn for<'a> Fn(&'a S, Completing<'a>) -> BoxFuture<'a, Vec<String>> + Send + Sync>;

/// What a registry entry holds: its read handler.
struct Entry<S> {
    read: ReadFn<S>,
}

/// MCP resources over server state `S`: templates and static resources, each with an async read
/// handler, and completers for template variables. It answers `resources/list`,
/// `resources/templates/list`, `resources/read` and `completion/complete` for rmcp.
///
/// [`#[resource_router]`](crate::resource_router) builds one from annotated methods; this is the
/// same router by hand. A server's [`ServerHandler`](rmcp::ServerHandler) forwards to it with
/// [`#[resource_handler]`](crate::resource_handler), or with the methods below.
///
/// * Lists are paged ([`page_size`](Self::page_size)) with opaque cursors, in a stable order.
///   Peers on 2026-07-28 get the same cache hints on every page ([`list_cache`](Self::list_cache)).
/// * A read is routed with the core crate's precedence and path safety; every refusal is "resource
///   not found" with the code of the client's revision (`-32002`, or `-32602` from 2026-07-28),
///   `data.uri`, and a message that names the rule but never repeats the client's value.
/// * Completion answers `ref/resource` for a template's variables: at most 100 values that start
///   with the typed prefix.
///
/// ```
/// use rfc6570::mcp::{Resource, ResourceTemplate};
/// use rfc6570_rmcp::{Completing, ReadError, ReadRequest, ResourceRouter};
///
/// struct Logs { jobs: Vec<u64> }
///
/// let router = ResourceRouter::<Logs>::new()
///     .page_size(50)
///     .resource(Resource::new("config://app", "config"), |_: &Logs, r: ReadRequest<'_>| {
///         Box::pin(async move { r.reply("theme=dark") })
///     })?
///     .template(
///         ResourceTemplate::parse("log://build/{job_id}", "build-log")?,
///         |logs: &Logs, r: ReadRequest<'_>| Box::pin(async move {
///             #[derive(serde::Deserialize)]
///             struct Job { job_id: u64 }
///             let Job { job_id } = r.params()?;
///             if !logs.jobs.contains(&job_id) {
///                 return Err(ReadError::not_found_because("no build has that id"));
///             }
///             r.reply(format!("log of {job_id}"))
///         }),
///     )?
///     .completer("log://build/{job_id}", "job_id", |logs: &Logs, _: Completing<'_>| {
///         let ids: Vec<String> = logs.jobs.iter().map(u64::to_string).collect();
///         Box::pin(async move { ids })
///     })?;
/// assert_eq!(router.len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ResourceRouter<S> {
    resources: Resources<Entry<S>>,
    /// Completers by template text, then variable.
    completers: HashMap<String, HashMap<String, CompleteFn<S>>>,
    /// The directories served, for `resources/directory/read`.
    directories: Vec<Arc<Directory>>,
    page_size: usize,
    list_cache: (u64, CacheScope),
    /// The cache hints of reads, by template text or static URI. rmcp gives the others `0`
    /// and `private`.
    read_cache: HashMap<String, (u64, CacheScope)>,
}

impl<S> Default for ResourceRouter<S> {
    fn default() -> Self {
        Self {
            resources: Resources::new(),
            completers: HashMap::new(),
            directories: Vec::new(),
            page_size: Resources::<Entry<S>>::DEFAULT_PAGE_SIZE,
            list_cache: (0, CacheScope::Public),
            read_cache: HashMap::new(),
        }
    }
}

impl<S> fmt::Debug for ResourceRouter<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResourceRouter")
            .field("templates", &self.resources.templates().count())
            .field("resources", &self.resources.resources().count())
            .finish_non_exhaustive()
    }
}

impl<S> AsRef<ResourceRouter<S>> for ResourceRouter<S> {
    fn as_ref(&self) -> &ResourceRouter<S> {
        self
    }
}

/// Wraps a handler that returns anything [`IntoContents`] into the stored form.
fn read_fn<S, R, F>(handler: F) -> ReadFn<S>
where
    F: for<'a> Fn(&'a S, ReadRequest<'a>) -> BoxFuture<'a, R> + Send + Sync + 'static,
    R: IntoContents + 'static,
{
    Arc::new(move |state, request| {
        let target = request.target();
        let reading = handler(state, request);
        Box::pin(async move { reading.await.into_result(target) })
    })
}

impl<S> ResourceRouter<S> {
    /// An empty router: pages of 100, list cache hints of 0 ms, `public`.
    ///
    /// ```
    /// let router = rfc6570_rmcp::ResourceRouter::<()>::new();
    /// assert!(router.is_empty());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// The number of items on a page of `resources/list` and `resources/templates/list`.
    ///
    /// ```
    /// let router = rfc6570_rmcp::ResourceRouter::<()>::new().page_size(20);
    /// ```
    pub fn page_size(mut self, page_size: usize) -> Self {
        self.resources = self.resources.page_size(page_size);
        self.page_size = page_size.max(1);
        self
    }

    /// The cache hints that peers on 2026-07-28 get with every page of a list: how long it stays
    /// fresh and who may share it. The lists are the same for every client, so the default is
    /// `(0, CacheScope::Public)`.
    ///
    /// ```
    /// use rmcp::model::CacheScope;
    /// let router = rfc6570_rmcp::ResourceRouter::<()>::new().list_cache(60_000, CacheScope::Public);
    /// ```
    pub fn list_cache(mut self, ttl_ms: u64, scope: CacheScope) -> Self {
        self.list_cache = (ttl_ms, scope);
        self
    }

    /// The cache hints that peers on 2026-07-28 get with every read of `template` (a
    /// template's text, or a static resource's URI), where its handler's result sets none. A
    /// resource without them is read with rmcp's `(0, CacheScope::Private)`: fresh for no time,
    /// and private, since a handler may answer each caller differently. `#[resource(..,
    /// ttl_ms = N, cache_scope = "public")]` sets them from the macros.
    ///
    /// ```
    /// use rfc6570::mcp::ResourceTemplate;
    /// use rfc6570_rmcp::{ReadRequest, ResourceRouter};
    /// use rmcp::model::CacheScope;
    ///
    /// let router = ResourceRouter::<()>::new()
    ///     .template(ResourceTemplate::parse("log://build/{id}", "log")?, |_: &(), r: ReadRequest<'_>| {
    ///         Box::pin(async move { r.reply("done") })
    ///     })?
    ///     .read_cache("log://build/{id}", 60_000, CacheScope::Public)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`RegisterError::UnknownTemplate`] when no template or static resource has that text.
    pub fn read_cache(
        mut self,
        template: &str,
        ttl_ms: u64,
        scope: CacheScope,
    ) -> Result<Self, RegisterError> {
        let registered = self.resources.template(template).is_some()
            || self.resources.resources().any(|(r, _)| r.uri == template);
        if !registered {
            return Err(RegisterError::UnknownTemplate {
                template: template.to_owned(),
            });
        }
        self.read_cache.insert(template.to_owned(), (ttl_ms, scope));
        Ok(self)
    }

    /// Registers a template with its read handler, under the default route options.
    ///
    /// The handler gets the state and the [`ReadRequest`], and returns a boxed future of
    /// anything [`IntoContents`].
    ///
    /// ```
    /// use rfc6570::mcp::ResourceTemplate;
    /// use rfc6570_rmcp::{ReadRequest, ResourceRouter};
    ///
    /// let router = ResourceRouter::<()>::new().template(
    ///     ResourceTemplate::parse("notes://{id}", "note")?.mime_type("text/markdown"),
    ///     |_: &(), r: ReadRequest<'_>| Box::pin(async move { r.reply("# A note") }),
    /// )?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`RegisterError::Insert`]: the template conflicts with one registered before, or cannot
    /// be matched correctly.
    pub fn template<R, F>(
        self,
        template: ResourceTemplate,
        handler: F,
    ) -> Result<Self, RegisterError>
    where
        F: for<'a> Fn(&'a S, ReadRequest<'a>) -> BoxFuture<'a, R> + Send + Sync + 'static,
        R: IntoContents + 'static,
    {
        self.template_with(template, RouteOptions::default(), handler)
    }

    /// Registers a template under its own route options (path safety per variable, say).
    ///
    /// ```
    /// use rfc6570::mcp::ResourceTemplate;
    /// use rfc6570::router::RouteOptions;
    /// use rfc6570::safety::SafetyPolicy;
    /// use rfc6570_rmcp::{ReadRequest, ResourceRouter};
    ///
    /// // `q` is free text, not a path: it may hold `..` and `/`.
    /// let router = ResourceRouter::<()>::new().template_with(
    ///     ResourceTemplate::parse("search://docs{?q}", "search")?,
    ///     RouteOptions::default().var_safety("q", SafetyPolicy::OFF),
    ///     |_: &(), r: ReadRequest<'_>| Box::pin(async move { r.reply("[]") }),
    /// )?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`template`](Self::template).
    pub fn template_with<R, F>(
        mut self,
        template: ResourceTemplate,
        options: RouteOptions,
        handler: F,
    ) -> Result<Self, RegisterError>
    where
        F: for<'a> Fn(&'a S, ReadRequest<'a>) -> BoxFuture<'a, R> + Send + Sync + 'static,
        R: IntoContents + 'static,
    {
        let entry = Entry {
            read: read_fn(handler),
        };
        self.resources.insert_with(template, entry, options)?;
        Ok(self)
    }

    /// Registers a static resource with its read handler.
    ///
    /// ```
    /// use rfc6570::mcp::Resource;
    /// use rfc6570_rmcp::{ReadRequest, ResourceRouter};
    ///
    /// let router = ResourceRouter::<()>::new().resource(
    ///     Resource::new("config://app", "config").mime_type("text/plain"),
    ///     |_: &(), r: ReadRequest<'_>| Box::pin(async move { r.reply("theme=dark") }),
    /// )?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`RegisterError::Insert`]: a resource or template already answers that URI.
    pub fn resource<R, F>(
        mut self,
        resource: mcp::Resource,
        handler: F,
    ) -> Result<Self, RegisterError>
    where
        F: for<'a> Fn(&'a S, ReadRequest<'a>) -> BoxFuture<'a, R> + Send + Sync + 'static,
        R: IntoContents + 'static,
    {
        let entry = Entry {
            read: read_fn(handler),
        };
        self.resources.insert_resource(resource, entry)?;
        Ok(self)
    }

    /// Registers a completer for `variable` of the template whose text is `template`. It gets
    /// the state and the [`Completing`] request, and returns a boxed future of candidates.
    ///
    /// ```
    /// use rfc6570::mcp::ResourceTemplate;
    /// use rfc6570_rmcp::{Completing, ReadRequest, ResourceRouter};
    ///
    /// let router = ResourceRouter::<()>::new()
    ///     .template(
    ///         ResourceTemplate::parse("search://docs{?q,lang}", "search")?,
    ///         |_: &(), r: ReadRequest<'_>| Box::pin(async move { r.reply("[]") }),
    ///     )?
    ///     .completer("search://docs{?q,lang}", "lang", |_: &(), _: Completing<'_>| {
    ///         Box::pin(async { ["de", "en"] })
    ///     })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`RegisterError::UnknownTemplate`] or [`RegisterError::UnknownVariable`].
    pub fn completer<C, F>(
        mut self,
        template: &str,
        variable: &str,
        completer: F,
    ) -> Result<Self, RegisterError>
    where
        F: for<'a> Fn(&'a S, Completing<'a>) -> BoxFuture<'a, C> + Send + Sync + 'static,
        C: IntoCompletions + 'static,
    {
        let Some((listed, _)) = self.resources.template(template) else {
            return Err(RegisterError::UnknownTemplate {
                template: template.to_owned(),
            });
        };
        if !listed
            .uri_template
            .variables()
            .any(|v| v.name() == variable)
        {
            return Err(RegisterError::UnknownVariable {
                template: template.to_owned(),
                variable: variable.to_owned(),
            });
        }
        let complete: CompleteFn<S> = Arc::new(move |state, completing| {
            let candidates = completer(state, completing);
            Box::pin(async move { candidates.await.into_completions() })
        });
        self.completers
            .entry(template.to_owned())
            .or_default()
            .insert(variable.to_owned(), complete);
        Ok(self)
    }

    /// The number of templates and static resources.
    ///
    /// ```
    /// assert_eq!(rfc6570_rmcp::ResourceRouter::<()>::new().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.resources.len()
    }

    /// Whether nothing is registered.
    ///
    /// ```
    /// assert!(rfc6570_rmcp::ResourceRouter::<()>::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.resources.is_empty()
    }

    /// Whether `uri` names a resource of this router (it routes, path safety included).
    ///
    /// ```
    /// use rfc6570::mcp::ResourceTemplate;
    /// use rfc6570_rmcp::{ReadRequest, ResourceRouter};
    ///
    /// let router = ResourceRouter::<()>::new().template(
    ///     ResourceTemplate::parse("file:///{+path}", "file")?,
    ///     |_: &(), r: ReadRequest<'_>| Box::pin(async move { r.reply("") }),
    /// )?;
    /// assert!(router.routes("file:///docs/a.md"));
    /// assert!(!router.routes("file:///../etc/passwd"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn routes(&self, uri: &str) -> bool {
        self.check(uri).is_ok()
    }

    /// Why `uri` names no resource here: the router's refusal (no match, a path-safety rule, a
    /// malformed URI), as a read would answer it.
    pub(crate) fn check(&self, uri: &str) -> Result<(), ReadError> {
        self.resources.at(uri).map(|_| ()).map_err(ReadError::from)
    }

    /// The registered templates, in listing order.
    ///
    /// ```
    /// let router = rfc6570_rmcp::ResourceRouter::<()>::new();
    /// assert_eq!(router.templates().count(), 0);
    /// ```
    pub fn templates(&self) -> impl Iterator<Item = &ResourceTemplate> + '_ {
        self.resources.templates().map(|(t, _)| t)
    }

    /// The registered static resources, in listing order.
    ///
    /// ```
    /// let router = rfc6570_rmcp::ResourceRouter::<()>::new();
    /// assert_eq!(router.resources().count(), 0);
    /// ```
    pub fn resources(&self) -> impl Iterator<Item = &mcp::Resource> + '_ {
        self.resources.resources().map(|(r, _)| r)
    }

    /// `resources/list`: one page of the static resources.
    ///
    /// ```no_run
    /// # async fn f(router: &rfc6570_rmcp::ResourceRouter<()>, context: rmcp::service::RequestContext<rmcp::RoleServer>) {
    /// let page = router.list_resources(None, &context);
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// `-32602` for a cursor this router did not give.
    pub fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let cursor = request.and_then(|r| r.cursor);
        let page = self
            .resources
            .list_resources(cursor.as_deref())
            .map_err(|e| rpc_error(e.to_json_rpc()))?;
        let mut result = ListResourcesResult::with_all_items(
            page.resources
                .iter()
                .map(|r| convert::resource(r))
                .collect(),
        );
        result.next_cursor = page.next_cursor;
        (result.ttl_ms, result.cache_scope) = self.cache_hints(context);
        Ok(result)
    }

    /// `resources/templates/list`: one page of the templates.
    ///
    /// ```no_run
    /// # async fn f(router: &rfc6570_rmcp::ResourceRouter<()>, context: rmcp::service::RequestContext<rmcp::RoleServer>) {
    /// let page = router.list_resource_templates(None, &context);
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// `-32602` for a cursor this router did not give.
    pub fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let cursor = request.and_then(|r| r.cursor);
        let page = self
            .resources
            .list_templates(cursor.as_deref())
            .map_err(|e| rpc_error(e.to_json_rpc()))?;
        let templates = page
            .resource_templates
            .iter()
            .map(|t| convert::template(t))
            .collect();
        let mut result = ListResourceTemplatesResult::with_all_items(templates);
        result.next_cursor = page.next_cursor;
        (result.ttl_ms, result.cache_scope) = self.cache_hints(context);
        Ok(result)
    }

    /// Hints for peers that understand them (2026-07-28 and later); older peers get none.
    fn cache_hints(
        &self,
        context: &RequestContext<RoleServer>,
    ) -> (Option<u64>, Option<CacheScope>) {
        let (ttl, scope) = self.list_cache;
        if revision(context).has_cache_hints() {
            (Some(ttl), Some(scope))
        } else {
            (None, None)
        }
    }

    /// `resources/read`: routes the URI and runs its handler with `state`.
    ///
    /// ```no_run
    /// # async fn f(router: &rfc6570_rmcp::ResourceRouter<()>, request: rmcp::model::ReadResourceRequestParams, context: rmcp::service::RequestContext<rmcp::RoleServer>) {
    /// let result = router.read_resource(&(), request, context).await;
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// The handler's [`ReadError`], or the router's refusal, as the JSON-RPC error of the
    /// client's revision, with `data.uri`.
    pub async fn read_resource(
        &self,
        state: &S,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri.as_str();
        let revision = revision(&context);
        let routed = self
            .resources
            .at(uri)
            .map_err(|e| ReadError::from(e).to_error_data(uri, revision))?;
        let target = ReadTarget::new(uri, routed.mime_type());
        let read = ReadRequest::new(target, routed.template, routed.captures, context);
        // The handler may panic before it returns its future, or while it runs.
        let reading = catch_unwind(AssertUnwindSafe(|| (routed.handler.read)(state, read)));
        let outcome = match reading {
            Ok(future) => Unwinding(future).await,
            Err(_) => Err(Panicked),
        };
        let error = match outcome {
            Ok(Ok(mut result)) => {
                // Each hint the handler left unset comes from the resource's, if it has any.
                let hints = (revision.has_cache_hints() && !self.read_cache.is_empty())
                    .then(|| self.read_cache.get(routed.template.as_str()))
                    .flatten();
                if let Some(&(ttl, scope)) = hints {
                    result.ttl_ms.get_or_insert(ttl);
                    result.cache_scope.get_or_insert(scope);
                }
                return Ok(result.into());
            }
            Ok(Err(e)) => e,
            Err(Panicked) => ReadError::internal("the resource's handler panicked"),
        };
        let answer = error.to_error_data(uri, revision);
        if answer.code == ErrorCode::INTERNAL_ERROR {
            let template = routed.template.as_str();
            tracing::error!(uri, template, %error, "resources/read failed");
        }
        Err(answer)
    }

    /// SEP-2640 `resources/directory/read`: the children of a directory that a
    /// [`Directory`] serves, a page at a time.
    ///
    /// ```no_run
    /// # async fn f(router: &rfc6570_rmcp::ResourceRouter<()>, request: rmcp::model::ReadResourceDirectoryRequestParams, context: rmcp::service::RequestContext<rmcp::RoleServer>) {
    /// let page = router.read_resource_directory(request, &context);
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// `-32602` for a URI that is not a directory of a [`Directory`] here (the extension's
    /// answer, with `data.uri`), or for a cursor this router did not give.
    pub fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        let uri = request.uri.as_str();
        let not_a_directory = || {
            ErrorData::invalid_params("not a directory", Some(serde_json::json!({ "uri": uri })))
        };
        let routed = self.resources.at(uri).map_err(|_| not_a_directory())?;
        let template = routed.template.as_str();
        // The directory's template, or its root (a static resource of its own).
        let directory = self
            .directories
            .iter()
            .find(|d| d.template().uri_template.as_str() == template || d.uri("") == template)
            .ok_or_else(not_a_directory)?;
        let path = routed
            .captures
            .get("path")
            .map(|c| c.decoded().into_owned())
            .unwrap_or_default();
        let children = directory.children(&path).map_err(|_| not_a_directory())?;
        let start = match request.cursor.as_deref() {
            None => 0,
            Some(cursor) => parse_offset(cursor, children.len())
                .ok_or_else(|| ErrorData::invalid_params("invalid cursor", None))?,
        };
        let end = children.len().min(start.saturating_add(self.page_size));
        let mut result = ReadResourceDirectoryResult::with_all_items(children[start..end].to_vec());
        result.next_cursor = (end < children.len()).then(|| format!("o{end}"));
        (result.ttl_ms, result.cache_scope) = self.cache_hints(context);
        Ok(result)
    }

    /// `completion/complete`: `Ok(None)` for a prompt's argument, which is not this router's to
    /// answer; for a template's variable, the candidates of its completer (none without one)
    /// that start with the typed value, at most 100.
    ///
    /// ```no_run
    /// # async fn f(router: &rfc6570_rmcp::ResourceRouter<()>, request: rmcp::model::CompleteRequestParams, context: rmcp::service::RequestContext<rmcp::RoleServer>) {
    /// let result = router.complete(&(), request, &context).await;
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// `-32602` for a template this router does not list, or a name that is not one of its
    /// variables.
    pub async fn complete(
        &self,
        state: &S,
        request: CompleteRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<Option<CompleteResult>, ErrorData> {
        let Reference::Resource(reference) = &request.r#ref else {
            return Ok(None);
        };
        let chosen = request
            .context
            .and_then(|c| c.arguments)
            .unwrap_or_default();
        let asked = mcp::CompleteRequest::resource(
            reference.uri.as_str(),
            request.argument.name.as_str(),
            request.argument.value.as_str(),
        )
        .arguments(chosen);
        let completion = self.resources.complete(&asked).map_err(completion_error)?;
        let completer = self
            .completers
            .get(completion.template.uri_template.as_str())
            .and_then(|by_variable| by_variable.get(completion.argument));
        let candidates = match completer {
            Some(completer) => {
                let completing = Completing {
                    argument: completion.argument,
                    prefix: completion.value,
                    chosen: &completion.chosen,
                    context,
                };
                let panicked = || {
                    tracing::error!(argument = completion.argument, "a completer panicked");
                    ErrorData::internal_error("the completer panicked", None)
                };
                let future = catch_unwind(AssertUnwindSafe(|| completer(state, completing)))
                    .map_err(|_| panicked())?;
                Unwinding(future).await.map_err(|Panicked| panicked())?
            }
            None => Vec::new(),
        };
        Ok(Some(convert::completion(
            completion.complete_from(candidates),
        )))
    }
}

/// The path capture of a read of a [`Directory`].
#[derive(serde::Deserialize)]
struct FilePath {
    path: String,
}

impl<S: 'static> ResourceRouter<S> {
    /// Serves `directory` under its template, with completion of `path`, and its root as the
    /// static resource `file:///`.
    ///
    /// ```
    /// use rfc6570_rmcp::{Directory, ResourceRouter};
    ///
    /// let router = ResourceRouter::<()>::new().directory(Directory::new(env!("CARGO_MANIFEST_DIR"))?)?;
    /// assert!(router.routes("file:///src/lib.rs"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`RegisterError::Insert`]: another template already answers `file:///` URIs.
    pub fn directory(self, directory: impl Into<Arc<Directory>>) -> Result<Self, RegisterError> {
        let directory: Arc<Directory> = directory.into();
        let template = directory.template().clone();
        let text = template.uri_template.as_str().to_owned();
        // The root has no non-empty `path`: it is listed as a static resource of its own.
        let root = mcp::Resource::new(directory.uri(""), format!("{}-root", template.name))
            .title("The served directory")
            .mime_type("text/plain");
        let reader = Arc::clone(&directory);
        let root_reader = Arc::clone(&directory);
        let completer = Arc::clone(&directory);
        let mut router = self
            .template(template, move |_: &S, request: ReadRequest<'_>| {
                let directory = Arc::clone(&reader);
                Box::pin(async move {
                    let FilePath { path } = request.params()?;
                    directory.read(request.uri(), &path).await
                })
            })?
            .resource(root, move |_: &S, request: ReadRequest<'_>| {
                let directory = Arc::clone(&root_reader);
                Box::pin(async move { directory.read(request.uri(), "").await })
            })?
            .completer(&text, "path", move |_: &S, completing: Completing<'_>| {
                let directory = Arc::clone(&completer);
                Box::pin(async move { directory.complete(completing.prefix()) })
            })?;
        router.directories.push(directory);
        Ok(router)
    }
}

/// The offset a directory page's cursor (`o<offset>`) holds, if it is one this router gave.
fn parse_offset(cursor: &str, len: usize) -> Option<usize> {
    let digits = cursor.strip_prefix('o')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let offset: usize = digits.parse().ok()?;
    (offset > 0 && offset < len).then_some(offset)
}

/// The revision the client negotiated: the newest rmcp knows when it says none, and the newest
/// this crate knows for a version that is not a date.
pub(crate) fn revision(context: &RequestContext<RoleServer>) -> Revision {
    Revision::of_peer(context.protocol_version().unwrap_or_default().as_str())
}

/// A completion request this router cannot answer: `-32602`, with a message that does not
/// repeat what the client sent (a template's text or a name, at any length).
fn completion_error(e: mcp::CompletionError) -> ErrorData {
    let message = match e {
        mcp::CompletionError::UnknownTemplate { .. } => "no resource template has that text",
        mcp::CompletionError::UnknownArgument { .. } => {
            "the argument is not a variable of the template"
        }
        _ => return rpc_error(e.to_json_rpc()),
    };
    ErrorData::invalid_params(message, None)
}

pub(crate) fn rpc_error(e: mcp::JsonRpcError) -> ErrorData {
    ErrorData::new(ErrorCode(e.code), e.message, e.data)
}
