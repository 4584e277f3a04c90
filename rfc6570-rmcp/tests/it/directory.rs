//! `Directory` over a tree built here, with symbolic links into and out of it, served through
//! `#[resource_handler(directory_read)]` and read by rmcp's client: files as text or blobs,
//! listings, completion, `resources/directory/read`, and nothing outside the root, ever.

use std::path::{Path, PathBuf};

use crate::common::{blob_of as blob, text_of as text};
use std::sync::Arc;

use rfc6570_rmcp::{Directory, ResourceRouter, resource_handler};
use rmcp::model::{
    ArgumentInfo, CompleteRequestParams, ErrorCode, ProtocolVersion,
    ReadResourceDirectoryRequestParams, ReadResourceRequestParams, Reference, ResourceContents,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RunningService};
use rmcp::{RoleClient, ServerHandler, ServiceError, ServiceExt};

type Outcome<T = ()> = Result<T, Box<dyn std::error::Error>>;

#[derive(Clone)]
struct Files {
    router: Arc<ResourceRouter<Files>>,
}

#[resource_handler(router = self.router, directory_read)]
impl ServerHandler for Files {}

/// A fresh directory under the target dir: `root/` to serve, and `outside/` beside it.
fn tree(name: &str) -> Outcome<PathBuf> {
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&base);
    let (root, outside) = (base.join("root"), base.join("outside"));
    std::fs::create_dir_all(root.join("docs"))?;
    std::fs::create_dir_all(&outside)?;
    std::fs::write(root.join("readme.txt"), "hello")?;
    std::fs::write(root.join("docs/guide.md"), "# Guide")?;
    std::fs::write(root.join("docs/data.json"), "{\"a\": 1}")?;
    std::fs::write(root.join("docs/what?.md"), "a question")?;
    std::fs::write(root.join("logo.png"), [0x89, b'P', b'N', b'G'])?;
    std::fs::write(root.join("latin1.txt"), b"caf\xe9")?;
    std::fs::write(root.join("big.txt"), "x".repeat(100))?;
    std::fs::write(outside.join("secret.txt"), "the secret")?;
    std::fs::write(root.join(".env"), "TOKEN=secret")?;
    std::fs::create_dir_all(root.join(".git"))?;
    std::fs::write(root.join(".git/config"), "[core]")?;
    // Names a read refuses whatever the file system says: a listing must not offer them.
    std::fs::write(root.join("%2e%2e"), "dots")?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        symlink(root.join("docs/guide.md"), root.join("inside-link.md"))?;
        symlink(outside.join("secret.txt"), root.join("outside-link.txt"))?;
        symlink(&outside, root.join("outside-dir"))?;
        symlink(root.join("nothing-here"), root.join("dangling"))?;
        // A FIFO: opening it to read would block until someone writes.
        let made = std::process::Command::new("mkfifo")
            .arg(root.join("pipe"))
            .status()?;
        assert!(made.success(), "mkfifo");
    }
    Ok(root)
}

async fn serve(root: &Path) -> Outcome<RunningService<RoleClient, ()>> {
    let files = Directory::new(root)?.max_file_size(50);
    let router = ResourceRouter::new().page_size(3).directory(files)?;
    let server = Files {
        router: Arc::new(router),
    };
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    Ok(().serve_with_lifecycle(client_io, lifecycle).await?)
}

async fn read(
    client: &RunningService<RoleClient, ()>,
    uri: &str,
) -> Result<ResourceContents, ServiceError> {
    let mut result = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await?;
    assert_eq!(result.contents.len(), 1, "{uri}");
    Ok(result.contents.remove(0))
}

async fn refused(client: &RunningService<RoleClient, ()>, uri: &str) -> (ErrorCode, String) {
    match read(client, uri).await {
        Err(ServiceError::McpError(e)) => {
            assert_eq!(e.data, Some(serde_json::json!({"uri": uri})), "{uri}");
            (e.code, e.message.into_owned())
        }
        other => panic!("{uri}: expected a refusal, got {other:?}"),
    }
}

#[tokio::test]
async fn files_are_text_or_blobs_and_directories_are_listings() -> Outcome {
    let root = tree("files")?;
    let client = serve(&root).await?;
    assert_eq!(
        text(&read(&client, "file:///readme.txt").await?),
        ("hello", Some("text/plain"))
    );
    assert_eq!(
        text(&read(&client, "file:///docs/guide.md").await?),
        ("# Guide", Some("text/markdown"))
    );
    let json = read(&client, "file:///docs/data.json").await?;
    assert_eq!(text(&json), ("{\"a\": 1}", Some("application/json")));
    assert_eq!(
        text(&read(&client, "file:///docs/what%3F.md").await?).0,
        "a question"
    );
    assert_eq!(
        blob(&read(&client, "file:///logo.png").await?),
        ("iVBORw==", Some("image/png"))
    );
    // A text type whose bytes are not UTF-8 is a blob of that type.
    assert_eq!(
        blob(&read(&client, "file:///latin1.txt").await?).1,
        Some("text/plain")
    );
    let (code, message) = refused(&client, "file:///big.txt").await;
    assert_eq!(
        (code, message.as_str()),
        (
            ErrorCode::INTERNAL_ERROR,
            "the file is larger than this server serves"
        )
    );

    let docs = read(&client, "file:///docs").await?;
    assert_eq!(text(&docs).0, "data.json\nguide.md\nwhat?.md");
    let top = text(&read(&client, "file:///").await?).0.to_owned();
    assert!(top.starts_with("big.txt\ndocs/\n"), "{top}");
    client.cancel().await?;
    Ok(())
}

#[cfg(unix)]
#[tokio::test]
async fn nothing_outside_the_root_is_read_listed_or_offered() -> Outcome {
    let root = tree("links")?;
    let client = serve(&root).await?;
    assert_eq!(
        text(&read(&client, "file:///inside-link.md").await?).0,
        "# Guide"
    );
    for uri in [
        "file:///outside-link.txt",
        "file:///outside-dir/secret.txt",
        "file:///outside-dir",
    ] {
        let (code, message) = refused(&client, uri).await;
        assert_eq!(
            code,
            ErrorCode::INVALID_PARAMS,
            "{uri}: not found on 2026-07-28"
        );
        assert_eq!(
            message,
            "Resource not found: the path leads outside the base directory"
        );
    }
    let (code, message) = refused(&client, "file:///dangling").await;
    assert_eq!(
        (code, message.as_str()),
        (ErrorCode::INVALID_PARAMS, "Resource not found")
    );

    // The listing, the completion and `files()` hold only what can be read.
    let top = read(&client, "file:///").await?;
    assert_eq!(
        text(&top).0,
        "big.txt\ndocs/\ninside-link.md\nlatin1.txt\nlogo.png\nreadme.txt"
    );
    let complete = |value: &str| {
        CompleteRequestParams::new(
            Reference::for_resource("file:///{+path}"),
            ArgumentInfo::new("path", value),
        )
    };
    let offered = client.complete(complete("")).await?.completion.values;
    assert_eq!(
        offered,
        [
            "big.txt",
            "docs/",
            "inside-link.md",
            "latin1.txt",
            "logo.png",
            "readme.txt"
        ]
    );
    assert_eq!(
        client.complete(complete("docs/g")).await?.completion.values,
        ["docs/guide.md"]
    );
    assert!(
        client
            .complete(complete("outside-dir/"))
            .await?
            .completion
            .values
            .is_empty()
    );
    let files = Directory::new(&root)?.files();
    let expected = [
        "big.txt",
        "docs/data.json",
        "docs/guide.md",
        "docs/what?.md",
        "inside-link.md",
        "latin1.txt",
        "logo.png",
        "readme.txt",
    ];
    assert_eq!(files, expected);
    client.cancel().await?;
    Ok(())
}

#[cfg(unix)]
#[tokio::test]
async fn hidden_and_special_files_are_not_served() -> Outcome {
    let root = tree("special")?;
    let client = serve(&root).await?;
    for uri in ["file:///.env", "file:///.git/config", "file:///.git"] {
        let (code, message) = refused(&client, uri).await;
        assert_eq!(
            (code, message.as_str()),
            (
                ErrorCode::INVALID_PARAMS,
                "Resource not found: hidden files are not served"
            ),
            "{uri}"
        );
    }
    // A FIFO is neither read (which would block) nor listed.
    let (code, message) = refused(&client, "file:///pipe").await;
    assert_eq!(
        (code, message.as_str()),
        (
            ErrorCode::INVALID_PARAMS,
            "Resource not found: not a regular file"
        )
    );
    let top = read(&client, "file:///").await?;
    assert!(
        !text(&top).0.contains("pipe") && !text(&top).0.contains(".env"),
        "{top:?}"
    );
    assert!(!text(&top).0.contains("%2e%2e"), "{top:?}");
    // What is not there, named as a directory or too long, is not found either.
    for uri in [
        "file:///readme.txt/x".to_owned(),
        format!("file:///{}", "a".repeat(300)),
    ] {
        let (code, message) = refused(&client, &uri).await;
        assert_eq!(
            (code, message.as_str()),
            (ErrorCode::INVALID_PARAMS, "Resource not found"),
            "{uri}"
        );
    }
    // Completion offers nothing a read refuses, however the prefix climbs.
    let complete = |value: &str| {
        CompleteRequestParams::new(
            Reference::for_resource("file:///{+path}"),
            ArgumentInfo::new("path", value),
        )
    };
    assert!(
        client
            .complete(complete("x/../"))
            .await?
            .completion
            .values
            .is_empty()
    );
    assert!(
        client
            .complete(complete("."))
            .await?
            .completion
            .values
            .is_empty()
    );
    // Served on request.
    let dir = Directory::new(&root)?.hidden(true);
    assert_eq!(dir.text(".env").as_deref(), Some("TOKEN=secret"));
    assert!(dir.entries("").contains(&".git/".to_owned()));
    assert!(Directory::new(&root)?.text(".env").is_none());
    client.cancel().await?;
    Ok(())
}

#[tokio::test]
async fn directory_reads_page_through_the_children() -> Outcome {
    let root = tree("children")?;
    let client = serve(&root).await?;
    let info = client.peer_info().expect("server info");
    assert!(info.capabilities.supports_directory_read());

    let mut names = Vec::new();
    let mut cursor = None;
    loop {
        let mut params = ReadResourceDirectoryRequestParams::new("file:///docs");
        if let Some(c) = cursor.take() {
            params = params.with_cursor(c);
        }
        let page = client.read_resource_directory(params).await?;
        assert!(page.resources.len() <= 3);
        names.extend(
            page.resources
                .iter()
                .map(|r| (r.uri.clone(), r.mime_type.clone(), r.size)),
        );
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    assert_eq!(
        names,
        [
            (
                "file:///docs/data.json".to_owned(),
                Some("application/json".to_owned()),
                Some(8)
            ),
            (
                "file:///docs/guide.md".to_owned(),
                Some("text/markdown".to_owned()),
                Some(7)
            ),
            (
                "file:///docs/what%3F.md".to_owned(),
                Some("text/markdown".to_owned()),
                Some(10)
            ),
        ]
    );
    let top = client
        .read_resource_directory(ReadResourceDirectoryRequestParams::new("file:///"))
        .await?;
    assert_eq!(top.resources.len(), 3);
    assert_eq!(top.resources[1].uri, "file:///docs");
    assert!(top.next_cursor.is_some());
    for uri in ["file:///readme.txt", "nope://x"] {
        match client
            .read_resource_directory(ReadResourceDirectoryRequestParams::new(uri))
            .await
        {
            Err(ServiceError::McpError(e)) => {
                assert_eq!(
                    (e.code, &*e.message),
                    (ErrorCode::INVALID_PARAMS, "not a directory")
                )
            }
            other => panic!("{uri}: {other:?}"),
        }
    }
    client.cancel().await?;
    Ok(())
}
