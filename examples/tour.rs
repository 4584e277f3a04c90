//! A tour of the crate: expand templates as an MCP client would, match the URIs back and route
//! them as a server would. Run it with `cargo run --example tour`.

use rfc6570::{Router, UriTemplate};
use serde_json::json;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let templates = [
        (
            "log://build/{job_id}{?lines}",
            json!({"job_id": 42, "lines": "10-20"}),
        ),
        (
            "file:///{+path}",
            json!({"path": "docs/guide/intro to rfc6570.md"}),
        ),
        (
            "search://docs{?q,lang}",
            json!({"q": "uri templates", "lang": "en"}),
        ),
        ("db://users/{id}/profile", json!({"id": "ada lovelace"})),
        (
            "{/path*}{?tags*}",
            json!({"path": ["a", "b c"], "tags": ["x", "y"]}),
        ),
    ];
    for (text, vars) in templates {
        let template = UriTemplate::parse(text)?;
        let uri = template.expand(&vars)?;
        let captures = template.match_uri(&uri)?;
        println!("{text}");
        println!("  expand {vars}");
        println!("      -> {uri}");
        println!("  match  {}", serde_json::to_string(&captures)?);
    }

    // Query parameters bind in any order, and the errors say what is wrong and where.
    let search = UriTemplate::parse("search://docs{?q,lang}")?;
    let caps = search.match_uri("search://docs?lang=fr&q=caf%C3%A9")?;
    println!("\nany order: {}", serde_json::to_string(&caps)?);
    for bad in ["search://docs?q=a&q=b", "search://docs?q=%FF"] {
        println!("{bad}: {}", search.match_uri(bad).unwrap_err());
    }
    let err = UriTemplate::parse("log://build/{job id}").unwrap_err();
    println!("\n{err:#}\n");

    // A server routes every resources/read URI to the best of its templates, whatever the
    // order they were registered in, and refuses path traversal in any disguise.
    let mut router = Router::new();
    for (template, handler) in [
        ("file:///{+path}", "read a file"),
        ("file:///docs/{name}", "read a doc"),
        ("file:///docs/index", "the index"),
        ("log://build/{job_id}{?lines}", "a build log"),
        ("search://docs{?q,lang}", "search"),
    ] {
        router.insert(template, handler)?;
    }
    for uri in [
        "file:///docs/index",
        "file:///docs/intro.md",
        "file:///src/lib.rs",
        "log://build/42?lines=10-20",
        "search://docs?lang=en&q=uri%20templates",
        "file:///..%2F..%2Fetc%2Fpasswd",
        "file:///docs/%EF%BC%8E%EF%BC%8E/secret",
        "notes://nowhere",
    ] {
        match router.at(uri) {
            Ok(routed) => println!(
                "{uri}\n  -> {} via {} {}",
                routed.value,
                routed.template,
                serde_json::to_string(&routed.captures)?
            ),
            Err(refused) => println!("{uri}\n  -> refused: {refused}"),
        }
    }
    Ok(())
}
