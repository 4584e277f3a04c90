//! The oracles: what makes an answer a finding. An answer alone can show an escape or an
//! internal error; two answers to equivalent URIs can disagree. Crashes, hangs and slow answers
//! need a replay or a ladder, which the run does ([`crate::run`]).

use std::time::Duration;

use crate::canary::Canaries;
use crate::cases::{Probe, Purpose};
use crate::finding::{Finding, Kind};
use crate::session::{Answer, Outcome};

/// JSON-RPC's internal error.
pub const INTERNAL_ERROR: i32 = -32603;
/// JSON-RPC's invalid params.
pub const INVALID_PARAMS: i32 = -32602;

/// An answer is slow when it takes this many times the server's median, and at least
/// [`SLOW_FLOOR`]: far enough past the median that a busy machine does not get there.
pub const SLOW_FACTOR: u32 = 20;
pub const SLOW_FLOOR: Duration = Duration::from_secs(1);

/// The text of an answer where a canary could hide: contents, or an error's message and data.
pub fn exposed(outcome: &Outcome) -> Vec<&str> {
    match outcome {
        Outcome::Read(read) => read.texts(),
        Outcome::Error { message, data, .. } => vec![message.as_str(), data.as_str()],
        _ => Vec::new(),
    }
}

/// The finding an answer shows on its own, if any: an escape, or an internal error where
/// not-found (`not_found`, the revision's code) or invalid params is right.
pub fn answer(
    canaries: &Canaries,
    not_found: i32,
    probe: &Probe,
    answer: &Answer,
) -> Option<Finding> {
    let finding = |kind, detail: String| {
        Some(
            Finding::new(kind, detail)
                .template(&probe.template)
                .uri(&probe.uri)
                .case(&probe.name),
        )
    };
    if let Some(what) = exposed(&answer.outcome)
        .into_iter()
        .find_map(|t| canaries.found_in(t))
    {
        return finding(Kind::Escape, format!("the answer holds {what}"));
    }
    if let Outcome::Error {
        code: INTERNAL_ERROR,
        message,
        ..
    } = &answer.outcome
        && probe.purpose != Purpose::Long
    {
        return finding(
            Kind::InternalError,
            format!(
                "internal error ({INTERNAL_ERROR}: {}) where not-found ({not_found}) or invalid params ({INVALID_PARAMS}) is right",
                one_line(message)
            ),
        );
    }
    None
}

/// Whether an answer took far longer than the server's median.
pub fn is_slow(elapsed: Duration, median: Duration) -> bool {
    elapsed >= SLOW_FLOOR.max(median * SLOW_FACTOR)
}

/// The finding for a case and its equivalent spelling, when they read differently. `again` is
/// the case read a second time: a server whose answers change by themselves is not judged.
pub fn equivalence(
    base: (&Probe, &Answer),
    again: Option<&Answer>,
    twin: (&Probe, &Answer),
) -> Option<Finding> {
    let (probe, first) = base;
    let (other, second) = twin;
    let a = reading(&first.outcome)?;
    let b = reading(&second.outcome)?;
    let steady = again
        .and_then(|again| reading(&again.outcome))
        .is_none_or(|again| same(&again, &a));
    if !steady || same(&a, &b) {
        return None;
    }
    let how = other.name.rsplit('/').next().unwrap_or_default();
    Some(
        Finding::new(
            Kind::Inconsistent,
            format!(
                "{} ({how}) reads differently from {}: {} against {}",
                other.uri,
                probe.uri,
                b.describe(),
                a.describe()
            ),
        )
        .template(&other.template)
        .uri(&other.uri)
        .case(&other.name),
    )
}

/// What an answer read, for comparing two: the texts, or that it failed (a refusal with any
/// code is a refusal). `None` for a timeout or a closed transport, judged elsewhere.
#[derive(Debug)]
enum Reading<'a> {
    Texts(Vec<&'a str>),
    Refused(i32),
}

impl Reading<'_> {
    fn describe(&self) -> String {
        match self {
            Self::Texts(texts) => format!(
                "{} bytes read",
                texts.iter().map(|t| t.len()).sum::<usize>()
            ),
            Self::Refused(code) => format!("refused with {code}"),
        }
    }
}

/// Two readings agree when they read the same texts, or both refused (with whatever code).
fn same(a: &Reading<'_>, b: &Reading<'_>) -> bool {
    match (a, b) {
        (Reading::Texts(a), Reading::Texts(b)) => a == b,
        (Reading::Refused(_), Reading::Refused(_)) => true,
        _ => false,
    }
}

fn reading(outcome: &Outcome) -> Option<Reading<'_>> {
    match outcome {
        Outcome::Read(read) => Some(Reading::Texts(read.texts())),
        Outcome::Error { code, .. } => Some(Reading::Refused(*code)),
        _ => None,
    }
}

/// A message on one line, cut at 160 characters.
pub fn one_line(text: &str) -> String {
    let line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(160) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line,
    }
}
