//! Completion: `completion/complete` requests for `ref/resource`, checked against the
//! template they name, and their results.

use std::collections::BTreeMap;

use super::jsonrpc::{INVALID_PARAMS, JsonRpcError, MAX_COMPLETION_VALUES};
use super::schema::{Meta, ResourceTemplate};
use serde::{Deserialize, Serialize};

/// A reference in a `completion/complete` request: the schema's `ResourceTemplateReference`
/// (`ref/resource`) or `PromptReference` (`ref/prompt`).
///
/// ```
/// use rfc6570::mcp::Reference;
/// use serde_json::json;
///
/// let r: Reference = serde_json::from_value(json!({"type": "ref/resource", "uri": "notes://{id}"}))?;
/// assert_eq!(r, Reference::Resource { uri: "notes://{id}".into() });
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
#[non_exhaustive]
pub enum Reference {
    /// A resource template (or resource), by its exact text.
    #[serde(rename = "ref/resource")]
    Resource {
        /// The template's text.
        uri: String,
    },
    /// A prompt, by name.
    #[serde(rename = "ref/prompt")]
    Prompt {
        /// The prompt's name.
        name: String,
        /// Its display name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
    },
}

/// The argument being completed, with what the user typed so far.
///
/// ```
/// use rfc6570::mcp::CompletionArgument;
/// let a = CompletionArgument::new("id", "no");
/// assert_eq!(serde_json::to_value(&a)?, serde_json::json!({"name": "id", "value": "no"}));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CompletionArgument {
    /// The argument's (variable's) name.
    pub name: String,
    /// The partial value to complete.
    pub value: String,
}

impl CompletionArgument {
    /// The argument `name`, with the text typed so far.
    ///
    /// ```
    /// use rfc6570::mcp::CompletionArgument;
    /// let a = CompletionArgument::new("job_id", "4");
    /// assert_eq!((a.name.as_str(), a.value.as_str()), ("job_id", "4"));
    /// ```
    pub fn new(name: impl Into<String>, value: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            value: value.into(),
        }
    }
}

/// `context` of a completion request: variables already chosen.
///
/// ```
/// use rfc6570::mcp::CompletionContext;
/// let c: CompletionContext = serde_json::from_str(r#"{"arguments": {"lang": "en"}}"#)?;
/// assert_eq!(c.arguments.unwrap()["lang"], "en");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CompletionContext {
    /// Previously resolved variables, by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<BTreeMap<String, String>>,
}

/// The parameters of `completion/complete`: the schema's `CompleteRequestParams`.
///
/// ```
/// use rfc6570::mcp::CompleteRequest;
/// use serde_json::json;
///
/// let request = CompleteRequest::resource("search://docs{?q,lang}", "q", "ur")
///     .arguments([("lang", "en")]);
/// assert_eq!(
///     serde_json::to_value(&request)?,
///     json!({
///         "ref": {"type": "ref/resource", "uri": "search://docs{?q,lang}"},
///         "argument": {"name": "q", "value": "ur"},
///         "context": {"arguments": {"lang": "en"}}
///     })
/// );
/// let back: CompleteRequest = serde_json::from_value(serde_json::to_value(&request)?)?;
/// assert_eq!(back, request);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CompleteRequest {
    /// What is being completed.
    #[serde(rename = "ref")]
    pub reference: Reference,
    /// The argument and its partial value.
    pub argument: CompletionArgument,
    /// Variables already chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<CompletionContext>,
    /// Request metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl CompleteRequest {
    /// A request to complete `argument` of the resource template `template`, from `value`.
    ///
    /// ```
    /// use rfc6570::mcp::{CompleteRequest, Reference};
    /// let r = CompleteRequest::resource("notes://{id}", "id", "a");
    /// assert_eq!(r.reference, Reference::Resource { uri: "notes://{id}".into() });
    /// assert_eq!(r.argument.value, "a");
    /// ```
    pub fn resource(
        template: impl Into<String>,
        argument: impl Into<String>,
        value: impl Into<String>,
    ) -> Self {
        Self {
            reference: Reference::Resource {
                uri: template.into(),
            },
            argument: CompletionArgument {
                name: argument.into(),
                value: value.into(),
            },
            context: None,
            meta: None,
        }
    }

    /// Adds already chosen variables to `context.arguments`.
    ///
    /// ```
    /// use rfc6570::mcp::CompleteRequest;
    /// let r = CompleteRequest::resource("search://docs{?q,lang}", "q", "").arguments([("lang", "de")]);
    /// assert_eq!(r.context.unwrap().arguments.unwrap()["lang"], "de");
    /// ```
    pub fn arguments<K, V>(mut self, arguments: impl IntoIterator<Item = (K, V)>) -> Self
    where
        K: Into<String>,
        V: Into<String>,
    {
        let context = self.context.get_or_insert_with(Default::default);
        let map = context.arguments.get_or_insert_with(Default::default);
        map.extend(arguments.into_iter().map(|(k, v)| (k.into(), v.into())));
        self
    }
}

/// Why a completion request names nothing this registry can complete. All are answered with
/// [`INVALID_PARAMS`].
///
/// ```
/// use rfc6570::mcp::{CompleteRequest, CompletionError, ResourceTemplate, Resources};
///
/// let mut resources = Resources::new();
/// resources.insert(ResourceTemplate::parse("notes://{id}", "note")?, ())?;
/// let request = CompleteRequest::resource("notes://{id}", "name", "");
/// let err = resources.complete(&request).unwrap_err();
/// assert_eq!(err.to_string(), "`name` is not a variable of `notes://{id}`");
/// assert_eq!(err.to_json_rpc().code, -32602);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CompletionError {
    /// The request is about a prompt, which a resource registry does not know.
    #[error("completion for prompt `{name}` is not handled by the resource registry")]
    Prompt {
        /// The prompt's name.
        name: String,
    },
    /// No template (or resource) has this exact text.
    #[error("no resource template `{uri}`")]
    UnknownTemplate {
        /// The text given.
        uri: String,
    },
    /// The template has no variable of this name.
    #[error("`{argument}` is not a variable of `{template}`")]
    UnknownArgument {
        /// The template.
        template: String,
        /// The argument given.
        argument: String,
    },
}

impl CompletionError {
    /// The JSON-RPC error to answer with: [`INVALID_PARAMS`], with this error as the message.
    ///
    /// ```
    /// use rfc6570::mcp::CompletionError;
    /// let err = CompletionError::UnknownTemplate { uri: "x://{y}".into() }.to_json_rpc();
    /// assert_eq!((err.code, err.message.as_str()), (-32602, "no resource template `x://{y}`"));
    /// ```
    pub fn to_json_rpc(&self) -> JsonRpcError {
        JsonRpcError::new(INVALID_PARAMS, self.to_string())
    }
}

/// A checked completion request: the template, the variable to complete, what was typed, and
/// the variables already chosen. The server produces candidates from it; [`complete_from`]
/// filters them into the result.
///
/// [`complete_from`]: Self::complete_from
///
/// ```
/// use rfc6570::mcp::{CompleteRequest, ResourceTemplate, Resources};
///
/// let mut resources = Resources::new();
/// resources.insert(ResourceTemplate::parse("search://docs{?q,lang}", "search")?, "search")?;
///
/// let request = CompleteRequest::resource("search://docs{?q,lang}", "q", "ro")
///     .arguments([("lang", "en"), ("unrelated", "x")]);
/// let completion = resources.complete(&request)?;
/// assert_eq!(*completion.handler, "search");
/// assert_eq!(completion.argument, "q");
/// assert_eq!(completion.value, "ro");
/// assert_eq!(completion.chosen("lang"), Some("en"));
/// assert_eq!(completion.chosen("unrelated"), None); // not a variable of the template
///
/// let result = completion.complete_from(["router", "rfc", "routing"]);
/// assert_eq!(result.completion.values, ["router", "routing"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub struct Completion<'r, H> {
    /// The handler registered with the template.
    pub handler: &'r H,
    /// The template.
    pub template: &'r ResourceTemplate,
    /// The variable to complete.
    pub argument: &'r str,
    /// What the user typed so far.
    pub value: &'r str,
    /// The already chosen values of the template's variables (others are dropped).
    pub chosen: Vec<(&'r str, &'r str)>,
}

impl<H> Completion<'_, H> {
    /// The already chosen value of the variable `name`.
    ///
    /// ```
    /// use rfc6570::mcp::{CompleteRequest, ResourceTemplate, Resources};
    ///
    /// let mut resources = Resources::new();
    /// resources.insert(ResourceTemplate::parse("db://{table}/{id}", "row")?, ())?;
    /// let request = CompleteRequest::resource("db://{table}/{id}", "id", "").arguments([("table", "users")]);
    /// assert_eq!(resources.complete(&request)?.chosen("table"), Some("users"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn chosen(&self, name: &str) -> Option<&str> {
        self.chosen
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, v)| v)
    }

    /// The result for these candidates: those that start with [`value`](Self::value), in order,
    /// at most [`MAX_COMPLETION_VALUES`] of them, with `total` and `hasMore` set.
    ///
    /// ```
    /// use rfc6570::mcp::{CompleteRequest, ResourceTemplate, Resources};
    /// use serde_json::json;
    ///
    /// let mut resources = Resources::new();
    /// resources.insert(ResourceTemplate::parse("notes://{id}", "note")?, ())?;
    /// let request = CompleteRequest::resource("notes://{id}", "id", "");
    /// let completion = resources.complete(&request)?;
    /// let result = completion.complete_from((0..150).map(|n| n.to_string()));
    /// assert_eq!(result.completion.values.len(), 100);
    /// assert_eq!(result.completion.total, Some(150));
    /// assert_eq!(result.completion.has_more, Some(true));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn complete_from<I>(&self, candidates: I) -> CompleteResult
    where
        I: IntoIterator,
        I::Item: Into<String> + AsRef<str>,
    {
        let mut values = Vec::new();
        let mut total = 0u64;
        for candidate in candidates {
            if !candidate.as_ref().starts_with(self.value) {
                continue;
            }
            total += 1;
            if values.len() < MAX_COMPLETION_VALUES {
                values.push(candidate.into());
            }
        }
        CompleteResult::new(values, Some(total))
    }
}

/// The `completion` object of a `completion/complete` result.
///
/// ```
/// use rfc6570::mcp::CompleteResult;
/// let v = CompleteResult::new(vec!["a".into()], None).completion;
/// assert_eq!(serde_json::to_value(&v)?, serde_json::json!({"values": ["a"]}));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CompletionValues {
    /// The candidates, at most [`MAX_COMPLETION_VALUES`].
    pub values: Vec<String>,
    /// How many candidates there are in all, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// Whether there are more candidates than `values` holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub has_more: Option<bool>,
}

/// The result of `completion/complete`: the schema's `CompleteResult`, without the envelope
/// fields (`resultType`, `_meta`) that depend on the negotiated revision.
///
/// ```
/// use rfc6570::mcp::CompleteResult;
/// use serde_json::json;
///
/// let result = CompleteResult::new(vec!["42".into(), "43".into()], Some(2));
/// assert_eq!(
///     serde_json::to_value(&result)?,
///     json!({"completion": {"values": ["42", "43"], "total": 2, "hasMore": false}})
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CompleteResult {
    /// The candidates.
    pub completion: CompletionValues,
}

impl CompleteResult {
    /// A result with these values (cut to [`MAX_COMPLETION_VALUES`]) out of `total`; `hasMore`
    /// is set when `total` is known.
    ///
    /// ```
    /// use rfc6570::mcp::CompleteResult;
    /// let r = CompleteResult::new(vec!["a".into()], None);
    /// assert_eq!((r.completion.total, r.completion.has_more), (None, None));
    /// let r = CompleteResult::new(vec!["a".into()], Some(5));
    /// assert_eq!(r.completion.has_more, Some(true));
    /// ```
    pub fn new(mut values: Vec<String>, total: Option<u64>) -> Self {
        values.truncate(MAX_COMPLETION_VALUES);
        let has_more = total.map(|t| t > values.len() as u64);
        Self {
            completion: CompletionValues {
                values,
                total,
                has_more,
            },
        }
    }
}
