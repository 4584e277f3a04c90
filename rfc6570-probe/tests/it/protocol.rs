//! The inventory's checks, against a server written by hand with rmcp to get each wrong: a
//! listing whose cursor comes back, a template that does not parse, a resource that reads with
//! another MIME type than listed, and a made-up URI answered with the wrong code.

use std::sync::Arc;

use rmcp::model::{
    ErrorCode, ListResourceTemplatesResult, ListResourcesResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleServer, ServerHandler};

use crate::common::{one_at_a_time, probe};

/// Gets every listing check wrong.
#[derive(Clone)]
struct Wrong;

impl ServerHandler for Wrong {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_resources().build())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let listed = Resource::new("info://about", "about").with_mime_type("text/plain");
        let mut page = ListResourcesResult::with_all_items(vec![listed]);
        page.next_cursor = Some("page-2".into()); // every page says there is another
        Ok(page)
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(vec![
            ResourceTemplate::new("notes://{id", "notes"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri == "info://about" {
            let text =
                ResourceContents::text("# About", request.uri).with_mime_type("text/markdown");
            return Ok(ReadResourceResult::new(vec![text]).into());
        }
        Err(ErrorData::new(ErrorCode(-32001), "nothing here", None))
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_inventory_finds_a_looping_cursor_a_bad_template_a_wrong_type_and_a_wrong_code() {
    let service = StreamableHttpService::new(
        || Ok(Wrong),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let app = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });

    let probed = tokio::task::spawn_blocking(move || {
        let _one = one_at_a_time();
        probe(&[&url])
    })
    .await
    .unwrap();
    let details: Vec<(String, String)> = probed.report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["kind"].as_str().unwrap().to_owned(),
                f["detail"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let has = |kind: &str, text: &str| details.iter().any(|(k, d)| k == kind && d.contains(text));
    assert!(
        has(
            "protocol",
            "the cursor \"page-2\" came back after 2 pages: the listing loops"
        ),
        "{details:#?}"
    );
    assert!(
        has(
            "protocol",
            "the listed template \"notes://{id\" is not an RFC 6570 template"
        ),
        "{details:#?}"
    );
    assert!(
        has(
            "inconsistent",
            "listed as text/plain, read as text/markdown"
        ),
        "{details:#?}"
    );
    assert!(
        has(
            "protocol",
            "answers error -32001 (nothing here), not the not-found code of revision 2026-07-28 (-32602)"
        ),
        "{details:#?}"
    );
    // All low: nothing here exposes data, so the probe exits 0 at its default --fail-on.
    assert!(probed.serious().is_empty(), "{:#?}", probed.serious());
    assert_eq!(probed.status, 0, "{}", probed.stderr);
    assert_eq!(
        probed.report["templates"],
        serde_json::json!(["notes://{id"])
    );
}
