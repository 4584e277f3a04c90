//! The `mcp` module's types against JSON written by hand from the MCP schema (revisions
//! 2025-11-25 and 2026-07-28, `schema.ts`), and the registry's listing, routing and completion.

use rfc6570::RouteError;
use rfc6570::mcp::{
    Annotations, CompleteRequest, CompleteResult, CompletionError, Icon, JsonRpcError, ReadError,
    Reference, Resource, ResourceTemplate, Resources, Revision, Role, Theme,
};
use rfc6570::safety::Rule;
use serde_json::{Value, json};

fn to_json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap()
}

/// Every field of `ResourceTemplate` (BaseMetadata, Icons, uriTemplate, description, mimeType,
/// annotations, _meta), each with the schema's name and shape.
#[test]
fn resource_template_with_every_field() {
    let mut meta = serde_json::Map::new();
    meta.insert("com.example/team".into(), json!("ci"));
    let template = ResourceTemplate::parse("log://build/{job_id}{?lines}", "build-log")
        .unwrap()
        .title("Build log")
        .description("The log of one CI job")
        .mime_type("text/plain")
        .annotations(
            Annotations::new()
                .audience([Role::User, Role::Assistant])
                .priority(0.75)
                .last_modified("2025-01-12T15:00:58Z"),
        )
        .icon(
            Icon::new("https://example.com/log.png")
                .mime_type("image/png")
                .sizes(["48x48", "96x96"])
                .theme(Theme::Dark),
        )
        .icon(Icon::new("data:image/svg+xml;base64,PHN2Zy8+").sizes(["any"]))
        .meta(meta);

    let schema = json!({
        "uriTemplate": "log://build/{job_id}{?lines}",
        "name": "build-log",
        "title": "Build log",
        "description": "The log of one CI job",
        "mimeType": "text/plain",
        "annotations": {
            "audience": ["user", "assistant"],
            "priority": 0.75,
            "lastModified": "2025-01-12T15:00:58Z"
        },
        "icons": [
            {"src": "https://example.com/log.png", "mimeType": "image/png", "sizes": ["48x48", "96x96"], "theme": "dark"},
            {"src": "data:image/svg+xml;base64,PHN2Zy8+", "sizes": ["any"]}
        ],
        "_meta": {"com.example/team": "ci"}
    });
    assert_eq!(to_json(&template), schema);
    let back: ResourceTemplate = serde_json::from_value(schema).unwrap();
    assert_eq!(back, template);
}

#[test]
fn optional_fields_are_left_out() {
    let template = ResourceTemplate::parse("notes://{id}", "note").unwrap();
    assert_eq!(
        serde_json::to_string(&template).unwrap(),
        r#"{"uriTemplate":"notes://{id}","name":"note"}"#
    );
    let resource = Resource::new("config://app", "app");
    assert_eq!(
        serde_json::to_string(&resource).unwrap(),
        r#"{"uri":"config://app","name":"app"}"#
    );
    assert_eq!(
        serde_json::to_string(&Icon::new("https://x/i.png")).unwrap(),
        r#"{"src":"https://x/i.png"}"#
    );
}

#[test]
fn deserializing_checks_the_template_and_ignores_unknown_fields() {
    let bad = json!({"uriTemplate": "notes://{id", "name": "note"});
    let err = serde_json::from_value::<ResourceTemplate>(bad).unwrap_err();
    assert!(err.to_string().contains("not closed"), "{err}");
    let missing_name = json!({"uriTemplate": "notes://{id}"});
    assert!(serde_json::from_value::<ResourceTemplate>(missing_name).is_err());
    let newer = json!({"uriTemplate": "notes://{id}", "name": "note", "someFutureField": 1});
    let t: ResourceTemplate = serde_json::from_value(newer).unwrap();
    assert_eq!(t.uri_template.as_str(), "notes://{id}");
}

#[test]
fn resource_with_every_field() {
    let resource = Resource::new("file:///project/README.md", "README.md")
        .title("Project readme")
        .description("What the project is")
        .mime_type("text/markdown")
        .annotations(Annotations::new().audience([Role::User]).priority(0.8))
        .size(1024)
        .icon(Icon::new("https://example.com/md.svg").theme(Theme::Light))
        .meta(serde_json::Map::new());
    let schema = json!({
        "uri": "file:///project/README.md",
        "name": "README.md",
        "title": "Project readme",
        "description": "What the project is",
        "mimeType": "text/markdown",
        "annotations": {"audience": ["user"], "priority": 0.8},
        "size": 1024,
        "icons": [{"src": "https://example.com/md.svg", "theme": "light"}],
        "_meta": {}
    });
    assert_eq!(to_json(&resource), schema);
    assert_eq!(
        serde_json::from_value::<Resource>(schema).unwrap(),
        resource
    );
}

/// The error objects of the resources page of the specification.
#[test]
fn json_rpc_errors() {
    assert_eq!(
        to_json(&Revision::V2025_11_25.resource_not_found("file:///nonexistent.txt")),
        json!({"code": -32002, "message": "Resource not found", "data": {"uri": "file:///nonexistent.txt"}})
    );
    assert_eq!(
        to_json(&Revision::V2026_07_28.resource_not_found("file:///nonexistent.txt")),
        json!({"code": -32602, "message": "Resource not found", "data": {"uri": "file:///nonexistent.txt"}})
    );
    let parsed: JsonRpcError =
        serde_json::from_value(json!({"code": -32602, "message": "Invalid cursor"})).unwrap();
    assert_eq!(parsed, JsonRpcError::new(-32602, "Invalid cursor"));
}

#[test]
fn protocol_revisions() {
    for (version, code) in [
        ("2024-11-05", -32002),
        ("2025-03-26", -32002),
        ("2025-06-18", -32002),
        ("2025-11-25", -32002),
        ("2026-07-27", -32002),
        ("2026-07-28", -32602),
        ("2027-01-01", -32602),
        ("DRAFT-2026-v1", -32602),
    ] {
        let revision = Revision::of_peer(version);
        assert_eq!(revision.resource_not_found_code(), code, "{version}");
    }
}

#[test]
fn completion_request_and_result() {
    // The schema's example of a completion with context, and the same for a resource.
    let prompt: CompleteRequest = serde_json::from_value(json!({
        "ref": {"type": "ref/prompt", "name": "code_review"},
        "argument": {"name": "framework", "value": "fla"},
        "context": {"arguments": {"language": "python"}}
    }))
    .unwrap();
    assert_eq!(
        prompt.reference,
        Reference::Prompt {
            name: "code_review".into(),
            title: None
        }
    );
    let resource = CompleteRequest::resource("notes://{id}", "id", "a");
    assert_eq!(
        to_json(&resource),
        json!({"ref": {"type": "ref/resource", "uri": "notes://{id}"}, "argument": {"name": "id", "value": "a"}})
    );
    assert_eq!(
        to_json(&CompleteResult::new(vec!["python".into()], Some(10))),
        json!({"completion": {"values": ["python"], "total": 10, "hasMore": true}})
    );
    assert_eq!(
        to_json(&CompleteResult::new(vec![], None)),
        json!({"completion": {"values": []}})
    );
}

fn registry() -> Resources<&'static str> {
    let mut r = Resources::new().page_size(2);
    for (text, name) in [
        ("file:///{+path}", "file"),
        ("notes://{id}", "note"),
        ("log://build/{job_id}{?lines}", "build-log"),
        ("search://docs{?q,lang}", "search"),
        ("db://{table}/{id}", "row"),
    ] {
        r.insert(ResourceTemplate::parse(text, name).unwrap(), name)
            .unwrap();
    }
    r.insert_resource(Resource::new("config://app", "config"), "config")
        .unwrap();
    r.insert_resource(Resource::new("notes://index", "index"), "index")
        .unwrap();
    r
}

fn all_template_names(r: &Resources<&'static str>) -> Vec<String> {
    let mut names = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let page = r.list_templates(cursor.as_deref()).unwrap();
        assert!(page.resource_templates.len() <= 2);
        names.extend(page.resource_templates.iter().map(|t| t.name.clone()));
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => return names,
        }
    }
}

#[test]
fn pages_follow_insertion_order() {
    let r = registry();
    assert_eq!(
        all_template_names(&r),
        ["file", "note", "build-log", "search", "row"]
    );
    let page = r.list_resources(None).unwrap();
    let uris: Vec<&str> = page.resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(uris, ["config://app", "notes://index"]);
    assert_eq!(page.next_cursor, None);
}

#[test]
fn cursors_survive_additions_and_refuse_removed_entries() {
    let mut r = registry();
    let first = r.list_templates(None).unwrap();
    let cursor = first.next_cursor.clone().unwrap();
    drop(first);
    r.insert(
        ResourceTemplate::parse("late://{x}", "late").unwrap(),
        "late",
    )
    .unwrap();
    let second = r.list_templates(Some(&cursor)).unwrap();
    let names: Vec<&str> = second
        .resource_templates
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(names, ["build-log", "search"]);
    drop(second);

    // The entry the cursor names is gone: the cursor is stale.
    r.remove("log://build/{job_id}{?lines}").unwrap();
    let err = r.list_templates(Some(&cursor)).unwrap_err();
    assert_eq!(err.to_json_rpc().code, -32602);
}

#[test]
fn malformed_cursors_are_errors() {
    let r = registry();
    let cursor = r.list_templates(None).unwrap().next_cursor.unwrap();
    for bad in [
        "",
        "x",
        "t",
        "t0",
        "tzz",
        "t+f",
        "tff",
        &cursor[1..],
        &cursor.to_uppercase(),
    ] {
        assert!(r.list_templates(Some(bad)).is_err(), "{bad:?}");
    }
    // A cursor of the templates list is not one of the resources list.
    assert!(r.list_resources(Some(&cursor)).is_err());
}

#[test]
fn reads_route_to_handlers_with_typed_captures() {
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Log {
        job_id: u32,
        lines: Option<String>,
    }
    let r = registry();
    let read = r.at("log://build/42?lines=1-10").unwrap();
    assert_eq!(*read.handler, "build-log");
    assert_eq!(
        read.params::<Log>().unwrap(),
        Log {
            job_id: 42,
            lines: Some("1-10".into())
        }
    );
    assert_eq!(*r.at("notes://index").unwrap().handler, "index");
    assert_eq!(*r.at("notes://n1").unwrap().handler, "note");
    assert_eq!(*r.at("config://app").unwrap().handler, "config");
    let file = r.at("file:///docs/a%20b.md").unwrap();
    assert_eq!(file.captures.get("path").unwrap().decoded(), "docs/a b.md");
}

#[test]
fn refusals_are_resource_not_found() {
    let r = registry();
    let cases: [(&str, &str); 5] = [
        ("nothing://here", "Resource not found"),
        (
            "file:///..%2F..%2Fetc%2Fpasswd",
            "Resource not found: variable `path` of `file:///{+path}` holds a `..` path segment",
        ),
        (
            "notes://%2E%2E",
            "Resource not found: variable `id` of `notes://{id}` holds a `..` path segment",
        ),
        (
            "notes://%ZZ",
            "Resource not found: malformed URI at byte 8: `%` not followed by two hex digits",
        ),
        (
            "search://docs?q=a&q=b",
            "Resource not found: `search://docs{?q,lang}` refused the URI: query parameter `q` \
             is given more than once",
        ),
    ];
    for (uri, message) in cases {
        let err = r.at(uri).unwrap_err();
        assert_eq!(err.uri(), uri);
        for (version, code) in [
            (Revision::V2025_11_25, -32002),
            (Revision::V2026_07_28, -32602),
        ] {
            let json = err.to_json_rpc(version);
            assert_eq!(json.code, code, "{uri} {version}");
            assert_eq!(json.message, message);
            assert_eq!(json.data, Some(json!({ "uri": uri })));
        }
    }
    // A map key given twice: the variable is named, the decoded key (`secret`) is not sent back.
    let mut tags = Resources::new();
    let template = ResourceTemplate::parse("tags://x{?tags*}", "tags").unwrap();
    tags.insert(template, ()).unwrap();
    let err = tags.at("tags://x?%73ecret=1&secret=2").unwrap_err();
    assert_eq!(
        err.to_json_rpc(Revision::V2026_07_28).message,
        "Resource not found: `tags://x{?tags*}` refused the URI: variable `tags` would hold a map \
         key twice"
    );
    // The safety refusal names the rule, and not the decoded value.
    let err = r.at("file:///a/../../etc/passwd").unwrap_err();
    assert!(matches!(
        err,
        ReadError::Route {
            error: RouteError::Unsafe {
                rule: Rule::DotDotSegment,
                ..
            },
            ..
        }
    ));
    assert!(!err.to_json_rpc(Revision::LATEST).message.contains("passwd"));
}

#[test]
fn completion_checks_template_and_argument() {
    let r = registry();
    let ok = CompleteRequest::resource("db://{table}/{id}", "id", "1")
        .arguments([("table", "users"), ("other", "x")]);
    let completion = r.complete(&ok).unwrap();
    assert_eq!(completion.template.name, "row");
    assert_eq!(completion.argument, "id");
    assert_eq!(completion.value, "1");
    assert_eq!(completion.chosen, [("table", "users")]);
    assert_eq!(
        completion
            .complete_from(["1", "2", "10", "11"])
            .completion
            .values,
        ["1", "10", "11"]
    );

    let errors = [
        (
            CompleteRequest::resource("db://{table}/{id}", "row", ""),
            CompletionError::UnknownArgument {
                template: "db://{table}/{id}".into(),
                argument: "row".into(),
            },
        ),
        (
            CompleteRequest::resource("db://{table}/{key}", "key", ""),
            CompletionError::UnknownTemplate {
                uri: "db://{table}/{key}".into(),
            },
        ),
        (
            CompleteRequest::resource("config://app", "x", ""),
            CompletionError::UnknownArgument {
                template: "config://app".into(),
                argument: "x".into(),
            },
        ),
    ];
    for (request, want) in errors {
        let err = r.complete(&request).unwrap_err();
        assert_eq!(err, want);
        assert_eq!(err.to_json_rpc().code, -32602);
    }
    let prompt: CompleteRequest = serde_json::from_value(json!({
        "ref": {"type": "ref/prompt", "name": "p"}, "argument": {"name": "a", "value": ""}
    }))
    .unwrap();
    assert!(matches!(
        r.complete(&prompt),
        Err(CompletionError::Prompt { .. })
    ));
}

#[test]
fn static_resources_must_be_literal() {
    let mut r: Resources<()> = Resources::new();
    let err = r
        .insert_resource(Resource::new("config://{x}", "x"), ())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "character not allowed in a literal at byte 9 of \"config://{x}\""
    );
    assert!(
        r.insert_resource(Resource::new("config://a b", "x"), ())
            .is_err()
    );
    r.insert_resource(Resource::new("config://app", "app"), ())
        .unwrap();
    assert!(
        r.insert_resource(Resource::new("config://app", "again"), ())
            .is_err()
    );
}
