//! The inventory, taken before any case: the checks a client author makes when "the resources
//! look empty". Both listings to their last page (bounded; a cursor seen twice is a loop), each
//! template parsed with its lints, each static resource read with its listed MIME type, a
//! made-up URI answered with the revision's not-found code, and cache hints where the revision
//! asks for them.

use std::collections::HashSet;
use std::future::Future;
use std::time::Instant;

use rfc6570::UriTemplate;
use rfc6570::mcp::Revision;
use serde::Serialize;

use crate::canary::Canaries;
use crate::finding::{Finding, Kind};
use crate::judge::{self, INTERNAL_ERROR};
use crate::session::{Answer, Outcome, Page, Session};

/// Pages of one listing read at most; a server with more is told so.
const MAX_PAGES: usize = 100;
/// Static resources read at most.
const MAX_READS: usize = 200;
/// A URI no server serves.
pub const MADE_UP: &str = "rfc6570-probe-missing://no/such/resource";

/// A listed template, as the report shows it.
#[derive(Debug, Clone, Serialize)]
pub struct Listed {
    pub template: String,
    pub name: String,
    /// Why it does not parse, if it does not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Its lints' codes and messages.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lints: Vec<String>,
    #[serde(skip)]
    pub parsed: Option<UriTemplate>,
}

/// What the server lists, and what the listing's checks found.
#[derive(Debug, Default, Serialize)]
pub struct Inventory {
    /// Static resources listed.
    pub resources: usize,
    /// Static resources read, and of those, how many read as listed.
    pub reads: usize,
    pub reads_as_listed: usize,
    pub templates: Vec<Listed>,
    /// One line per check, in order.
    pub checks: Vec<String>,
    #[serde(skip)]
    pub findings: Vec<Finding>,
    #[serde(skip)]
    pub requests: usize,
    /// When the probe's time is up: the inventory stops there too.
    #[serde(skip)]
    deadline: Option<Instant>,
}

impl Inventory {
    /// Takes the inventory of `session`'s server, by `deadline`.
    pub async fn take(session: &Session, canaries: &Canaries, deadline: Instant) -> Self {
        let mut inventory = Self {
            deadline: Some(deadline),
            ..Self::default()
        };
        let revision = session.revision();
        let resources = inventory
            .list("resources/list", revision, |c| session.list_resources(c))
            .await;
        inventory.resources = resources.len();
        let templates = inventory
            .list("resources/templates/list", revision, |c| {
                session.list_templates(c)
            })
            .await;
        for t in templates {
            inventory
                .templates
                .push(parse(t.uri_template, t.name, &mut inventory.findings));
        }
        if resources.is_empty() && inventory.templates.is_empty() {
            inventory
                .checks
                .push("nothing to probe: the server lists no resource and no template".into());
        }
        inventory.read_listed(session, canaries, &resources).await;
        inventory.made_up(session, revision).await;
        inventory
    }

    /// Whether the probe's time is up, said once per check that it stops.
    fn out_of_time(&mut self, check: &str) -> bool {
        let over = self.deadline.is_some_and(|d| Instant::now() >= d);
        if over {
            self.checks.push(format!(
                "{check}: stopped, the time bound (--max-time) was reached"
            ));
        }
        over
    }

    /// One listing, page by page, to its last page or a loop.
    async fn list<T, F, Fut>(&mut self, method: &str, revision: Revision, mut page: F) -> Vec<T>
    where
        F: FnMut(Option<String>) -> Fut,
        Fut: Future<Output = Result<Page<T>, Outcome>>,
    {
        let mut items = Vec::new();
        let mut cursor = None;
        let mut seen = HashSet::new();
        let mut missing_hints = false;
        for pages in 1..=MAX_PAGES {
            if self.out_of_time(method) {
                return items;
            }
            self.requests += 1;
            let got = match page(cursor.clone()).await {
                Ok(got) => got,
                Err(outcome) => {
                    let detail = format!("{method} failed: {}", describe(&outcome));
                    self.findings
                        .push(Finding::new(Kind::Protocol, detail.clone()));
                    self.checks.push(detail);
                    return items;
                }
            };
            missing_hints |= !got.has_cache_hints;
            items.extend(got.items);
            match got.next_cursor {
                None => {
                    self.checks
                        .push(format!("{method}: {} in {pages} page(s)", items.len()));
                    if missing_hints && revision.has_cache_hints() {
                        self.findings.push(Finding::new(
                            Kind::Protocol,
                            format!("{method}: a page without cache hints (ttlMs, cacheScope), which revision {revision} requires"),
                        ));
                    }
                    return items;
                }
                Some(next) if !seen.insert(next.clone()) => {
                    let detail = format!(
                        "{method}: the cursor {next:?} came back after {pages} pages: the listing loops"
                    );
                    self.findings
                        .push(Finding::new(Kind::Protocol, detail.clone()));
                    self.checks.push(detail);
                    return items;
                }
                Some(next) => cursor = Some(next),
            }
        }
        self.checks.push(format!(
            "{method}: stopped after {MAX_PAGES} pages ({} items)",
            items.len()
        ));
        items
    }

    /// Reads each listed static resource: it reads, with the MIME type listed, and holds no
    /// canary.
    async fn read_listed(
        &mut self,
        session: &Session,
        canaries: &Canaries,
        resources: &[rmcp::model::Resource],
    ) {
        let reader = session.reader();
        let revision = session.revision();
        let not_found = revision.resource_not_found_code();
        let mut without_hints = None;
        for resource in resources.iter().take(MAX_READS) {
            if self.out_of_time("static resources") {
                break;
            }
            self.requests += 1;
            self.reads += 1;
            let answer = reader.read(&resource.uri).await;
            let probe = crate::cases::Probe {
                template: String::new(),
                uri: resource.uri.clone(),
                name: "listed".into(),
                purpose: crate::cases::Purpose::Benign,
            };
            if let Some(mut f) = judge::answer(canaries, not_found, &probe, &answer) {
                f.template = None;
                self.findings.push(f);
                continue;
            }
            if let Outcome::Read(read) = &answer.outcome
                && revision.has_cache_hints()
                && (read.ttl_ms.is_none() || read.cache_scope.is_none())
            {
                without_hints.get_or_insert_with(|| resource.uri.clone());
            }
            match listed_read(resource, &answer) {
                Ok(()) => self.reads_as_listed += 1,
                Err(detail) => self
                    .findings
                    .push(Finding::new(Kind::Inconsistent, detail).uri(&resource.uri)),
            }
        }
        if let Some(uri) = without_hints {
            self.findings.push(
                Finding::new(
                    Kind::Protocol,
                    format!("resources/read: a result without cache hints (ttlMs, cacheScope), which revision {revision} requires"),
                )
                .uri(uri),
            );
        }
        self.checks.push(format!(
            "static resources: {} of {} read as listed",
            self.reads_as_listed, self.reads
        ));
    }

    /// A URI that no server serves answers the revision's not-found code.
    async fn made_up(&mut self, session: &Session, revision: Revision) {
        if self.out_of_time("a made-up URI") {
            return;
        }
        self.requests += 1;
        let answer = session.reader().read(MADE_UP).await;
        let expected = revision.resource_not_found_code();
        let finding = match &answer.outcome {
            Outcome::Error { code, .. } if *code == expected => None,
            Outcome::Error {
                code: INTERNAL_ERROR,
                message,
                ..
            } => Some(Finding::new(
                Kind::InternalError,
                format!(
                    "a URI that names no resource answers an internal error ({INTERNAL_ERROR}: {}), not {expected}",
                    judge::one_line(message)
                ),
            )),
            other => Some(Finding::new(
                Kind::Protocol,
                format!(
                    "a URI that names no resource answers {}, not the not-found code of revision {revision} ({expected})",
                    describe(other)
                ),
            )),
        };
        self.checks
            .push(format!("a made-up URI: {}", describe(&answer.outcome)));
        self.findings.extend(finding.map(|f| f.uri(MADE_UP)));
    }
}

/// Whether a listed resource reads as listed.
fn listed_read(resource: &rmcp::model::Resource, answer: &Answer) -> Result<(), String> {
    let read = match &answer.outcome {
        Outcome::Read(read) => read,
        other => return Err(format!("listed, but its read answers {}", describe(other))),
    };
    let (Some(listed), Some(first)) = (&resource.mime_type, read.contents.first()) else {
        return Ok(());
    };
    match &first.mime_type {
        Some(read_type) if !same_type(read_type, listed) => {
            Err(format!("listed as {listed}, read as {read_type}"))
        }
        _ => Ok(()),
    }
}

/// MIME types compare without case and without parameters (`text/plain; charset=utf-8`).
fn same_type(a: &str, b: &str) -> bool {
    let essence = |t: &str| {
        t.split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase()
    };
    essence(a) == essence(b)
}

/// A listed template, parsed; one that does not parse is a protocol finding.
fn parse(template: String, name: String, findings: &mut Vec<Finding>) -> Listed {
    match UriTemplate::parse(&template) {
        Ok(parsed) => Listed {
            lints: parsed
                .lints()
                .iter()
                .map(|l| format!("{}: {l}", l.code()))
                .collect(),
            template,
            name,
            error: None,
            parsed: Some(parsed),
        },
        Err(e) => {
            findings.push(Finding::new(
                Kind::Protocol,
                format!("the listed template {template:?} is not an RFC 6570 template: {e}"),
            ));
            Listed {
                template,
                name,
                error: Some(e.to_string()),
                lints: Vec::new(),
                parsed: None,
            }
        }
    }
}

/// An outcome in a few words.
pub fn describe(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Read(read) => format!("a read of {} item(s)", read.contents.len()),
        Outcome::Error { code, message, .. } => {
            format!("error {code} ({})", judge::one_line(message))
        }
        Outcome::Timeout => "no answer within the timeout".into(),
        Outcome::Closed => "a closed transport".into(),
        Outcome::Other(what) => judge::one_line(what),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mime_types_compare_by_essence() {
        assert!(same_type("text/plain; charset=utf-8", "TEXT/plain"));
        assert!(!same_type("text/plain", "text/markdown"));
    }

    #[test]
    fn a_template_that_does_not_parse_is_a_protocol_finding() {
        let mut findings = Vec::new();
        let listed = parse("notes://{id".into(), "notes".into(), &mut findings);
        assert!(listed.parsed.is_none());
        assert_eq!(findings.len(), 1);
        assert_eq!(findings[0].kind, Kind::Protocol);
        assert!(
            findings[0].detail.contains("notes://{id"),
            "{}",
            findings[0].detail
        );
        let listed = parse("file:///{path}".into(), "files".into(), &mut findings);
        assert!(listed.parsed.is_some());
        assert_eq!(findings.len(), 1);
    }
}
