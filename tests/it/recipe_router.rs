//! Recipe: property-test the handlers behind a router with generated and hostile URIs. This
//! is the whole of what a server author writes (the README shows the first test).

use proptest::prelude::*;
use rfc6570::testing::{Case, strategies};
use rfc6570::{Router, UriTemplate};

fn template(text: &str) -> UriTemplate {
    UriTemplate::parse(text).unwrap()
}

/// The server's routes; each handler says what it would read, or refuses.
fn routes() -> Router<fn(&rfc6570::Captures) -> String> {
    let mut router: Router<fn(&rfc6570::Captures) -> String> = Router::new();
    router
        .insert("file:///{+path}", |c| {
            format!("file {}", c.get("path").unwrap().decoded())
        })
        .unwrap();
    router
        .insert("log://build/{job_id}{?lines}", |c| {
            format!("log {}", c.get("job_id").unwrap().decoded())
        })
        .unwrap();
    router
}

/// Routes a case and runs its handler: the router gives what the case expects (the exact
/// values, or the refusal with its rule or position), so the handler sees no other value.
fn serve(
    router: &Router<fn(&rfc6570::Captures) -> String>,
    case: &Case,
) -> Result<(), TestCaseError> {
    let routed = router.at(case.uri());
    case.check_route(&routed)?;
    if let Ok(r) = routed {
        (r.value)(&r.captures);
    }
    Ok(())
}

proptest! {
    #[test]
    fn files_are_served_exactly_or_refused(
        case in strategies::all_cases(&template("file:///{+path}"))
    ) {
        serve(&routes(), &case)?;
    }

    #[test]
    fn build_logs_are_served_exactly_or_refused(
        case in strategies::all_cases(&template("log://build/{job_id}{?lines}"))
    ) {
        serve(&routes(), &case)?;
    }
}
