//! `#[resource_handler]` stacked with rmcp's `#[tool_handler]` on one `impl ServerHandler`, in
//! either order: both sides answer, and the capabilities are merged, not overwritten.

use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolRequestParams, ReadResourceRequestParams, ResourceContents};
use rmcp::service::ServerInitializeError;
use rmcp::{ServerHandler, ServiceExt, schemars, tool, tool_handler, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Echo {
    text: String,
}

macro_rules! server {
    ($name:ident, $($handlers:meta),+) => {
        #[derive(Clone)]
        struct $name;

        #[tool_router]
        impl $name {
            #[tool(description = "Repeats the text")]
            fn echo(&self, Parameters(Echo { text }): Parameters<Echo>) -> String {
                text
            }
        }

        #[resource_router]
        impl $name {
            /// A greeting.
            #[resource("greeting://{who}")]
            async fn greeting(&self, who: String) -> String {
                format!("hello, {who}")
            }
        }

        $( #[$handlers] )+
        impl ServerHandler for $name {}
    };
}

server!(ResourcesFirst, resource_handler, tool_handler);
server!(ToolsFirst, tool_handler, resource_handler);

/// Serves `server` over a pipe and checks, through rmcp's client, that it answers both tools
/// and resources and declares both.
async fn check<S: ServerHandler>(server: S) -> Result<(), Box<dyn std::error::Error>> {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        match server.serve(server_io).await {
            Ok(running) => drop(running.waiting().await),
            Err(ServerInitializeError::ConnectionClosed(_)) => {}
            Err(e) => panic!("{e}"),
        }
    });
    let client = ().serve(client_io).await?;
    let info = client.peer_info().expect("server info");
    let caps = &info.capabilities;
    assert!(caps.tools.is_some(), "tools: {caps:?}");
    assert!(caps.resources.is_some(), "resources: {caps:?}");
    assert!(caps.completions.is_some(), "completions: {caps:?}");
    // rmcp's #[tool_handler] wrote get_info; its default name is rmcp's own.
    assert!(info.server_info.is_some());

    let mut args = serde_json::Map::new();
    args.insert("text".into(), "hi".into());
    let echoed = client
        .call_tool(CallToolRequestParams::new("echo").with_arguments(args))
        .await?;
    assert!(format!("{echoed:?}").contains("hi"));

    let read = client
        .read_resource(ReadResourceRequestParams::new("greeting://ada"))
        .await?;
    match &read.contents[0] {
        ResourceContents::TextResourceContents { text, .. } => assert_eq!(text, "hello, ada"),
        other => panic!("{other:?}"),
    }
    let templates = client.list_all_resource_templates().await?;
    assert_eq!(templates[0].description.as_deref(), Some("A greeting."));
    client.cancel().await?;
    Ok(())
}

#[tokio::test]
async fn resource_handler_before_tool_handler() -> Result<(), Box<dyn std::error::Error>> {
    check(ResourcesFirst).await
}

#[tokio::test]
async fn tool_handler_before_resource_handler() -> Result<(), Box<dyn std::error::Error>> {
    check(ToolsFirst).await
}
