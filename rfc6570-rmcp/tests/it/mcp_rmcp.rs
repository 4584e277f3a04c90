//! `examples/mcp_server.rs` driven over stdio by rmcp's client, on both lifecycles: the legacy
//! `initialize` handshake (revision 2025-11-25, "resource not found" is -32002) and
//! `server/discover` (revision 2026-07-28, where it is -32602).

use crate::common::{complete, read_error};
use std::path::PathBuf;
use std::process::Command as StdCommand;
use std::sync::OnceLock;

use rmcp::model::{
    ErrorCode, PaginatedRequestParams, ProtocolVersion, ReadResourceRequestParams, ResourceContents,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceError};
use serde_json::{Value, json};
use tokio::process::Command;

type Client = RunningService<RoleClient, ()>;
type Result<T = ()> = std::result::Result<T, Box<dyn std::error::Error>>;

/// The stdio example's binary ([`example_bin`]); `MCP_SERVER_BIN` overrides it.
fn server_bin() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| match std::env::var_os("MCP_SERVER_BIN") {
        Some(bin) => bin.into(),
        None => example_bin("mcp_server"),
    })
    .clone()
}

/// The binary of the example `name`. `cargo test` builds examples before running tests, but
/// `cargo test --test it` does not, and examples have no `CARGO_BIN_EXE_*`: the path is worked
/// out from this test's own, and a missing binary is built here (`cargo build -p rfc6570-rmcp
/// --example <name>`, the features this package gives rfc6570).
pub(crate) fn example_bin(name: &str) -> PathBuf {
    let mut bin = std::env::current_exe().unwrap(); // target/<profile>/deps/it-<hash>
    bin.pop();
    bin.pop();
    bin.push("examples");
    bin.push(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    if !bin.exists() {
        let mut build = StdCommand::new(env!("CARGO"));
        build
            .args(["build", "-p", "rfc6570-rmcp", "--example", name])
            .current_dir(env!("CARGO_MANIFEST_DIR"));
        if !cfg!(debug_assertions) {
            build.arg("--release");
        }
        let status = build.status().expect("run cargo build");
        assert!(
            status.success(),
            "cargo build -p rfc6570-rmcp --example {name} failed"
        );
    }
    assert!(bin.exists(), "no example binary at {}", bin.display());
    bin
}

async fn connect(lifecycle: ClientLifecycleMode) -> Result<Client> {
    let mut cmd = Command::new(server_bin());
    cmd.env("MCP_PAGE_SIZE", "3");
    let transport = TokioChildProcess::new(cmd)?;
    Ok(().serve_with_lifecycle(transport, lifecycle).await?)
}

async fn read_text(client: &Client, uri: &str) -> Result<(String, Option<String>)> {
    let result = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await?;
    assert_eq!(result.contents.len(), 1, "{uri}");
    match &result.contents[0] {
        ResourceContents::TextResourceContents {
            uri: got,
            mime_type,
            text,
            ..
        } => {
            assert_eq!(got, uri);
            Ok((text.clone(), mime_type.clone()))
        }
        other => Err(format!("{uri}: not text: {other:?}").into()),
    }
}

/// Checks every kind of resource and error; `not_found` is the code of the revision in use.
async fn check_server(client: &Client, not_found: ErrorCode) -> Result {
    // resources/templates/list, page by page (3 a page).
    let first = client.list_resource_templates(None).await?;
    assert_eq!(first.resource_templates.len(), 3);
    let cursor = first.next_cursor.clone().expect("a second page");
    let second = client
        .list_resource_templates(Some(
            PaginatedRequestParams::default().with_cursor(Some(cursor)),
        ))
        .await?;
    assert_eq!(second.next_cursor, None);
    let all: Vec<String> = first
        .resource_templates
        .iter()
        .chain(&second.resource_templates)
        .map(|t| t.uri_template.clone())
        .collect();
    assert_eq!(
        all,
        [
            "notes://{id}",
            "log://build/{job_id}{?lines}",
            "search://docs{?q,lang}",
            "file:///{+path}"
        ]
    );
    let all_at_once = client.list_all_resource_templates().await?;
    assert_eq!(all_at_once.len(), 4);
    let log = &all_at_once[1];
    assert_eq!(
        (log.name.as_str(), log.mime_type.as_deref()),
        ("build-log", Some("text/plain"))
    );

    // An invalid cursor is invalid params, whatever the revision.
    let bad = PaginatedRequestParams::default().with_cursor(Some("not-a-cursor".into()));
    match client.list_resource_templates(Some(bad)).await {
        Err(ServiceError::McpError(e)) => assert_eq!(e.code, ErrorCode::INVALID_PARAMS),
        other => panic!("expected an invalid cursor error, got {other:?}"),
    }

    // resources/list: the static resources.
    let resources = client.list_all_resources().await?;
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(uris, ["notes://index", "config://server", "file:///"]);

    // resources/read, each kind.
    let (text, mime) = read_text(client, "file:///docs/guide.md").await?;
    assert!(text.starts_with("# Guide"), "{text}");
    assert_eq!(mime.as_deref(), Some("text/markdown"));
    let (text, _) = read_text(client, "file:///docs/intro%20to%20templates.md").await?;
    assert!(text.starts_with("# Intro to templates"), "{text}");
    let (text, _) = read_text(client, "file:///docs").await?;
    assert_eq!(text, "a+b.md\nguide.md\nintro to templates.md");
    // A name with a sub-delimiter, raw or encoded (as Python's `Path.as_uri()` writes it).
    for uri in ["file:///docs/a+b.md", "file:///docs/a%2Bb.md"] {
        let (text, _) = read_text(client, uri).await?;
        assert!(text.starts_with("# A and B"), "{uri}: {text}");
    }
    let (text, mime) = read_text(client, "notes://welcome").await?;
    assert!(text.starts_with("# Welcome"));
    assert_eq!(mime.as_deref(), Some("text/markdown"));
    let (text, _) = read_text(client, "log://build/42").await?;
    assert_eq!(text.lines().count(), 5);
    let (text, _) = read_text(client, "log://build/42?lines=3-4").await?;
    assert_eq!(
        text,
        "error[E0308]: mismatched types\nerror: could not compile `rfc6570`"
    );
    let (text, mime) = read_text(client, "search://docs?q=vorlage&lang=de").await?;
    assert_eq!(mime.as_deref(), Some("application/json"));
    assert_eq!(
        serde_json::from_str::<Value>(&text)?,
        json!([{"uri": "notes://vorlage", "lang": "de"}])
    );
    // `q` is free text: the server lets it hold `..` and `/`.
    read_text(client, "search://docs?q=../a/b").await?;
    let (text, _) = read_text(client, "notes://index").await?;
    assert_eq!(
        serde_json::from_str::<Value>(&text)?[0]["uri"],
        "notes://welcome"
    );
    let (text, _) = read_text(client, "config://server").await?;
    assert_eq!(serde_json::from_str::<Value>(&text)?["templates"], 4);

    // Not found: no template matches, or one matches but nothing is there.
    for uri in [
        "nothing://here",
        "notes://nobody",
        "log://build/7",
        "log://build/abc",
        "file:///docs/missing.md",
    ] {
        let e = read_error(client, uri).await;
        assert_eq!(e.code, not_found, "{uri}: {e:?}");
        assert_eq!(e.data, Some(json!({ "uri": uri })), "{uri}");
    }

    // Path-safety refusals: the same code, and a message that does not echo the value.
    for (uri, rule) in [
        ("file:///..%2F..%2Fetc%2Fpasswd", "a `..` path segment"),
        ("file:///%252e%252e/etc/passwd", "double encoding"),
        ("file:///docs/../../etc/passwd", "a `..` path segment"),
        ("notes://%2E%2E", "a `..` path segment"),
        ("file:///docs/%00x", "a control character"),
    ] {
        let e = read_error(client, uri).await;
        assert_eq!(e.code, not_found, "{uri}: {e:?}");
        assert_eq!(e.data, Some(json!({ "uri": uri })), "{uri}");
        assert!(e.message.contains(rule), "{uri}: {}", e.message);
        assert!(!e.message.contains("passwd"), "{}", e.message);
    }

    // A bad line range is invalid params.
    let e = read_error(client, "log://build/42?lines=4-2").await;
    assert_eq!(e.code, ErrorCode::INVALID_PARAMS);

    // completion/complete
    let job = "log://build/{job_id}{?lines}";
    assert_eq!(
        complete(client, job, "job_id", "4", &[]).await?,
        ["41", "42", "43"]
    );
    assert_eq!(complete(client, job, "job_id", "42", &[]).await?, ["42"]);
    assert_eq!(
        complete(client, "notes://{id}", "id", "w", &[]).await?,
        ["welcome"]
    );
    assert_eq!(
        complete(
            client,
            "search://docs{?q,lang}",
            "q",
            "vor",
            &[("lang", "de")]
        )
        .await?,
        ["vorlage"]
    );
    assert_eq!(
        complete(
            client,
            "search://docs{?q,lang}",
            "q",
            "vor",
            &[("lang", "en")]
        )
        .await?,
        Vec::<String>::new()
    );
    assert_eq!(
        complete(client, "file:///{+path}", "path", "docs/g", &[]).await?,
        ["docs/guide.md"]
    );
    for (template, argument) in [(job, "lines_x"), ("log://{job_id}", "job_id")] {
        match complete(client, template, argument, "", &[]).await {
            Err(ServiceError::McpError(e)) => assert_eq!(e.code, ErrorCode::INVALID_PARAMS),
            other => panic!("{template} {argument}: expected an error, got {other:?}"),
        }
    }
    Ok(())
}

#[tokio::test]
async fn initialize_lifecycle_2025_11_25() -> Result {
    let client = connect(ClientLifecycleMode::Initialize).await?;
    let info = client.peer_info().expect("server info");
    let server = info.server_info.as_ref().expect("server name");
    assert_eq!(server.name, "rfc6570-example");
    check_server(&client, ErrorCode::RESOURCE_NOT_FOUND).await?;
    client.cancel().await?;
    Ok(())
}

#[tokio::test]
async fn discover_lifecycle_2026_07_28() -> Result {
    let client = connect(ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    })
    .await?;
    check_server(&client, ErrorCode::INVALID_PARAMS).await?;
    client.cancel().await?;
    Ok(())
}
