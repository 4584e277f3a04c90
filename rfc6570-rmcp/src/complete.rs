//! Completing a template's variable: what a completer receives ([`Completing`]) and may return
//! ([`IntoCompletions`]).

use rmcp::RoleServer;
use rmcp::service::RequestContext;

/// A `completion/complete` request for one variable of a template: what the user typed so far,
/// and the values of the template's other variables already chosen.
///
/// ```
/// use rfc6570::mcp::ResourceTemplate;
/// use rfc6570_rmcp::{Completing, ReadRequest, ResourceRouter};
///
/// let router = ResourceRouter::<()>::new()
///     .template(
///         ResourceTemplate::parse("db://{table}/{id}", "row")?,
///         |_: &(), request: ReadRequest<'_>| Box::pin(async move { request.reply("row") }),
///     )?
///     .completer("db://{table}/{id}", "table", |_: &(), _: Completing<'_>| {
///         Box::pin(async { vec!["orders", "users"] })
///     })?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Completing<'a> {
    pub(crate) argument: &'a str,
    pub(crate) prefix: &'a str,
    pub(crate) chosen: &'a [(&'a str, &'a str)],
    pub(crate) context: &'a RequestContext<RoleServer>,
}

impl<'a> Completing<'a> {
    /// The variable being completed.
    ///
    /// ```
    /// # fn f(c: rfc6570_rmcp::Completing<'_>) {
    /// assert!(!c.argument().is_empty());
    /// # }
    /// ```
    pub fn argument(&self) -> &'a str {
        self.argument
    }

    /// What the user typed so far. Candidates that do not start with it are dropped anyway, so a
    /// completer may ignore it.
    ///
    /// ```
    /// # fn f(c: rfc6570_rmcp::Completing<'_>) {
    /// let prefix: &str = c.prefix();
    /// # }
    /// ```
    pub fn prefix(&self) -> &'a str {
        self.prefix
    }

    /// The value already chosen for another variable of the template (`None` when the client
    /// sent none, or sent one for a name the template does not have).
    ///
    /// ```
    /// # fn f(c: rfc6570_rmcp::Completing<'_>) {
    /// let table = c.chosen("table").unwrap_or("users");
    /// # }
    /// ```
    pub fn chosen(&self, name: &str) -> Option<&'a str> {
        self.chosen
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, v)| v)
    }

    /// rmcp's context of the request.
    ///
    /// ```
    /// # fn f(c: rfc6570_rmcp::Completing<'_>) {
    /// let client = c.context().client_info();
    /// # }
    /// ```
    pub fn context(&self) -> &'a RequestContext<RoleServer> {
        self.context
    }
}

/// What a completer may return: the candidates, in the order to offer them. The bridge keeps
/// those that start with the typed prefix, at most 100, and reports how many there were.
///
/// ```
/// use rfc6570_rmcp::IntoCompletions;
/// assert_eq!(vec!["a", "b"].into_completions(), ["a", "b"]);
/// assert_eq!(["x".to_owned()].into_completions(), ["x"]);
/// ```
#[diagnostic::on_unimplemented(
    message = "a completer cannot return `{Self}`: it is not a list of candidates",
    label = "a completer returns the candidates, as strings",
    note = "return a `Vec` or an array of `String`, `&str` or anything `Into<String>` \
            (`Vec<String>`, `[&str; 3]`), or a `&[&str]`"
)]
pub trait IntoCompletions {
    /// The candidates.
    fn into_completions(self) -> Vec<String>;
}

impl<T: Into<String>> IntoCompletions for Vec<T> {
    fn into_completions(self) -> Vec<String> {
        self.into_iter().map(Into::into).collect()
    }
}

impl<T: Into<String>, const N: usize> IntoCompletions for [T; N] {
    fn into_completions(self) -> Vec<String> {
        self.into_iter().map(Into::into).collect()
    }
}

impl IntoCompletions for &[&str] {
    fn into_completions(self) -> Vec<String> {
        self.iter().map(|&s| s.to_owned()).collect()
    }
}
