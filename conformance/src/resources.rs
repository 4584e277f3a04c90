//! The resources the suite reads and subscribes to, through `rfc6570-rmcp`.

use rfc6570_rmcp::{Blob, resource, resource_router};

use crate::Conformance;

/// A 1x1 PNG, the suite's "minimal test image".
pub const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
    0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0xf0,
    0x1f, 0x00, 0x05, 0x00, 0x01, 0xff, 0x89, 0x99, 0x3d, 0x1d, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
    0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

#[resource_router(vis = "pub(crate)")]
impl Conformance {
    /// A static text resource.
    #[resource("test://static-text", name = "static-text", mime_type = "text/plain")]
    async fn static_text(&self) -> &'static str {
        "This is the content of the static text resource."
    }

    /// A static binary resource: a 1x1 PNG.
    #[resource(
        "test://static-binary",
        name = "static-binary",
        mime_type = "image/png"
    )]
    async fn static_binary(&self) -> Blob {
        Blob::new(PNG.to_vec(), "image/png")
    }

    /// A resource the suite subscribes to.
    #[resource(
        "test://watched-resource",
        name = "watched-resource",
        mime_type = "text/plain"
    )]
    async fn watched(&self) -> &'static str {
        "Watched resource content."
    }

    /// Data by id, from a template.
    #[resource(
        "test://template/{id}/data",
        name = "template-data",
        mime_type = "application/json"
    )]
    async fn template_data(&self, id: String) -> String {
        serde_json::json!({ "id": id, "templateTest": true, "data": format!("Data for ID: {id}") })
            .to_string()
    }
}
