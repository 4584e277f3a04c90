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
    let finding = |kind, detail| Some(about(probe, kind, detail));
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
        && !matches!(probe.purpose, Purpose::Long | Purpose::Ladder { .. })
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

/// A finding about `probe`'s case.
pub fn about(probe: &Probe, kind: Kind, detail: String) -> Finding {
    Finding::new(kind, detail)
        .template(&probe.template)
        .uri(&probe.uri)
        .case(&probe.name)
}

/// The crash of a case sent alone: `why` the server went (its exit status and last words).
pub fn crash(probe: &Probe, why: &str) -> Finding {
    about(probe, Kind::Crash, format!("{why}, on this request alone"))
}

/// The hang of a case sent alone.
pub fn hang(probe: &Probe, timeout: Duration) -> Finding {
    let detail = format!(
        "no answer within {:.1} s, on this request alone",
        timeout.as_secs_f64()
    );
    about(probe, Kind::Hang, detail)
}

/// The finding for a ladder's step that took far longer than the server's median, if it did;
/// `before` is how long the step before took.
pub fn slow(
    probe: &Probe,
    elapsed: Duration,
    median: Duration,
    before: Option<Duration>,
) -> Option<Finding> {
    if elapsed < SLOW_FLOOR.max(median * SLOW_FACTOR) {
        return None;
    }
    let before = before
        .map(|b| format!("; the step before took {} ms", b.as_millis()))
        .unwrap_or_default();
    let detail = format!(
        "answered in {} ms, {}x the server's median of {:.2} ms{before}",
        elapsed.as_millis(),
        elapsed.as_micros() / median.as_micros().max(1),
        median.as_secs_f64() * 1000.0
    );
    Some(about(probe, Kind::Slow, detail))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{Content, Read};

    fn probe(purpose: Purpose) -> Probe {
        Probe {
            template: "notes://{id}".into(),
            uri: "notes://x".into(),
            name: "case/id".into(),
            purpose,
        }
    }

    fn answered(outcome: Outcome, millis: u64) -> Answer {
        Answer {
            outcome,
            elapsed: Duration::from_millis(millis),
            bytes: 0,
        }
    }

    fn read(texts: &[&str]) -> Outcome {
        let contents = texts
            .iter()
            .map(|t| Content {
                uri: "notes://x".into(),
                mime_type: None,
                text: (*t).into(),
            })
            .collect();
        Outcome::Read(Read {
            contents,
            ttl_ms: None,
            cache_scope: None,
        })
    }

    fn error(code: i32, message: &str) -> Outcome {
        Outcome::Error {
            code,
            message: message.into(),
            data: String::new(),
        }
    }

    #[test]
    fn an_escape_hides_in_contents_or_in_an_error() {
        let canaries = Canaries::system();
        let leak = answered(read(&["root:x:0:0:root:/root:/bin/sh"]), 1);
        let f = answer(&canaries, -32602, &probe(Purpose::Benign), &leak).unwrap();
        assert_eq!(
            (f.kind, f.severity),
            (Kind::Escape, crate::finding::Severity::High)
        );
        assert_eq!(f.detail, "the answer holds the first line of /etc/passwd");
        let in_error = answered(error(-32602, "cannot parse root:x:0:0:root"), 1);
        assert_eq!(
            answer(&canaries, -32602, &probe(Purpose::Benign), &in_error)
                .unwrap()
                .kind,
            Kind::Escape
        );
        let echoed = answered(error(-32602, "no note ../../etc/passwd"), 1);
        assert_eq!(
            answer(&canaries, -32602, &probe(Purpose::Benign), &echoed),
            None
        );
    }

    #[test]
    fn an_internal_error_is_a_finding_but_past_a_size_limit() {
        let canaries = Canaries::default();
        let internal = answered(error(-32603, "boom"), 1);
        let f = answer(&canaries, -32002, &probe(Purpose::Benign), &internal).unwrap();
        assert_eq!(f.kind, Kind::InternalError);
        assert_eq!(
            f.detail,
            "internal error (-32603: boom) where not-found (-32002) or invalid params (-32602) is right"
        );
        for purpose in [Purpose::Long, Purpose::Ladder { ladder: 0, step: 3 }] {
            assert_eq!(answer(&canaries, -32002, &probe(purpose), &internal), None);
        }
    }

    #[test]
    fn slow_is_far_past_the_median_and_past_a_second() {
        let p = probe(Purpose::Ladder { ladder: 0, step: 5 });
        let ms = Duration::from_millis;
        assert!(slow(&p, ms(900), ms(1), None).is_none(), "under the floor");
        assert!(
            slow(&p, ms(1_500), ms(100), None).is_none(),
            "under 20x the median"
        );
        let f = slow(&p, ms(2_000), ms(1), Some(ms(450))).unwrap();
        assert_eq!(f.kind, Kind::Slow);
        assert_eq!(
            f.detail,
            "answered in 2000 ms, 2000x the server's median of 1.00 ms; the step before took 450 ms"
        );
    }

    #[test]
    fn equivalent_spellings_must_read_alike_unless_the_server_is_unsteady() {
        let base = probe(Purpose::Benign);
        let twin = Probe {
            uri: "notes://%78".into(),
            name: "case/id/unreserved-triplet".into(),
            ..probe(Purpose::Equivalent { of: 0 })
        };
        let one = answered(read(&["note x"]), 1);
        let refused = answered(error(-32602, "no such note"), 1);
        let f = equivalence((&base, &one), None, (&twin, &refused)).unwrap();
        assert_eq!(f.kind, Kind::Inconsistent);
        assert_eq!(
            f.detail,
            "notes://%78 (unreserved-triplet) reads differently from notes://x: refused with -32602 against 6 bytes read"
        );
        assert_eq!(equivalence((&base, &one), None, (&twin, &one)), None);
        // Refusals agree whatever their codes.
        let other = answered(error(-32603, "x"), 1);
        assert_eq!(equivalence((&base, &refused), None, (&twin, &other)), None);
        // A server that reads the same URI differently twice is not judged.
        let changed = answered(read(&["note x, later"]), 1);
        assert_eq!(
            equivalence((&base, &one), Some(&changed), (&twin, &refused)),
            None
        );
    }
}
