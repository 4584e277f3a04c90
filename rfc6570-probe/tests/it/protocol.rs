//! The inventory's checks, against servers written to get each wrong: a listing whose cursor
//! comes back, a template that does not parse, a resource that reads with another MIME type
//! than listed, a made-up URI answered with the wrong code (by hand with rmcp), and listings
//! and reads without cache hints (by hand with nothing, since every SDK adds them); and the
//! probe contacts no host but the one it is given.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rmcp::model::{
    ErrorCode, ListResourceTemplatesResult, ListResourcesResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleServer, ServerHandler};

use crate::common::{fixtures, one_at_a_time, probe, run};

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

#[test]
fn listings_and_reads_without_cache_hints_are_protocol_findings_on_2026_07_28() {
    let script = fixtures().join("raw").join("no_cache_hints.py");
    let probed = {
        let _one = one_at_a_time();
        probe(&["--", "python3", script.to_str().unwrap()])
    };
    assert_eq!(probed.report["revision"], "2026-07-28");
    let details: Vec<&str> = probed.report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["detail"].as_str().unwrap())
        .collect();
    for method in [
        "resources/list: a page",
        "resources/templates/list: a page",
        "resources/read: a result",
    ] {
        let wanted = format!(
            "{method} without cache hints (ttlMs, cacheScope), which revision 2026-07-28 requires"
        );
        assert!(
            details.contains(&wanted.as_str()),
            "{wanted:?} not in {details:#?}"
        );
    }
    assert_eq!(details.len(), 3, "{details:#?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_redirect_to_another_host_is_not_followed() {
    // Where the redirect leads: it counts the connections it is offered.
    let elsewhere = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let lead = format!("http://{}/mcp", elsewhere.local_addr().unwrap());
    let offered = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&offered);
    tokio::spawn(async move {
        while elsewhere.accept().await.is_ok() {
            counted.fetch_add(1, Ordering::SeqCst);
        }
    });
    let app = axum::Router::new().fallback(move || {
        let lead = lead.clone();
        async move { axum::response::Redirect::temporary(&lead) }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });

    let out = tokio::task::spawn_blocking(move || run(&[&url]))
        .await
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        offered.load(Ordering::SeqCst),
        0,
        "the probe followed the redirect"
    );
}
