//! Reading a resource: what a handler receives ([`ReadRequest`]), what it may return
//! ([`IntoContents`]: text, bytes, JSON, rmcp's own types), and why it has nothing to give
//! ([`ReadError`]).

use std::borrow::Cow;
use std::fmt;
use std::future::Future;
use std::pin::Pin;

use base64::Engine as _;
use rfc6570::mcp::Revision;
use rfc6570::{Captures, UriTemplate};
use rmcp::model::{ErrorCode, ReadResourceResult, ResourceContents};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, Json, RoleServer};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::json;

/// A boxed future that can move between threads, as rmcp's handlers return them.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// One `resources/read`, routed to its entry: the URI, the template it matched, the decoded and
/// path-safe captures, and rmcp's request context.
///
/// Handlers written with [`#[resource]`](crate::resource) never see it: their parameters are
/// taken from it. A handler registered by hand with [`ResourceRouter::template`] gets it whole.
///
/// ```
/// use rfc6570_rmcp::{ReadError, ReadRequest, ResourceRouter};
/// use rfc6570::mcp::ResourceTemplate;
///
/// #[derive(serde::Deserialize)]
/// struct Profile { user_id: u64 }
///
/// let router = ResourceRouter::<()>::new().template(
///     ResourceTemplate::parse("users://{user_id}/profile", "profile")?,
///     |_: &(), request: ReadRequest<'_>| Box::pin(async move {
///         let Profile { user_id } = request.params()?;
///         request.reply(format!("user {user_id}"))
///     }),
/// )?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// [`ResourceRouter::template`]: crate::ResourceRouter::template
#[derive(Debug)]
pub struct ReadRequest<'a> {
    target: ReadTarget<'a>,
    template: &'a UriTemplate,
    captures: Captures<'a>,
    context: RequestContext<RoleServer>,
}

impl<'a> ReadRequest<'a> {
    pub(crate) fn new(
        target: ReadTarget<'a>,
        template: &'a UriTemplate,
        captures: Captures<'a>,
        context: RequestContext<RoleServer>,
    ) -> Self {
        Self {
            target,
            template,
            captures,
            context,
        }
    }

    /// The URI the client read, as it sent it.
    ///
    /// ```
    /// # fn f(request: rfc6570_rmcp::ReadRequest<'_>) {
    /// let uri: &str = request.uri();
    /// # }
    /// ```
    pub fn uri(&self) -> &'a str {
        self.target.uri
    }

    /// The template that matched (a static resource's URI, for a static resource).
    ///
    /// ```
    /// # fn f(request: rfc6570_rmcp::ReadRequest<'_>) {
    /// println!("{} matched {}", request.uri(), request.template());
    /// # }
    /// ```
    pub fn template(&self) -> &'a UriTemplate {
        self.template
    }

    /// The template's variables, decoded once and checked for path safety.
    ///
    /// ```
    /// # fn f(request: rfc6570_rmcp::ReadRequest<'_>) {
    /// let id = request.captures().get("id").map(|c| c.decoded());
    /// # }
    /// ```
    pub fn captures(&self) -> &Captures<'a> {
        &self.captures
    }

    /// The captures as `T` (any `Deserialize` type: a struct whose fields are the variables,
    /// `Option` for those that may be absent, `Vec` for lists, maps for associative arrays).
    ///
    /// ```
    /// # fn f(request: rfc6570_rmcp::ReadRequest<'_>) -> Result<(), rfc6570_rmcp::ReadError> {
    /// #[derive(serde::Deserialize)]
    /// struct BuildLog { job_id: u64, lines: Option<String> }
    /// let log: BuildLog = request.params()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// A capture that does not fit `T` is a resource that does not exist: the error's message
    /// names the variable, never its value.
    pub fn params<T: DeserializeOwned>(&self) -> Result<T, ReadError> {
        self.captures.deserialize().map_err(|error| {
            ReadError::from(rfc6570::mcp::ReadError::Params {
                uri: self.uri().to_owned(),
                error,
            })
        })
    }

    /// The MIME type listed for the resource or template, if any.
    ///
    /// ```
    /// # fn f(request: rfc6570_rmcp::ReadRequest<'_>) {
    /// let mime = request.mime_type().unwrap_or("text/plain");
    /// # }
    /// ```
    pub fn mime_type(&self) -> Option<&'a str> {
        self.target.mime_type
    }

    /// rmcp's context of the request: its peer, cancellation token and metadata.
    ///
    /// ```
    /// # fn f(request: rfc6570_rmcp::ReadRequest<'_>) {
    /// let version = request.context().protocol_version();
    /// # }
    /// ```
    pub fn context(&self) -> &RequestContext<RoleServer> {
        &self.context
    }

    /// The URI and listed MIME type, which is what turning a value into contents needs.
    ///
    /// ```
    /// # fn f(request: rfc6570_rmcp::ReadRequest<'_>) {
    /// let target = request.target();
    /// assert_eq!(target.uri, request.uri());
    /// # }
    /// ```
    pub fn target(&self) -> ReadTarget<'a> {
        self.target
    }

    /// The result for `value`, as [`IntoContents`] makes it.
    ///
    /// ```
    /// # fn f(request: rfc6570_rmcp::ReadRequest<'_>) -> Result<(), rfc6570_rmcp::ReadError> {
    /// let result = request.reply("hello")?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// As [`IntoContents::into_result`]: a value that is itself an error, or no contents.
    pub fn reply(&self, value: impl IntoContents) -> Result<ReadResourceResult, ReadError> {
        value.into_result(self.target)
    }

    /// The request context, taking the request apart (for a handler that passes the context on).
    ///
    /// ```
    /// # fn f(request: rfc6570_rmcp::ReadRequest<'_>) {
    /// let context = request.into_context();
    /// # }
    /// ```
    pub fn into_context(self) -> RequestContext<RoleServer> {
        self.context
    }
}

/// The resource a value becomes the contents of: the URI read and the listed MIME type.
///
/// ```
/// use rfc6570_rmcp::{IntoContents, ReadTarget};
/// let target = ReadTarget::new("notes://todo", Some("text/markdown"));
/// let result = "# To do".into_result(target)?;
/// assert_eq!(serde_json::to_value(&result.contents[0])?["mimeType"], "text/markdown");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReadTarget<'a> {
    /// The URI read.
    pub uri: &'a str,
    /// The MIME type the resource or template lists.
    pub mime_type: Option<&'a str>,
}

impl<'a> ReadTarget<'a> {
    /// A target: the URI and its listed MIME type.
    ///
    /// ```
    /// let target = rfc6570_rmcp::ReadTarget::new("config://app", None);
    /// ```
    pub fn new(uri: &'a str, mime_type: Option<&'a str>) -> Self {
        Self { uri, mime_type }
    }

    fn text(self, text: String, fallback: &str) -> ResourceContents {
        ResourceContents::text(text, self.uri).with_mime_type(self.mime_type.unwrap_or(fallback))
    }

    fn blob(self, bytes: &[u8], fallback: &str) -> ResourceContents {
        let blob = base64::engine::general_purpose::STANDARD.encode(bytes);
        ResourceContents::blob(blob, self.uri).with_mime_type(self.mime_type.unwrap_or(fallback))
    }
}

/// What a read handler may return, and the contents it becomes.
///
/// | value | contents |
/// |---|---|
/// | `String`, `&'static str`, `Cow<'static, str>` | text, the listed MIME type or `text/plain` |
/// | `Vec<u8>`, `&'static [u8]` | a base64 blob, the listed MIME type or `application/octet-stream` |
/// | [`Json<T>`](Json), [`PrettyJson<T>`](PrettyJson) for any `T: Serialize` | JSON text, compact or indented, the listed MIME type or `application/json` |
/// | [`Text`], [`Blob`] | text or a blob with the MIME type they carry |
/// | `ResourceContents`, `Vec<ResourceContents>`, `ReadResourceResult` | as they are: full control, several contents |
/// | `Result<T, E>` with `E: Into<`[`ReadError`]`>` | `T`'s contents, or the error |
///
/// A `#[resource]` method without `mime_type` is listed with the type its read answers
/// ([`MIME_TYPE`](Self::MIME_TYPE)), so that `resources/list`, `resources/templates/list` and
/// `resources/read` agree. A result without contents is the server's fault, answered as an
/// internal error: the protocol has no empty read.
///
/// ```
/// use rfc6570_rmcp::{IntoContents, Json, ReadTarget};
///
/// let target = ReadTarget::new("users://7/profile", None);
/// let result = Json(serde_json::json!({"id": 7})).into_result(target)?;
/// let json = serde_json::to_value(&result.contents[0])?;
/// assert_eq!(json["mimeType"], "application/json");
/// assert_eq!(json["text"], r#"{"id":7}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "a resource cannot be read as `{Self}`: it is not `IntoContents`",
    label = "a resource method returns the resource's contents",
    note = "return text (`String`, `&'static str`), bytes (`Vec<u8>`), `Json(value)` of a \
            `Serialize` value, `Text` or `Blob` with their own MIME type, rmcp's \
            `ResourceContents`, or a `Result` of one of these with an error that is \
            `Into<ReadError>`"
)]
pub trait IntoContents {
    /// The MIME type these contents are served as where the listing names none, if the type
    /// says it: what `#[resource]` lists for a method that returns it and has no
    /// `mime_type`, so that a listing and a read never disagree. `None` for contents that
    /// carry their own ([`Text`], [`Blob`], rmcp's types).
    ///
    /// ```
    /// use rfc6570_rmcp::{IntoContents, Json, Text};
    ///
    /// assert_eq!(<String as IntoContents>::MIME_TYPE, Some("text/plain"));
    /// assert_eq!(<Json<u32> as IntoContents>::MIME_TYPE, Some("application/json"));
    /// assert_eq!(<Result<Vec<u8>, std::io::Error> as IntoContents>::MIME_TYPE, Some("application/octet-stream"));
    /// assert_eq!(<Text as IntoContents>::MIME_TYPE, None);
    /// ```
    const MIME_TYPE: Option<&'static str> = None;

    /// The read result for `target`.
    ///
    /// # Errors
    ///
    /// The value's own error (for `Result`), a value that does not serialize (for `Json`), or
    /// no contents.
    fn into_result(self, target: ReadTarget<'_>) -> Result<ReadResourceResult, ReadError>;
}

fn one(contents: ResourceContents) -> Result<ReadResourceResult, ReadError> {
    Ok(ReadResourceResult::new(vec![contents]))
}

/// Served as text where the listing names no MIME type.
const TEXT: &str = "text/plain";
/// Served as bytes where the listing names no MIME type.
const BYTES: &str = "application/octet-stream";
/// Served as JSON where the listing names no MIME type.
const JSON: &str = "application/json";

impl IntoContents for String {
    const MIME_TYPE: Option<&'static str> = Some(TEXT);

    fn into_result(self, target: ReadTarget<'_>) -> Result<ReadResourceResult, ReadError> {
        one(target.text(self, TEXT))
    }
}

impl IntoContents for &'static str {
    const MIME_TYPE: Option<&'static str> = Some(TEXT);

    fn into_result(self, target: ReadTarget<'_>) -> Result<ReadResourceResult, ReadError> {
        self.to_owned().into_result(target)
    }
}

impl IntoContents for Cow<'static, str> {
    const MIME_TYPE: Option<&'static str> = Some(TEXT);

    fn into_result(self, target: ReadTarget<'_>) -> Result<ReadResourceResult, ReadError> {
        self.into_owned().into_result(target)
    }
}

impl IntoContents for Vec<u8> {
    const MIME_TYPE: Option<&'static str> = Some(BYTES);

    fn into_result(self, target: ReadTarget<'_>) -> Result<ReadResourceResult, ReadError> {
        one(target.blob(&self, BYTES))
    }
}

impl IntoContents for &'static [u8] {
    const MIME_TYPE: Option<&'static str> = Some(BYTES);

    fn into_result(self, target: ReadTarget<'_>) -> Result<ReadResourceResult, ReadError> {
        one(target.blob(self, BYTES))
    }
}

/// Compact JSON text (`serde_json::to_string`): no whitespace, and keys in the order the value
/// serializes them. That is a struct's fields in declaration order, a `BTreeMap`'s sorted, a
/// `HashMap`'s unspecified, and a `serde_json::Value` object's sorted (or as inserted, when any
/// crate in the build turns on serde_json's `preserve_order` feature). For indented text, return
/// [`PrettyJson`].
impl<T: Serialize> IntoContents for Json<T> {
    const MIME_TYPE: Option<&'static str> = Some(JSON);

    fn into_result(self, target: ReadTarget<'_>) -> Result<ReadResourceResult, ReadError> {
        one(target.text(json_text(&self.0, serde_json::to_string)?, JSON))
    }
}

/// A value served as indented JSON text (`serde_json::to_string_pretty`: two spaces a level,
/// one member a line), as the Python SDK writes it; [`Json`] writes it compact. Keys come in
/// the same order as [`Json`]'s: the order the value serializes them. The listed MIME type, or
/// `application/json`.
///
/// ```
/// use rfc6570_rmcp::{IntoContents, PrettyJson, ReadTarget};
///
/// let profile = serde_json::json!({"id": 7, "name": "Ada"});
/// let result = PrettyJson(profile).into_result(ReadTarget::new("users://7/profile", None))?;
/// let json = serde_json::to_value(&result.contents[0])?;
/// assert_eq!(json["text"], "{\n  \"id\": 7,\n  \"name\": \"Ada\"\n}");
/// assert_eq!(json["mimeType"], "application/json");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PrettyJson<T>(pub T);

impl<T: Serialize> IntoContents for PrettyJson<T> {
    const MIME_TYPE: Option<&'static str> = Some(JSON);

    fn into_result(self, target: ReadTarget<'_>) -> Result<ReadResourceResult, ReadError> {
        one(target.text(json_text(&self.0, serde_json::to_string_pretty)?, JSON))
    }
}

/// `value` written by `write`, or the internal error of a value that does not serialize.
fn json_text<T: Serialize>(
    value: &T,
    write: fn(&T) -> serde_json::Result<String>,
) -> Result<String, ReadError> {
    write(value).map_err(|e| ReadError::internal(format!("the resource does not serialize: {e}")))
}

/// Text with its own MIME type, whatever the listing says.
///
/// ```
/// use rfc6570_rmcp::{IntoContents, ReadTarget, Text};
/// let result = Text::new("<p>hi</p>", "text/html").into_result(ReadTarget::new("page://1", None))?;
/// assert_eq!(serde_json::to_value(&result.contents[0])?["mimeType"], "text/html");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text {
    text: String,
    mime_type: String,
}

impl Text {
    /// `text`, served as `mime_type`.
    ///
    /// ```
    /// let page = rfc6570_rmcp::Text::new("# Title", "text/markdown");
    /// ```
    pub fn new(text: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            mime_type: mime_type.into(),
        }
    }
}

impl IntoContents for Text {
    fn into_result(self, target: ReadTarget<'_>) -> Result<ReadResourceResult, ReadError> {
        one(ResourceContents::text(self.text, target.uri).with_mime_type(self.mime_type))
    }
}

/// Bytes with their own MIME type, served as a base64 blob.
///
/// ```
/// use rfc6570_rmcp::{Blob, IntoContents, ReadTarget};
/// let result = Blob::new(vec![0x89, b'P', b'N', b'G'], "image/png")
///     .into_result(ReadTarget::new("img://logo", None))?;
/// assert_eq!(serde_json::to_value(&result.contents[0])?["blob"], "iVBORw==");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blob {
    bytes: Vec<u8>,
    mime_type: String,
}

impl Blob {
    /// `bytes`, served as `mime_type`.
    ///
    /// ```
    /// let logo = rfc6570_rmcp::Blob::new(b"GIF89a".to_vec(), "image/gif");
    /// ```
    pub fn new(bytes: impl Into<Vec<u8>>, mime_type: impl Into<String>) -> Self {
        Self {
            bytes: bytes.into(),
            mime_type: mime_type.into(),
        }
    }
}

impl IntoContents for Blob {
    fn into_result(self, target: ReadTarget<'_>) -> Result<ReadResourceResult, ReadError> {
        let blob = base64::engine::general_purpose::STANDARD.encode(&self.bytes);
        one(ResourceContents::blob(blob, target.uri).with_mime_type(self.mime_type))
    }
}

impl IntoContents for ResourceContents {
    fn into_result(self, _: ReadTarget<'_>) -> Result<ReadResourceResult, ReadError> {
        one(self)
    }
}

impl IntoContents for Vec<ResourceContents> {
    fn into_result(self, target: ReadTarget<'_>) -> Result<ReadResourceResult, ReadError> {
        ReadResourceResult::new(self).into_result(target)
    }
}

impl IntoContents for ReadResourceResult {
    fn into_result(self, _: ReadTarget<'_>) -> Result<ReadResourceResult, ReadError> {
        if self.contents.is_empty() {
            return Err(ReadError::internal("the handler returned no contents"));
        }
        Ok(self)
    }
}

impl<T: IntoContents, E: Into<ReadError>> IntoContents for Result<T, E> {
    const MIME_TYPE: Option<&'static str> = T::MIME_TYPE;

    fn into_result(self, target: ReadTarget<'_>) -> Result<ReadResourceResult, ReadError> {
        self.map_err(Into::into)?.into_result(target)
    }
}

/// Why a read has no contents. The bridge answers it with `data: {"uri": ...}` and, for a
/// resource that does not exist, the code of the client's protocol revision (`-32002` before
/// 2026-07-28, `-32602` from it).
///
/// Messages go to the client: they name rules and variables, never a value the client sent
/// (so an attack is not echoed back). `Display` is for the server's logs.
///
/// ```
/// use rfc6570::mcp::Revision;
/// use rfc6570_rmcp::ReadError;
///
/// let err = ReadError::not_found();
/// let data = err.to_error_data("users://9/profile", Revision::V2026_07_28);
/// assert_eq!((data.code.0, &*data.message), (-32602, "Resource not found"));
/// assert_eq!(data.data, Some(serde_json::json!({"uri": "users://9/profile"})));
/// assert_eq!(err.to_error_data("users://9/profile", Revision::V2025_11_25).code.0, -32002);
/// ```
#[derive(Debug, Clone)]
pub struct ReadError {
    kind: Kind,
}

#[derive(Debug, Clone)]
enum Kind {
    /// No such resource, maybe with the reason (a rule, never a value).
    NotFound(Option<Cow<'static, str>>),
    /// The router or the parameters refused the URI: the core crate's error knows the message.
    Refused(Box<rfc6570::mcp::ReadError>),
    /// The resource exists, but one of its arguments asks for what it cannot give.
    InvalidArgument {
        argument: Cow<'static, str>,
        message: Cow<'static, str>,
    },
    /// The server failed.
    Internal(Cow<'static, str>),
    /// An rmcp error, answered as it is.
    Rpc(ErrorData),
}

impl ReadError {
    /// The resource does not exist: "Resource not found".
    ///
    /// ```
    /// # use rfc6570_rmcp::ReadError;
    /// # use rfc6570::mcp::Revision;
    /// assert_eq!(ReadError::not_found().to_string(), "Resource not found");
    /// ```
    pub fn not_found() -> Self {
        Self {
            kind: Kind::NotFound(None),
        }
    }

    /// The resource does not exist, and why (say which rule, not what the client sent).
    ///
    /// ```
    /// # use rfc6570_rmcp::ReadError;
    /// # use rfc6570::mcp::Revision;
    /// let err = ReadError::not_found_because("no build has that id");
    /// assert_eq!(err.to_string(), "Resource not found: no build has that id");
    /// ```
    pub fn not_found_because(reason: impl Into<Cow<'static, str>>) -> Self {
        Self {
            kind: Kind::NotFound(Some(reason.into())),
        }
    }

    /// The resource exists, but the value of `argument` (a template variable) asks for what
    /// it cannot give: `-32602`, with `data: {"uri": .., "argument": ..}`. The argument in the
    /// data is what tells it apart from "resource not found", which revision 2026-07-28 also
    /// answers with `-32602`, with only the URI as data.
    ///
    /// ```
    /// # use rfc6570_rmcp::ReadError;
    /// # use rfc6570::mcp::Revision;
    /// let err = ReadError::invalid_argument("lines", "`lines` must be `N` or `N-M`, from 1");
    /// let data = err.to_error_data("log://build/42?lines=x", Revision::V2025_11_25);
    /// assert_eq!(data.code.0, -32602);
    /// assert_eq!(data.data, Some(serde_json::json!({"uri": "log://build/42?lines=x", "argument": "lines"})));
    /// ```
    pub fn invalid_argument(
        argument: impl Into<Cow<'static, str>>,
        message: impl Into<Cow<'static, str>>,
    ) -> Self {
        Self {
            kind: Kind::InvalidArgument {
                argument: argument.into(),
                message: message.into(),
            },
        }
    }

    /// The server failed: `-32603`.
    ///
    /// ```
    /// # use rfc6570_rmcp::ReadError;
    /// # use rfc6570::mcp::Revision;
    /// let err = ReadError::internal("the log store is unreachable");
    /// assert_eq!(err.to_error_data("log://build/42", Revision::V2026_07_28).code.0, -32603);
    /// ```
    pub fn internal(message: impl Into<Cow<'static, str>>) -> Self {
        Self {
            kind: Kind::Internal(message.into()),
        }
    }

    /// Whether this is a resource that does not exist (whatever the reason).
    ///
    /// ```
    /// # use rfc6570_rmcp::ReadError;
    /// # use rfc6570::mcp::Revision;
    /// assert!(ReadError::not_found().is_not_found());
    /// assert!(!ReadError::internal("disk").is_not_found());
    /// ```
    pub fn is_not_found(&self) -> bool {
        match &self.kind {
            Kind::NotFound(_) => true,
            // A router that cannot be compiled is the server's fault; every other refusal is a
            // resource that does not exist.
            Kind::Refused(e) => !matches!(
                **e,
                rfc6570::mcp::ReadError::Route {
                    error: rfc6570::RouteError::Unsupported { .. },
                    ..
                }
            ),
            Kind::Rpc(e) => e.code == ErrorCode::RESOURCE_NOT_FOUND,
            Kind::InvalidArgument { .. } | Kind::Internal(_) => false,
        }
    }

    /// The JSON-RPC error for a read of `uri` by a peer on `revision`.
    ///
    /// ```
    /// # use rfc6570_rmcp::ReadError;
    /// # use rfc6570::mcp::Revision;
    /// let data = ReadError::not_found_because("no such note").to_error_data("notes://x", Revision::V2025_06_18);
    /// assert_eq!((data.code.0, &*data.message), (-32002, "Resource not found: no such note"));
    /// ```
    pub fn to_error_data(&self, uri: &str, revision: Revision) -> ErrorData {
        let data = Some(json!({ "uri": uri }));
        match &self.kind {
            Kind::NotFound(_) => {
                let code = revision.resource_not_found_code();
                ErrorData::new(ErrorCode(code), self.to_string(), data)
            }
            Kind::Refused(e) => {
                let e = e.to_json_rpc(revision);
                ErrorData::new(ErrorCode(e.code), e.message, e.data)
            }
            Kind::InvalidArgument { argument, message } => ErrorData::invalid_params(
                message.clone(),
                Some(json!({ "uri": uri, "argument": argument })),
            ),
            Kind::Internal(message) => ErrorData::internal_error(message.clone(), data),
            Kind::Rpc(e) => e.clone(),
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::NotFound(None) => f.write_str("Resource not found"),
            Kind::NotFound(Some(reason)) => write!(f, "Resource not found: {reason}"),
            Kind::Refused(e) => write!(f, "{e}"),
            Kind::InvalidArgument { message, .. } | Kind::Internal(message) => f.write_str(message),
            Kind::Rpc(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            Kind::Refused(e) => Some(&**e),
            Kind::Rpc(e) => Some(e),
            _ => None,
        }
    }
}

impl From<rfc6570::mcp::ReadError> for ReadError {
    /// A refusal of the router (no match, a path-safety rule, a malformed URI) or of the
    /// parameters; its message names the rule, never the value.
    fn from(error: rfc6570::mcp::ReadError) -> Self {
        Self {
            kind: Kind::Refused(Box::new(error)),
        }
    }
}

impl From<ErrorData> for ReadError {
    /// An rmcp error, answered as it is.
    fn from(error: ErrorData) -> Self {
        Self {
            kind: Kind::Rpc(error),
        }
    }
}

impl From<std::io::Error> for ReadError {
    /// A file that does not exist, cannot be read, or cannot be named so (a file taken for a
    /// directory, a name too long) is a resource that does not exist; other failures are the
    /// server's. No path reaches the message.
    fn from(error: std::io::Error) -> Self {
        use std::io::ErrorKind::{
            InvalidFilename, IsADirectory, NotADirectory, NotFound, PermissionDenied,
        };
        match error.kind() {
            // `a.txt/x`, a name too long: no such resource either.
            NotFound | PermissionDenied | NotADirectory | IsADirectory | InvalidFilename => {
                Self::not_found()
            }
            kind => Self::internal(format!("I/O error: {kind}")),
        }
    }
}
