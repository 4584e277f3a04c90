//! One probe from start to end: the target and its sandbox, the session, the inventory, the
//! cases sent within the bounds (a crash or a timeout replayed alone, on a fresh server where
//! the probe started it), the ladders climbed one step at a time, the judgments, the report.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use rfc6570::UriTemplate;
use serde_json::json;
use tokio::task::JoinSet;

use crate::canary::Canaries;
use crate::cases::{self, Probe, Purpose};
use crate::cli::{Args, Color, Limits};
use crate::finding::Finding;
use crate::inventory::{self, Inventory};
use crate::judge;
use crate::progress::Progress;
use crate::report::{self, Report};
use crate::sandbox::Sandbox;
use crate::session::{Answer, Outcome, Session, Target, Wanted};

/// Restarts of a stdio server at most, after crashes and hangs.
const MAX_RESTARTS: usize = 100;
/// Timeouts on one template before its other cases are left unsent: each would hold a slot for
/// the whole timeout, and the hang is already found.
const TIMEOUTS_PER_TEMPLATE: usize = 3;
/// Crashes pinned on one template before its other cases are left unsent: each costs a restart,
/// and the crash is already found.
const CRASHES_PER_TEMPLATE: usize = 10;

/// Runs the probe that `args` describe, and gives the exit status.
pub async fn main(args: Args) -> u8 {
    match probe(&args).await {
        Ok(status) => status,
        Err(reason) => {
            eprintln!("rfc6570-probe: {reason}");
            2
        }
    }
}

async fn probe(args: &Args) -> Result<u8, String> {
    let started = Instant::now();
    let limits = args.limits();
    let wanted = Wanted::parse(&args.revision)?;
    let mut canaries = Canaries::system();
    for path in &args.canary {
        canaries.named(path)?;
    }
    // Kept alive to the end: dropping it removes the sandbox.
    let (target, sandbox) = target(args, &mut canaries)?;
    let session = Session::open(target.clone(), wanted, limits.timeout).await?;
    if let Some(uri) = &args.read {
        return Ok(read_one(session, uri).await);
    }
    if !session.has_resources() {
        session.close().await;
        return Err(
            "the server declares no resources capability: there is nothing to probe".into(),
        );
    }
    let relative = match sandbox {
        Some(_) => Sandbox::relative_targets().to_vec(),
        None => Vec::new(),
    };
    let aims = cases::aims(&canaries.paths(), &relative);
    let revision = session.revision();
    let mut sender = Sender::new(session, limits, Progress::new(args.quiet), started);
    let (inventory, findings, median) = examine(&mut sender, &canaries, &aims).await;
    let mut report = Report {
        server: target.describe(),
        revision: revision.to_string(),
        templates: inventory
            .templates
            .iter()
            .map(|t| t.template.clone())
            .collect(),
        requests: sender.requests,
        inventory,
        findings,
        unsent: std::mem::take(&mut sender.unsent),
        elapsed_ms: started.elapsed().as_millis() as u64,
        median_us: median.as_micros() as u64,
        probe: env!("CARGO_PKG_VERSION").into(),
        reproduce: reproduce(&target, &args.revision),
        artifact: artifact(&target),
    };
    sender.session.close().await;
    drop(sandbox);
    report.sort();
    write_reports(args, &report)?;
    report::print_summary(&report, color(args.color), args.quiet);
    Ok(report.status(args.fail_on))
}

/// The inventory, then the cases of every template, then the ladders: what the server lists,
/// every finding, and the median answer time.
async fn examine(
    sender: &mut Sender,
    canaries: &Canaries,
    aims: &[(String, String)],
) -> (Inventory, Vec<Finding>, Duration) {
    let revision = sender.session.revision();
    let not_found = revision.resource_not_found_code();
    let mut inventory = Inventory::take(&sender.session, canaries, sender.deadline).await;
    sender.requests += inventory.requests;
    let templates: Vec<&UriTemplate> = inventory
        .templates
        .iter()
        .filter_map(|t| t.parsed.as_ref())
        .filter(|t| t.variables().next().is_some())
        .collect();

    let probes = interleave(
        templates
            .iter()
            .map(|t| cases::for_template(t, aims))
            .collect(),
    );
    sender.progress.stage("cases", probes.len());
    let answers = sender.send_all(&probes).await;
    let mut findings = std::mem::take(&mut inventory.findings);
    findings.extend(
        probes
            .iter()
            .zip(&answers)
            .filter_map(|(p, a)| judge::answer(canaries, not_found, p, a.as_ref()?)),
    );
    findings.extend(equivalences(&probes, &answers));

    let median = median(&answers);
    let ladders = cases::ladders(&templates);
    sender.progress.stage("ladders", ladders.len());
    sender.climb(&ladders, median, canaries, not_found).await;
    sender.progress.finish();
    findings.append(&mut sender.findings);
    (inventory, findings, median)
}

/// Whether the terminal summary has colors.
fn color(choice: Color) -> bool {
    match choice {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            std::io::IsTerminal::is_terminal(&std::io::stderr())
                && std::env::var_os("NO_COLOR").is_none()
        }
    }
}

/// The target, and the sandbox a stdio server starts in.
fn target(args: &Args, canaries: &mut Canaries) -> Result<(Target, Option<Sandbox>), String> {
    match (&args.url, args.command.is_empty()) {
        (Some(url), true) => Ok((
            Target::Http {
                url: url.clone(),
                headers: args
                    .header
                    .iter()
                    .map(|h| header(h))
                    .collect::<Result<_, _>>()?,
            },
            None,
        )),
        (None, false) => {
            let sandbox =
                Sandbox::plant(canaries).map_err(|e| format!("cannot plant the sandbox: {e}"))?;
            let command = args.command.iter().map(|a| absolute_if_file(a)).collect();
            Ok((
                Target::Stdio {
                    command,
                    work: sandbox.work().to_owned(),
                },
                Some(sandbox),
            ))
        }
        (Some(_), false) => Err("give a URL or a command after `--`, not both".into()),
        (None, true) => Err("give a URL, or a command after `--` to start".into()),
    }
}

/// `Name: value`, split.
fn header(text: &str) -> Result<(String, String), String> {
    let (name, value) = text
        .split_once(':')
        .ok_or_else(|| format!("--header {text:?}: expected `Name: value`"))?;
    Ok((name.trim().to_owned(), value.trim().to_owned()))
}

/// The server starts in the sandbox, so an argument naming a file here (`server.py`) is made
/// absolute.
fn absolute_if_file(arg: &str) -> String {
    let path = Path::new(arg);
    if path.is_relative()
        && path.exists()
        && let Ok(absolute) = std::path::absolute(path)
    {
        return absolute.to_string_lossy().into_owned();
    }
    arg.to_owned()
}

/// Reads one URI and prints what came back, as JSON on stdout. The exit status is 1 when the
/// server crashed or hung on it (the faults a reproduction shows), else 0.
async fn read_one(mut session: Session, uri: &str) -> u8 {
    let answer = session.reader().read(uri).await;
    let (outcome, status) = match &answer.outcome {
        Outcome::Read(read) => (
            json!({
                "contents": read.contents.iter().map(|c| json!({
                    "uri": c.uri, "mimeType": c.mime_type, "text": c.text,
                })).collect::<Vec<_>>(),
                "ttlMs": read.ttl_ms,
            }),
            0,
        ),
        Outcome::Error {
            code,
            message,
            data,
        } => (
            json!({ "error": { "code": code, "message": message, "data": data } }),
            0,
        ),
        Outcome::Closed => {
            let why = session.exit_reason().await;
            let why = why.unwrap_or_else(|| inventory::describe(&answer.outcome));
            (json!({ "failure": why }), 1)
        }
        other => (json!({ "failure": inventory::describe(other) }), 1),
    };
    let printed = json!({
        "uri": uri,
        "elapsed_ms": answer.elapsed.as_secs_f64() * 1000.0,
        "answer": outcome,
    });
    println!(
        "{}",
        serde_json::to_string_pretty(&printed).unwrap_or_default()
    );
    session.close().await;
    status
}

fn write_reports(args: &Args, report: &Report) -> Result<(), String> {
    if let Some(path) = &args.json {
        report
            .write_json(path)
            .map_err(|e| format!("cannot write the JSON report to {}: {e}", path.display()))?;
    }
    if let Some(path) = &args.sarif {
        report
            .write_sarif(path)
            .map_err(|e| format!("cannot write the SARIF log to {}: {e}", path.display()))?;
    }
    Ok(())
}

/// What follows `rfc6570-probe --read URI` to read a URI again: the options that matter and
/// the target. Header values are left out: they may be secrets.
fn reproduce(target: &Target, revision: &str) -> String {
    let revision = if revision == "auto" {
        String::new()
    } else {
        format!(" --revision {}", report::shell_quote(revision))
    };
    match target {
        Target::Stdio { command, .. } => {
            let command: Vec<String> = command.iter().map(|a| report::shell_quote(a)).collect();
            format!("{revision} -- {}", command.join(" "))
        }
        Target::Http { url, headers } => {
            let headers: String = headers
                .iter()
                .map(|(n, _)| format!(" --header '{n}: …'"))
                .collect();
            format!("{revision}{headers} {}", report::shell_quote(url))
        }
    }
}

/// The file SARIF results point at, as a URI reference: the first argument that names a file
/// (relative to where the probe runs, as code scanning wants it), else the program.
fn artifact(target: &Target) -> Option<String> {
    match target {
        Target::Stdio { command, .. } => {
            let file = command.iter().skip(1).find(|a| Path::new(a).is_file());
            let chosen = file.or(command.first())?;
            let here = std::env::current_dir().ok();
            let relative = here
                .as_deref()
                .and_then(|here| Path::new(chosen).strip_prefix(here).ok())
                .map(|p| p.to_string_lossy().into_owned());
            uri_reference(&relative.unwrap_or_else(|| chosen.clone()))
        }
        Target::Http { url, .. } => Some(url.clone()),
    }
}

/// A path as a URI reference: RFC 6570's reserved expansion keeps `/` and encodes a space.
fn uri_reference(path: &str) -> Option<String> {
    let reserved = UriTemplate::parse("{+path}").ok()?;
    reserved.expand(&[("path", path)]).ok()
}

/// The cases of every template, taken in turn one from each, so that a bound reached cuts all
/// templates alike; each equivalence still points at its own case.
fn interleave(per_template: Vec<Vec<Probe>>) -> Vec<Probe> {
    let offsets: Vec<Vec<usize>> = {
        let mut order = Vec::new();
        let longest = per_template.iter().map(Vec::len).max().unwrap_or(0);
        for i in 0..longest {
            for (t, probes) in per_template.iter().enumerate() {
                if i < probes.len() {
                    order.push((t, i));
                }
            }
        }
        let mut at: Vec<Vec<usize>> = per_template.iter().map(|p| vec![0; p.len()]).collect();
        for (global, &(t, i)) in order.iter().enumerate() {
            at[t][i] = global;
        }
        at
    };
    let mut slots: Vec<Option<Probe>> = vec![None; offsets.iter().map(Vec::len).sum()];
    for (t, probes) in per_template.into_iter().enumerate() {
        for (i, mut probe) in probes.into_iter().enumerate() {
            if let Purpose::Equivalent { of } = &mut probe.purpose {
                *of = offsets[t][*of];
            }
            slots[offsets[t][i]] = Some(probe);
        }
    }
    slots.into_iter().flatten().collect()
}

/// Each equivalent spelling judged against its case, with the case's second reading.
fn equivalences(probes: &[Probe], answers: &[Option<Answer>]) -> Vec<Finding> {
    let again = |of: usize| {
        probes.iter().zip(answers).find_map(|(p, a)| {
            (p.purpose == Purpose::Equivalent { of } && p.name.ends_with("/again"))
                .then_some(a.as_ref()?)
        })
    };
    probes
        .iter()
        .zip(answers)
        .filter_map(|(twin, answer)| {
            let Purpose::Equivalent { of } = twin.purpose else {
                return None;
            };
            if twin.name.ends_with("/again") {
                return None;
            }
            let base = (&probes[of], answers[of].as_ref()?);
            judge::equivalence(base, again(of), (twin, answer.as_ref()?))
        })
        .collect()
}

/// The median answer time, or a millisecond when nothing answered.
fn median(answers: &[Option<Answer>]) -> Duration {
    let mut times: Vec<Duration> = answers.iter().flatten().map(|a| a.elapsed).collect();
    times.sort();
    times
        .get(times.len() / 2)
        .copied()
        .unwrap_or(Duration::from_millis(1))
}

/// What went wrong with one template's cases, and how many were left unsent for it.
#[derive(Default)]
struct Trouble {
    timeouts: usize,
    crashes: usize,
    skipped: usize,
}

impl Trouble {
    /// Why the template's other cases are not sent, once it has hung or crashed enough.
    fn why_given_up(&self) -> Option<String> {
        if self.timeouts >= TIMEOUTS_PER_TEMPLATE {
            Some(format!("gave no answer {} times", self.timeouts))
        } else if self.crashes >= CRASHES_PER_TEMPLATE {
            Some(format!("crashed the server {} times", self.crashes))
        } else {
            None
        }
    }
}

/// Sends cases within the bounds, and finds crashes and hangs by replaying alone what closed
/// the transport or timed out.
struct Sender {
    session: Session,
    limits: Limits,
    progress: Progress,
    deadline: Instant,
    requests: usize,
    bytes: u64,
    restarts: usize,
    /// The server is gone for good: it cannot be restarted, or would not start again.
    gone: bool,
    /// By template: its timeouts in passes, its crashes, and its cases left unsent for them.
    trouble: BTreeMap<String, Trouble>,
    findings: Vec<Finding>,
    unsent: Vec<String>,
}

impl Sender {
    fn new(session: Session, limits: Limits, progress: Progress, started: Instant) -> Self {
        Self {
            session,
            limits,
            progress,
            deadline: started + limits.max_time,
            requests: 0,
            bytes: 0,
            restarts: 0,
            gone: false,
            trouble: BTreeMap::new(),
            findings: Vec::new(),
            unsent: Vec::new(),
        }
    }

    /// Whether another request may go; the first bound reached is recorded.
    fn may_send(&mut self) -> bool {
        let reason = if self.gone {
            return false;
        } else if self.requests >= self.limits.max_requests {
            format!(
                "the request bound (--max-requests {}) was reached",
                self.limits.max_requests
            )
        } else if self.bytes >= self.limits.max_bytes {
            format!(
                "the byte bound (--max-bytes {}) was reached",
                self.limits.max_bytes
            )
        } else if Instant::now() >= self.deadline {
            format!(
                "the time bound (--max-time {} s) was reached",
                self.limits.max_time.as_secs()
            )
        } else {
            return true;
        };
        if !self.unsent.contains(&reason) {
            self.unsent.push(reason);
        }
        false
    }

    /// Sends every case, `concurrency` at a time. A closed transport ends the pass: the server
    /// is started again and what was in flight is replayed alone, so that a crash is pinned on
    /// its case; from then on cases go one at a time, each closure its own crash. What timed
    /// out is replayed alone at the end.
    async fn send_all(&mut self, probes: &[Probe]) -> Vec<Option<Answer>> {
        let mut answers: Vec<Option<Answer>> = vec![None; probes.len()];
        let mut timed_out = Vec::new();
        let mut next = 0;
        let mut concurrency = self.limits.concurrency;
        while next < probes.len() && self.may_send() {
            let closed = self
                .pass(probes, concurrency, &mut next, &mut answers, &mut timed_out)
                .await;
            match closed.as_slice() {
                [] => {}
                [(i, answer)] if concurrency == 1 => {
                    self.judge_alone(&probes[*i], answer).await;
                }
                _ => {
                    if !self.recover().await {
                        break;
                    }
                    concurrency = 1;
                    for (i, _) in closed {
                        answers[i] = self.replay(&probes[i]).await;
                    }
                }
            }
        }
        if next < probes.len() {
            self.unsent.push(format!(
                "{} of {} cases were not sent",
                probes.len() - next,
                probes.len()
            ));
        }
        for (template, trouble) in &self.trouble {
            if let Some(why) = trouble.why_given_up() {
                let skipped = trouble.skipped;
                self.unsent.push(format!(
                    "{skipped} cases of {template} were not sent: it {why}"
                ));
            }
        }
        for i in timed_out {
            answers[i] = self.replay(&probes[i]).await;
        }
        answers
    }

    /// One pass: cases from `next` on, `concurrency` at a time, until they run out, a bound is
    /// reached or the transport closes. Gives the cases whose answer was a closed transport.
    async fn pass(
        &mut self,
        probes: &[Probe],
        concurrency: usize,
        next: &mut usize,
        answers: &mut [Option<Answer>],
        timed_out: &mut Vec<usize>,
    ) -> Vec<(usize, Answer)> {
        let reader = self.session.reader();
        let mut in_flight = JoinSet::new();
        let mut closed = Vec::new();
        loop {
            while closed.is_empty()
                && in_flight.len() < concurrency
                && *next < probes.len()
                && self.may_send()
            {
                let trouble = self
                    .trouble
                    .entry(probes[*next].template.clone())
                    .or_default();
                if trouble.why_given_up().is_some() {
                    trouble.skipped += 1;
                    *next += 1;
                    continue;
                }
                let (reader, uri, i) = (reader.clone(), probes[*next].uri.clone(), *next);
                in_flight.spawn(async move { (i, reader.read(&uri).await) });
                self.requests += 1;
                *next += 1;
            }
            let Some(joined) = in_flight.join_next().await else {
                return closed;
            };
            let Ok((i, answer)) = joined else { continue };
            self.progress.step();
            self.bytes += answer.bytes;
            match answer.outcome {
                Outcome::Closed => closed.push((i, answer)),
                Outcome::Timeout => {
                    let trouble = self.trouble.entry(probes[i].template.clone()).or_default();
                    trouble.timeouts += 1;
                    timed_out.push(i);
                }
                _ => answers[i] = Some(answer),
            }
        }
    }

    /// Sends a case alone; a closed transport is a crash, a timeout a hang.
    async fn replay(&mut self, probe: &Probe) -> Option<Answer> {
        if !self.may_send() {
            return None;
        }
        let answer = self.alone(probe).await;
        self.judge_alone(probe, &answer).await.then_some(answer)
    }

    /// Records a crash or a hang for an answer to a case sent alone, and starts the server
    /// again; whether the answer is a real one.
    async fn judge_alone(&mut self, probe: &Probe, answer: &Answer) -> bool {
        match answer.outcome {
            // A server the probe did not start, which still answers: the transport refused this
            // one request (an HTTP status for a URI past a limit, say), which is no crash.
            Outcome::Closed if !self.session.can_restart() && self.recover().await => true,
            Outcome::Closed => {
                let why = match self.session.exit_reason().await {
                    Some(why) => why,
                    None => "the server stopped answering".into(),
                };
                self.findings.push(judge::crash(probe, &why));
                self.trouble
                    .entry(probe.template.clone())
                    .or_default()
                    .crashes += 1;
                if self.session.can_restart() {
                    self.recover().await;
                }
                false
            }
            Outcome::Timeout => {
                self.findings.push(judge::hang(probe, self.limits.timeout));
                // It may still be busy with it.
                self.recover().await;
                false
            }
            _ => true,
        }
    }

    /// One request, alone.
    async fn alone(&mut self, probe: &Probe) -> Answer {
        self.requests += 1;
        let answer = self.session.reader().read(&probe.uri).await;
        self.bytes += answer.bytes;
        self.progress.step();
        answer
    }

    /// Climbs each ladder one step at a time, and stops it at the first slow answer, crash or
    /// hang.
    async fn climb(
        &mut self,
        steps: &[Probe],
        median: Duration,
        canaries: &Canaries,
        not_found: i32,
    ) {
        let mut stopped = None;
        let mut before: Option<Duration> = None;
        for probe in steps {
            let Purpose::Ladder { ladder, step } = probe.purpose else {
                continue;
            };
            if step == 0 {
                before = None;
            }
            if stopped == Some(ladder) || !self.may_send() {
                continue;
            }
            let answer = self.alone(probe).await;
            if !self.judge_alone(probe, &answer).await {
                stopped = Some(ladder);
                continue;
            }
            if let Some(f) = judge::answer(canaries, not_found, probe, &answer) {
                self.findings.push(f);
            }
            if let Some(f) = judge::slow(probe, answer.elapsed, median, before) {
                self.findings.push(f);
                stopped = Some(ladder);
            }
            before = Some(answer.elapsed);
        }
    }

    /// After a crash or a hang: a fresh server where the probe started one; elsewhere, whether
    /// the server still answers. False when it is gone for good.
    async fn recover(&mut self) -> bool {
        if self.session.can_restart() {
            if self.restarts >= MAX_RESTARTS {
                self.unsent.push(format!(
                    "the server was restarted {MAX_RESTARTS} times; the rest was not sent"
                ));
                self.gone = true;
                return false;
            }
            self.restarts += 1;
            if let Err(why) = self.session.restart().await {
                self.unsent
                    .push(format!("the server would not start again: {why}"));
                self.gone = true;
                return false;
            }
            return true;
        }
        let alive = tokio::time::timeout(self.limits.timeout, self.session.list_templates(None))
            .await
            .is_ok_and(|page| page.is_ok());
        if !alive {
            self.unsent.push("the server stopped answering".into());
            self.gone = true;
        }
        alive
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe(template: &str, name: &str, purpose: Purpose) -> Probe {
        Probe {
            template: template.into(),
            uri: format!("{template}/{name}"),
            name: name.into(),
            purpose,
        }
    }

    #[test]
    fn interleaving_keeps_each_equivalence_on_its_case() {
        let a = vec![
            probe("a", "0", Purpose::Benign),
            probe("a", "1", Purpose::Benign),
            probe("a", "2", Purpose::Equivalent { of: 1 }),
        ];
        let b = vec![
            probe("b", "0", Purpose::Benign),
            probe("b", "1", Purpose::Equivalent { of: 0 }),
        ];
        let all = interleave(vec![a, b]);
        let names: Vec<String> = all
            .iter()
            .map(|p| format!("{}{}", p.template, p.name))
            .collect();
        assert_eq!(names, ["a0", "b0", "a1", "b1", "a2"]);
        assert_eq!(all[3].purpose, Purpose::Equivalent { of: 1 });
        assert_eq!(all[4].purpose, Purpose::Equivalent { of: 2 });
    }

    #[test]
    fn artifacts_are_uri_references() {
        assert_eq!(
            uri_reference("tools/my server.py").as_deref(),
            Some("tools/my%20server.py")
        );
        assert_eq!(
            uri_reference("/srv/mcp/server.py").as_deref(),
            Some("/srv/mcp/server.py")
        );
    }

    #[test]
    fn reproduction_lines_keep_secrets_out() {
        let http = Target::Http {
            url: "http://127.0.0.1:8000/mcp".into(),
            headers: vec![("Authorization".into(), "Bearer s3cret".into())],
        };
        assert_eq!(
            reproduce(&http, "auto"),
            " --header 'Authorization: …' http://127.0.0.1:8000/mcp"
        );
        let stdio = Target::Stdio {
            command: vec!["python".into(), "my server.py".into()],
            work: "/tmp".into(),
        };
        assert_eq!(
            reproduce(&stdio, "2025-11-25"),
            " --revision 2025-11-25 -- python 'my server.py'"
        );
    }
}
