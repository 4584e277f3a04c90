//! The registry: [`Resources`], every listed template and resource with its handler, behind
//! one router.

use std::fmt;

use super::complete::{CompleteRequest, Completion, CompletionError, Reference};
use super::list::{CURSOR_RESOURCES, CURSOR_TEMPLATES, decode_cursor, encode_cursor};
use super::list::{InvalidCursor, ResourcePage, TemplatePage};
use super::read::{ReadError, ResourceMatch};
use super::schema::{Listing, Resource, ResourceTemplate};
use crate::error::ErrorKind;
use crate::router::{RouteOptions, RouterOptions};
use crate::{Error, InsertError, Router, UriTemplate};

pub(super) struct Entry<H> {
    pub(super) listing: Listing,
    pub(super) handler: H,
}

/// A registry of MCP resources: resource templates and static resources, each with a handler
/// of type `H`, routed by one [`Router`].
///
/// * **Listing.** [`list_templates`](Self::list_templates) and
///   [`list_resources`](Self::list_resources) return pages in insertion order, of
///   [`page_size`](Self::page_size) entries (100 by default). The next page's cursor is opaque;
///   it names the entry the page starts at, so entries added meanwhile (at the end) are still
///   listed and none is listed twice; a cursor whose entry was removed is an [`InvalidCursor`].
/// * **Reading.** [`at`](Self::at) routes a URI with the router's precedence and path
///   safety, and gives the handler with the captures, which
///   [`ResourceMatch::params`] extracts into a typed value. A refusal is a [`ReadError`], whose
///   [`to_json_rpc`](ReadError::to_json_rpc) is the "resource not found" error of the
///   negotiated revision.
/// * **Completion.** [`complete`](Self::complete) checks a `completion/complete` request against
///   the template it names.
///
/// ```
/// use rfc6570::mcp::{Resource, ResourceTemplate, Resources};
///
/// enum Handler { File, Readme }
///
/// let mut resources = Resources::new().page_size(10);
/// resources.insert(ResourceTemplate::parse("file:///{+path}", "file")?, Handler::File)?;
/// resources.insert_resource(Resource::new("file:///README.md", "readme"), Handler::Readme)?;
///
/// // The static resource wins over the template for its own URI.
/// assert!(matches!(resources.at("file:///README.md")?.handler, Handler::Readme));
/// let read = resources.at("file:///docs/guide.md")?;
/// assert!(matches!(read.handler, Handler::File));
/// assert_eq!(read.captures.get("path").unwrap().decoded(), "docs/guide.md");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Resources<H> {
    router: Router<Entry<H>>,
    page_size: usize,
}

impl<H> Default for Resources<H> {
    fn default() -> Self {
        Self::with_options(RouterOptions::DEFAULT)
    }
}

impl<H> fmt::Debug for Resources<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Resources")
            .field(
                "entries",
                &self
                    .router
                    .iter()
                    .map(|(_, e)| e.listing.key())
                    .collect::<Vec<_>>(),
            )
            .field("page_size", &self.page_size)
            .finish()
    }
}

impl<H> Resources<H> {
    /// The default page size of the lists.
    pub const DEFAULT_PAGE_SIZE: usize = 100;

    /// An empty registry with the router's default options.
    ///
    /// ```
    /// let resources: rfc6570::mcp::Resources<()> = rfc6570::mcp::Resources::new();
    /// assert!(resources.is_empty());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty registry whose router has these options.
    ///
    /// ```
    /// use rfc6570::mcp::{ResourceTemplate, Resources};
    /// use rfc6570::router::RouterOptions;
    ///
    /// let mut resources = Resources::with_options(RouterOptions::new().strict_query(true));
    /// resources.insert(ResourceTemplate::parse("search://docs{?q}", "search")?, ())?;
    /// assert!(resources.at("search://docs?q=x&utm=y").is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_options(options: RouterOptions) -> Self {
        Self {
            router: Router::with_options(options),
            page_size: Self::DEFAULT_PAGE_SIZE,
        }
    }

    /// Sets the number of entries per listed page (at least 1).
    ///
    /// ```
    /// use rfc6570::mcp::{ResourceTemplate, Resources};
    ///
    /// let mut resources = Resources::new().page_size(1);
    /// resources.insert(ResourceTemplate::parse("a://{x}", "a")?, ())?;
    /// resources.insert(ResourceTemplate::parse("b://{x}", "b")?, ())?;
    /// let first = resources.list_templates(None)?;
    /// assert_eq!(first.resource_templates.len(), 1);
    /// let second = resources.list_templates(first.next_cursor.as_deref())?;
    /// assert_eq!(second.resource_templates[0].name, "b");
    /// assert_eq!(second.next_cursor, None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn page_size(mut self, page_size: usize) -> Self {
        self.page_size = page_size.max(1);
        self
    }

    /// Registers a resource template with its handler.
    ///
    /// ```
    /// use rfc6570::mcp::{ResourceTemplate, Resources};
    ///
    /// let mut resources = Resources::new();
    /// resources.insert(ResourceTemplate::parse("notes://{id}", "note")?, 1)?;
    /// assert!(resources.insert(ResourceTemplate::parse("notes://{name}", "other")?, 2).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Router::insert`]: a template that matches the same URIs as another, or that has a
    /// lint when the options [deny them](crate::router::RouterOptions::deny_lints).
    pub fn insert(&mut self, template: ResourceTemplate, handler: H) -> Result<(), InsertError> {
        self.insert_with(template, handler, RouteOptions::default())
    }

    /// Registers a resource template with its handler and its own route options (path
    /// safety per template or variable).
    ///
    /// ```
    /// use rfc6570::{mcp::{ResourceTemplate, Resources}};
    /// use rfc6570::router::RouteOptions;
    /// use rfc6570::safety::SafetyPolicy;
    ///
    /// let mut resources = Resources::new();
    /// let any_text = RouteOptions::default().var_safety("text", SafetyPolicy::OFF);
    /// resources.insert_with(ResourceTemplate::parse("echo://{+text}", "echo")?, (), any_text)?;
    /// assert!(resources.at("echo://../x").is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Router::insert_with`].
    pub fn insert_with(
        &mut self,
        template: ResourceTemplate,
        handler: H,
        options: RouteOptions,
    ) -> Result<(), InsertError> {
        let uri_template = template.uri_template.clone();
        let entry = Entry {
            listing: Listing::Template(template),
            handler,
        };
        self.router.insert_with(uri_template, entry, options)
    }

    /// Registers a static resource with its handler. Its URI is routed as a template without
    /// expressions, which wins over every template for that URI.
    ///
    /// ```
    /// use rfc6570::mcp::{Resource, Resources};
    ///
    /// let mut resources = Resources::new();
    /// resources.insert_resource(Resource::new("config://app", "app"), ())?;
    /// assert!(resources.at("config://app").is_ok());
    /// assert!(resources.insert_resource(Resource::new("config://{x}", "x"), ()).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`InsertError::Parse`] for a URI that is not a valid template literal: one with a
    /// character that a URI does not allow raw either (space, `"`, `<`, `>`, `\`, `^`, `` ` ``,
    /// `{`, `|`, `}`, a control character), or a `%` without two hex digits; and the errors of
    /// [`Router::insert`].
    pub fn insert_resource(&mut self, resource: Resource, handler: H) -> Result<(), InsertError> {
        let template = UriTemplate::parse(&resource.uri)?;
        if let Some(e) = template.expressions().next() {
            let at = Some(e.offset());
            return Err(Error::new(ErrorKind::InvalidLiteral, at, &resource.uri).into());
        }
        let entry = Entry {
            listing: Listing::Resource(resource),
            handler,
        };
        self.router.insert(template, entry)
    }

    /// Removes an entry by its template text or URI, and returns its handler.
    ///
    /// ```
    /// use rfc6570::mcp::{ResourceTemplate, Resources};
    ///
    /// let mut resources = Resources::new();
    /// resources.insert(ResourceTemplate::parse("notes://{id}", "note")?, 5)?;
    /// assert_eq!(resources.remove("notes://{id}"), Some(5));
    /// assert!(resources.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn remove(&mut self, key: &str) -> Option<H> {
        self.router.remove(key).map(|e| e.handler)
    }

    /// The number of entries, templates and resources.
    ///
    /// ```
    /// let resources: rfc6570::mcp::Resources<()> = rfc6570::mcp::Resources::new();
    /// assert_eq!(resources.len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.router.len()
    }

    /// Whether there are no entries.
    ///
    /// ```
    /// let resources: rfc6570::mcp::Resources<()> = rfc6570::mcp::Resources::new();
    /// assert!(resources.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.router.is_empty()
    }

    /// The resource templates with their handlers, in insertion order.
    ///
    /// ```
    /// use rfc6570::mcp::{Resource, ResourceTemplate, Resources};
    ///
    /// let mut resources = Resources::new();
    /// resources.insert(ResourceTemplate::parse("notes://{id}", "note")?, 'n')?;
    /// resources.insert_resource(Resource::new("config://app", "app"), 'c')?;
    /// let names: Vec<_> = resources.templates().map(|(t, h)| (t.name.as_str(), *h)).collect();
    /// assert_eq!(names, [("note", 'n')]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn templates(&self) -> impl Iterator<Item = (&ResourceTemplate, &H)> + '_ {
        self.router.iter().filter_map(|(_, e)| match &e.listing {
            Listing::Template(t) => Some((t, &e.handler)),
            Listing::Resource(_) => None,
        })
    }

    /// The static resources with their handlers, in insertion order.
    ///
    /// ```
    /// use rfc6570::mcp::{Resource, Resources};
    ///
    /// let mut resources = Resources::new();
    /// resources.insert_resource(Resource::new("config://app", "app"), ())?;
    /// assert_eq!(resources.resources().count(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resources(&self) -> impl Iterator<Item = (&Resource, &H)> + '_ {
        self.router.iter().filter_map(|(_, e)| match &e.listing {
            Listing::Resource(r) => Some((r, &e.handler)),
            Listing::Template(_) => None,
        })
    }

    /// The resource template with this exact text, and its handler.
    ///
    /// ```
    /// use rfc6570::mcp::{ResourceTemplate, Resources};
    ///
    /// let mut resources = Resources::new();
    /// resources.insert(ResourceTemplate::parse("notes://{id}", "note")?, ())?;
    /// assert_eq!(resources.template("notes://{id}").unwrap().0.name, "note");
    /// assert!(resources.template("notes://{ id}").is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn template(&self, text: &str) -> Option<(&ResourceTemplate, &H)> {
        match self.router.get(text) {
            Some((
                _,
                Entry {
                    listing: Listing::Template(t),
                    handler,
                },
            )) => Some((t, handler)),
            _ => None,
        }
    }

    /// One page of `resources/templates/list`: the first page for `None`, else the page that
    /// `cursor` (a `nextCursor` from an earlier page) names.
    ///
    /// ```
    /// use rfc6570::mcp::{ResourceTemplate, Resources};
    ///
    /// let mut resources = Resources::new().page_size(2);
    /// for scheme in ["a", "b", "c"] {
    ///     resources.insert(ResourceTemplate::parse(&format!("{scheme}://{{x}}"), scheme)?, ())?;
    /// }
    /// let mut names = Vec::new();
    /// let mut cursor = None;
    /// loop {
    ///     let page = resources.list_templates(cursor.as_deref())?;
    ///     names.extend(page.resource_templates.iter().map(|t| t.name.clone()));
    ///     match page.next_cursor {
    ///         Some(next) => cursor = Some(next),
    ///         None => break,
    ///     }
    /// }
    /// assert_eq!(names, ["a", "b", "c"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`InvalidCursor`] for a cursor that names no page of this list.
    pub fn list_templates(&self, cursor: Option<&str>) -> Result<TemplatePage<'_>, InvalidCursor> {
        let (items, next_cursor) = self.page(cursor, CURSOR_TEMPLATES, |l| match l {
            Listing::Template(t) => Some(t),
            Listing::Resource(_) => None,
        })?;
        Ok(TemplatePage {
            resource_templates: items,
            next_cursor,
        })
    }

    /// One page of `resources/list`; see [`list_templates`](Self::list_templates).
    ///
    /// ```
    /// use rfc6570::mcp::{Resource, Resources};
    ///
    /// let mut resources = Resources::new().page_size(1);
    /// resources.insert_resource(Resource::new("config://a", "a"), ())?;
    /// resources.insert_resource(Resource::new("config://b", "b"), ())?;
    /// let first = resources.list_resources(None)?;
    /// let second = resources.list_resources(first.next_cursor.as_deref())?;
    /// assert_eq!(second.resources[0].uri, "config://b");
    /// // A cursor of one list is no cursor of the other.
    /// assert!(resources.list_templates(first.next_cursor.as_deref()).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`InvalidCursor`] for a cursor that names no page of this list.
    pub fn list_resources(&self, cursor: Option<&str>) -> Result<ResourcePage<'_>, InvalidCursor> {
        let (items, next_cursor) = self.page(cursor, CURSOR_RESOURCES, |l| match l {
            Listing::Resource(r) => Some(r),
            Listing::Template(_) => None,
        })?;
        Ok(ResourcePage {
            resources: items,
            next_cursor,
        })
    }

    fn page<'a, T>(
        &'a self,
        cursor: Option<&str>,
        tag: char,
        pick: impl Fn(&'a Listing) -> Option<&'a T>,
    ) -> Result<(Vec<&'a T>, Option<String>), InvalidCursor> {
        let mut entries = self
            .router
            .iter()
            .filter_map(|(_, e)| pick(&e.listing).map(|item| (e.listing.key(), item)))
            .peekable();
        if let Some(cursor) = cursor {
            let invalid = || InvalidCursor {
                cursor: cursor.to_owned(),
            };
            let key = decode_cursor(cursor, tag).ok_or_else(invalid)?;
            while entries.next_if(|(k, _)| *k != key).is_some() {}
            if entries.peek().is_none() {
                return Err(invalid());
            }
        }
        let items = entries
            .by_ref()
            .take(self.page_size)
            .map(|(_, item)| item)
            .collect();
        let next = entries.next().map(|(key, _)| encode_cursor(key, tag));
        Ok((items, next))
    }

    /// Routes a `resources/read` URI to its entry, with the router's precedence and path
    /// safety.
    ///
    /// ```
    /// use rfc6570::mcp::{ResourceTemplate, Resources};
    ///
    /// let mut resources = Resources::new();
    /// resources.insert(ResourceTemplate::parse("search://docs{?q,lang}", "search")?, "search")?;
    /// let read = resources.at("search://docs?q=uri%20templates&lang=en")?;
    /// assert_eq!(*read.handler, "search");
    /// assert_eq!(read.captures.get("q").unwrap().decoded(), "uri templates");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ReadError::Route`] with the router's [`RouteError`](crate::RouteError).
    pub fn at<'r: 'u, 'u>(&'r self, uri: &'u str) -> Result<ResourceMatch<'r, 'u, H>, ReadError> {
        let routed = self.router.at(uri).map_err(|error| ReadError::Route {
            uri: uri.to_owned(),
            error,
        })?;
        Ok(ResourceMatch {
            handler: &routed.value.handler,
            template: routed.template,
            captures: routed.captures,
            uri,
            listing: &routed.value.listing,
        })
    }

    /// Checks a `completion/complete` request: it must name a template of this registry by its
    /// exact text, and an argument that is one of the template's variables. The variables in
    /// `context.arguments` that the template has are kept as already chosen.
    ///
    /// ```
    /// use rfc6570::mcp::{CompleteRequest, CompletionError, ResourceTemplate, Resources};
    ///
    /// let mut resources = Resources::new();
    /// resources.insert(ResourceTemplate::parse("log://build/{job_id}{?lines}", "log")?, ["41", "42"])?;
    ///
    /// let request = CompleteRequest::resource("log://build/{job_id}{?lines}", "job_id", "4");
    /// let completion = resources.complete(&request)?;
    /// let result = completion.complete_from(completion.handler.iter().copied());
    /// assert_eq!(result.completion.values, ["41", "42"]);
    ///
    /// let unknown = CompleteRequest::resource("log://{id}", "id", "");
    /// assert!(matches!(resources.complete(&unknown), Err(CompletionError::UnknownTemplate { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`CompletionError`]: a prompt reference, an unknown template, or an argument that is not
    /// one of its variables.
    pub fn complete<'r>(
        &'r self,
        request: &'r CompleteRequest,
    ) -> Result<Completion<'r, H>, CompletionError> {
        let uri = match &request.reference {
            Reference::Resource { uri } => uri,
            Reference::Prompt { name, .. } => {
                return Err(CompletionError::Prompt { name: name.clone() });
            }
        };
        let Some((_, entry)) = self.router.get(uri) else {
            return Err(CompletionError::UnknownTemplate { uri: uri.clone() });
        };
        let argument = request.argument.name.as_str();
        let unknown_argument = || CompletionError::UnknownArgument {
            template: uri.clone(),
            argument: argument.to_owned(),
        };
        let Listing::Template(template) = &entry.listing else {
            return Err(unknown_argument());
        };
        let is_variable = |name: &str| template.uri_template.variables().any(|v| v.name() == name);
        if !is_variable(argument) {
            return Err(unknown_argument());
        }
        let chosen = request
            .context
            .iter()
            .flat_map(|c| c.arguments.iter().flatten())
            .filter(|(name, _)| is_variable(name))
            .map(|(name, value)| (name.as_str(), value.as_str()))
            .collect();
        Ok(Completion {
            handler: &entry.handler,
            template,
            argument,
            value: &request.argument.value,
            chosen,
        })
    }
}
