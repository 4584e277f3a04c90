//! Recipe: test a server built with the bridge against generated and hostile URIs, read through
//! rmcp's own client as a user's client would. Every read gets the outcome its case expects:
//! the handler sees exactly the expected path, or the client gets "resource not found" with the
//! URI; and no handler ever sees a value that breaks a safety rule.

use std::sync::{Arc, Mutex};

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use rfc6570::UriTemplate;
use rfc6570::safety::{SafetyPolicy, Scope};
use rfc6570::testing::{Case, Expected, Value, hostile_variants, strategies};
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::model::{ErrorCode, ReadResourceRequestParams, ResourceContents};
use rmcp::{Peer, RoleClient, ServerHandler, ServiceError, ServiceExt};

/// The server under test: it serves any path, and remembers what its handler saw.
#[derive(Clone, Default)]
struct Files {
    seen: Arc<Mutex<Vec<String>>>,
}

#[resource_router]
impl Files {
    /// A file.
    #[resource("file:///{+path}")]
    async fn file(&self, path: String) -> String {
        self.seen.lock().unwrap().push(path.clone());
        format!("contents of {path}")
    }
}

#[resource_handler]
impl ServerHandler for Files {}

/// Reads the case's URI and checks the answer against what the case expects.
async fn read(client: &Peer<RoleClient>, files: &Files, case: &Case) {
    let answer = client
        .read_resource(ReadResourceRequestParams::new(case.uri()))
        .await;
    let context = || format!("{:?} ({})", case.uri(), case.note().unwrap_or("generated"));
    match (case.expected_route(), answer) {
        (Expected::Match { exact, .. }, Ok(result)) => {
            // A list value (`a,b`) is read back as the text of its items; a string exactly.
            let seen = files
                .seen
                .lock()
                .unwrap()
                .last()
                .cloned()
                .unwrap_or_default();
            let path = match exact.get("path") {
                Some(Value::Text(path)) => path.clone(),
                _ => seen.clone(),
            };
            assert_eq!(seen, path, "{}", context());
            let ResourceContents::TextResourceContents { text, .. } = &result.contents[0] else {
                panic!("{}: not text", context())
            };
            assert_eq!(text, &format!("contents of {path}"), "{}", context());
        }
        (
            Expected::Unsafe { .. } | Expected::Malformed { .. } | Expected::NotFound,
            Err(ServiceError::McpError(e)),
        ) => {
            // The legacy revision's "resource not found", naming the URI.
            assert_eq!(e.code, ErrorCode(-32002), "{}", context());
            assert_eq!(
                e.data,
                Some(serde_json::json!({ "uri": case.uri() })),
                "{}",
                context()
            );
        }
        (Expected::NeverUnsafe, _) => {}
        (expected, answer) => panic!("{}: expected {expected}, got {answer:?}", context()),
    }
}

#[tokio::test]
async fn every_hostile_and_generated_read_gets_its_expected_answer() {
    let files = Files::default();
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let server = files.clone();
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let client = ().serve(client_io).await.expect("the client connects");

    let template = UriTemplate::parse("file:///{+path}").unwrap();
    let hostile = hostile_variants(&template);
    for variant in &hostile {
        read(client.peer(), &files, variant.case()).await;
    }
    // And 64 generated paths: reserved characters, triplets, non-ASCII, dots.
    let mut runner = TestRunner::deterministic();
    let cases = strategies::cases(&template);
    for _ in 0..64 {
        let case = cases.new_tree(&mut runner).unwrap().current();
        read(client.peer(), &files, &case).await;
    }
    // Whatever was read, no handler saw an unsafe path.
    let seen = files.seen.lock().unwrap().clone();
    assert!(seen.len() > 40, "{} reads delivered", seen.len());
    for path in seen.iter() {
        assert_eq!(
            SafetyPolicy::STRICT.verdict(path, Scope::Crossing),
            Ok(()),
            "{path:?}"
        );
    }
    client.cancel().await.ok();
}
