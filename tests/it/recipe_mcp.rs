//! Recipe: the same through `rfc6570::mcp::Resources`, the registry an MCP server reads from,
//! down to the JSON-RPC answer a client gets for a refused URI.

use proptest::prelude::*;
use rfc6570::UriTemplate;
use rfc6570::mcp::{ResourceTemplate, Resources};
use rfc6570::testing::{Expected, strategies};

proptest! {
    #[test]
    fn every_read_gets_the_expected_values_or_a_refusal_with_its_code(
        hostile in strategies::hostile(&UriTemplate::parse("file:///{+path}").unwrap())
    ) {
        let mut resources = Resources::new();
        resources.insert(ResourceTemplate::parse("file:///{+path}", "files").unwrap(), ()).unwrap();
        let case = hostile.case();
        let read = resources.at(case.uri());
        case.check_read(&read)?;
        match (read, case.expected_route()) {
            // Refused: the client gets "resource not found" (-32602 on 2026-07-28) with the
            // URI as data, and a message that never repeats the decoded value.
            (Err(e), Expected::Unsafe { .. } | Expected::Malformed { .. }) => {
                let answer = e.to_json_rpc(rfc6570::mcp::Revision::V2026_07_28);
                prop_assert_eq!(answer.code, -32602);
                prop_assert_eq!(answer.data, Some(serde_json::json!({ "uri": case.uri() })));
            }
            (Ok(r), _) => {
                let path = r.captures.get("path").unwrap().decoded();
                prop_assert!(rfc6570::safety::SafetyPolicy::STRICT
                    .verdict(&path, rfc6570::safety::Scope::Crossing).is_ok());
            }
            _ => {}
        }
    }
}
