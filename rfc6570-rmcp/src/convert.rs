//! The core crate's MCP types (`rfc6570::mcp`, which need no SDK) as rmcp's: field by field, so
//! that nothing goes through JSON on the way.

use rfc6570::mcp::{self, Annotations, Icon, Meta, Role, Theme};
use rmcp::model::{self as rm, MetaObject};

/// A listed resource template.
pub(crate) fn template(t: &mcp::ResourceTemplate) -> rm::ResourceTemplate {
    let mut out = rm::ResourceTemplate::new(t.uri_template.as_str(), t.name.clone());
    out.title.clone_from(&t.title);
    out.description.clone_from(&t.description);
    out.mime_type.clone_from(&t.mime_type);
    out.annotations = t.annotations.as_ref().map(annotations);
    out.icons = t.icons.as_deref().map(icons);
    out.meta = t.meta.as_ref().map(meta);
    out
}

/// A listed static resource.
pub(crate) fn resource(r: &mcp::Resource) -> rm::Resource {
    let mut out = rm::Resource::new(r.uri.clone(), r.name.clone());
    out.title.clone_from(&r.title);
    out.description.clone_from(&r.description);
    out.mime_type.clone_from(&r.mime_type);
    out.size = r.size;
    out.annotations = r.annotations.as_ref().map(annotations);
    out.icons = r.icons.as_deref().map(icons);
    out.meta = r.meta.as_ref().map(meta);
    out
}

fn annotations(a: &Annotations) -> rm::Annotations {
    let mut out = rm::Annotations::default();
    out.audience = a
        .audience
        .as_ref()
        .map(|roles| roles.iter().filter_map(|r| role(*r)).collect());
    // MCP's priority is a number from 0 to 1; rmcp holds it as f32.
    out.priority = a.priority.map(|p| p as f32);
    out.last_modified.clone_from(&a.last_modified);
    out
}

fn role(role: Role) -> Option<rm::Role> {
    match role {
        Role::User => Some(rm::Role::User),
        Role::Assistant => Some(rm::Role::Assistant),
        // A role that a newer core crate knows and rmcp does not: not listed.
        _ => None,
    }
}

fn icons(icons: &[Icon]) -> Vec<rm::Icon> {
    icons
        .iter()
        .map(|i| {
            let mut out = rm::Icon::new(i.src.clone());
            out.mime_type.clone_from(&i.mime_type);
            out.sizes.clone_from(&i.sizes);
            out.theme = i.theme.and_then(theme);
            out
        })
        .collect()
}

fn theme(theme: Theme) -> Option<rm::IconTheme> {
    match theme {
        Theme::Light => Some(rm::IconTheme::Light),
        Theme::Dark => Some(rm::IconTheme::Dark),
        _ => None,
    }
}

fn meta(meta: &Meta) -> MetaObject {
    MetaObject(meta.clone())
}

/// A completion result: rmcp counts the total in `u32`.
pub(crate) fn completion(result: mcp::CompleteResult) -> rm::CompleteResult {
    let c = result.completion;
    let total = c.total.map(|t| u32::try_from(t).unwrap_or(u32::MAX));
    let info = rm::CompletionInfo::with_pagination(c.values, total, c.has_more.unwrap_or(false))
        // The core crate already cut the values to the protocol's 100.
        .unwrap_or_default();
    rm::CompleteResult::new(info)
}
