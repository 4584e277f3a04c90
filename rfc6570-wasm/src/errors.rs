//! Errors as the package throws them: a stable `kind` (the Rust error's code), a message, and
//! where known the position (in UTF-16 code units, as JavaScript indexes strings), the
//! path-safety rule and the variable.

use rfc6570::safety::JoinError;
use rfc6570::template::Lint;
use rfc6570::{Error, InsertError, MatchError, RouteError};
use serde::Serialize;

/// One error, or one lint, as JSON.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct ErrorJson {
    /// The Rust error's `code()` (`unclosed_expression`, `unsafe`, `not_found`...), or this
    /// module's own for what has none: `escapes`, `absolute` and `control_character` for
    /// `safeJoin`, `variables` and `expansion_too_long` for an expansion.
    pub kind: String,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<usize>,
    /// For a path-safety refusal: the rule's code (`dot_dot_segment`...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variable: Option<String>,
    /// For a lint: whether matching refuses the template for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refuses: Option<bool>,
}

impl ErrorJson {
    pub fn new(kind: &str, message: impl Into<String>) -> Self {
        Self {
            kind: kind.into(),
            message: message.into(),
            position: None,
            rule: None,
            variable: None,
            refuses: None,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| r#"{"kind":"json","message":""}"#.into())
    }

    /// A parse or expansion error of `template`. The message names the place as a JavaScript
    /// string index and does not repeat the template, which may be long.
    pub fn parse(e: &Error, template: &str) -> String {
        let position = e.position().map(|at| utf16_offset(template, at));
        let message = match position {
            Some(at) => format!("{} at index {at}", e.kind()),
            None => e.kind().to_string(),
        };
        let mut json = Self::new(e.kind().code(), message);
        json.position = position;
        json.to_json()
    }

    /// Why a template cannot be matched.
    pub fn insert(e: &InsertError) -> Self {
        Self::new(e.code(), e.to_string())
    }

    /// Why a lookup of `uri` found nothing, or refused it.
    pub fn route(e: &RouteError, uri: &str) -> String {
        let mut json = Self::new(e.code(), e.to_string());
        match e {
            RouteError::Unsafe { variable, rule, .. } => {
                json.rule = Some(rule.code());
                json.variable = Some(variable.clone());
            }
            RouteError::Malformed { position, reason } => {
                let at = utf16_offset(uri, *position);
                json.message = format!("malformed URI at index {at}: {reason}");
                json.position = Some(at);
            }
            // A refusal's reason is its source: the message says both.
            RouteError::Refused { source, .. } => {
                json.message = format!("{e}: {source}");
                if let MatchError::DuplicateKey { variable, .. }
                | MatchError::Disagreement { variable } = source
                {
                    json.variable = Some(variable.clone());
                }
            }
            _ => {}
        }
        json.to_json()
    }

    pub fn join(e: &JoinError) -> String {
        let kind = match e {
            JoinError::Absolute => "absolute",
            JoinError::Escapes => "escapes",
            JoinError::ControlCharacter => "control_character",
            _ => "join",
        };
        Self::new(kind, e.to_string()).to_json()
    }

    /// A lint, its place given as a JavaScript string index in the message too.
    pub fn lint(lint: &Lint, template: &str) -> Self {
        let at = utf16_offset(template, lint.position());
        let message = lint.to_string().replacen(
            &format!("at byte {}", lint.position()),
            &format!("at index {at}"),
            1,
        );
        let mut json = Self::new(lint.kind().code(), message);
        json.position = Some(at);
        json.refuses = Some(lint.kind().refuses());
        json
    }
}

/// The UTF-16 offset of byte offset `at` of `text` (clamped to its end, and to the character
/// boundary at or before it).
fn utf16_offset(text: &str, at: usize) -> usize {
    let mut end = at.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].encode_utf16().count()
}
