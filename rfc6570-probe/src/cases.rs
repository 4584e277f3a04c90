//! The cases sent for each template, built from `rfc6570::testing`: benign values of every
//! kind, the same values spelled the ways RFC 3986 calls equivalent, every hostile spelling
//! (expanded correctly for its operator, and raw), paths aimed at the canaries and at system
//! files, values near and past common URI limits, and ladders of the shapes that make a
//! backtracking matcher slow.

use std::path::Path;

use rfc6570::UriTemplate;
use rfc6570::testing::{Case, Hostile, Value, Values, hostile_variants, spelled_variants};

/// What a case is for: the oracle that judges its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// A benign value: a read, or not-found; never an internal error.
    Benign,
    /// The same resource as case `of`, spelled as RFC 3986 calls equivalent: it reads the same.
    Equivalent { of: usize },
    /// A hostile spelling of a traversal or of a benign look-alike: whatever a server makes of
    /// it, its answer must hold nothing from outside what it serves.
    Hostile,
    /// A path aimed at a file outside what the server serves.
    Aimed,
    /// A value near or past a common URI limit: a refusal is no fault.
    Long,
    /// Step `step` of a ladder of growing values, sent alone: a slow answer is a backtracking
    /// matcher's mark. The ladder stops at the first slow step.
    Ladder { ladder: usize, step: usize },
}

/// One request to send.
#[derive(Debug, Clone)]
pub struct Probe {
    /// The listed template it was generated from.
    pub template: String,
    pub uri: String,
    /// Which value, in which spelling.
    pub name: String,
    pub purpose: Purpose,
}

/// The benign values, each a kind of text a client sends: `(name, value)`.
const BENIGN: [(&str, &str); 10] = [
    ("word", "zqwx"),
    ("space", "a b"),
    ("non-ascii", "caf\u{e9}"),
    ("emoji", "\u{1f642}"),
    ("reserved", "a:b@c!d$e&f'g(h)i*j+k,l;m=n"),
    ("gen-delims", "a?b#c[d]e"),
    ("percent", "100%"),
    ("percent-hex", "%41"),
    ("plus", "a+b"),
    ("empty", ""),
];

/// Lengths near and past the limits servers and proxies set on a URI (2 KiB, 8 KiB, 64 KiB).
const LONG: [usize; 3] = [2_100, 8_300, 66_000];

/// The ladders: a shape, and its sizes. Nested quantifiers (`^(\w+)*$`) go exponential on a run
/// of word characters ended by one that fails; a chain of greedy groups (`(.+)/(.+)/(.+)`) goes
/// polynomial on many separators.
const LADDERS: [(&str, &str, &[usize]); 2] = [
    ("word-run", "a", &[12, 16, 18, 20, 22, 24, 26, 28, 30]),
    ("separator-run", "a/", &[256, 1_024, 4_096, 16_384]),
];

/// Every case for `template`, in the order they are sent: benign and equivalent first, then
/// aimed, hostile and long. Ladders come separately ([`ladders`]), to be sent alone.
pub fn for_template(template: &UriTemplate, aims: &[(String, String)]) -> Vec<Probe> {
    let listed = template.as_str();
    let mut probes = Vec::new();
    let names: Vec<&str> = distinct_names(template);
    for (index, name) in names.iter().enumerate() {
        for (kind, value) in BENIGN {
            let Some(case) = with_value(template, &names, index, value) else {
                continue;
            };
            let of = probes.len();
            let uri = case.uri().to_owned();
            probes.push(probe(
                listed,
                &uri,
                format!("benign-{kind}/{name}"),
                Purpose::Benign,
            ));
            // Read twice: a server whose answers change by themselves is not compared.
            for (how, equivalent) in equivalents(&uri, template)
                .into_iter()
                .chain([("again", uri.clone())])
            {
                probes.push(probe(
                    listed,
                    &equivalent,
                    format!("benign-{kind}/{name}/{how}"),
                    Purpose::Equivalent { of },
                ));
            }
        }
    }
    for (aim, text) in aims {
        for h in spelled_variants(template, aim, text) {
            probes.push(hostile(listed, &h, Purpose::Aimed));
        }
    }
    for h in hostile_variants(template) {
        probes.push(hostile(listed, &h, Purpose::Hostile));
    }
    for (index, name) in names.iter().enumerate() {
        for length in LONG {
            let value = "a".repeat(length);
            if let Some(case) = with_value(template, &names, index, &value) {
                probes.push(probe(
                    listed,
                    case.uri(),
                    format!("long-{length}/{name}"),
                    Purpose::Long,
                ));
            }
        }
    }
    probes
}

/// The ladders of `templates`: one per template, shape and variable, numbered in turn, each
/// step a case.
pub fn ladders(templates: &[&UriTemplate]) -> Vec<Probe> {
    let mut probes = Vec::new();
    let mut ladder = 0;
    for template in templates {
        ladders_of(template, &mut ladder, &mut probes);
    }
    probes
}

fn ladders_of(template: &UriTemplate, ladder: &mut usize, probes: &mut Vec<Probe>) {
    let listed = template.as_str();
    let names = distinct_names(template);
    for (index, name) in names.iter().enumerate() {
        for (shape, unit, sizes) in LADDERS {
            for (step, &n) in sizes.iter().enumerate() {
                let value = format!("{}!", unit.repeat(n));
                if let Some(case) = with_value(template, &names, index, &value) {
                    probes.push(probe(
                        listed,
                        case.uri(),
                        format!("{shape}-{n}/{name}"),
                        Purpose::Ladder {
                            ladder: *ladder,
                            step,
                        },
                    ));
                }
            }
            *ladder += 1;
        }
    }
}

/// The texts aimed at files outside what the server serves, each named: every canary and
/// system file by its absolute path and by a run of `..` deep enough to reach it from any
/// folder up to twelve levels down, and the sandbox's own relative paths.
pub fn aims(paths: &[&Path], relative: &[(&str, String)]) -> Vec<(String, String)> {
    const DEPTH: usize = 12;
    let mut aims = Vec::new();
    for path in paths {
        let text = path.to_string_lossy();
        let label = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if let Some(windows) = text.strip_prefix("C:\\") {
            aims.push((format!("absolute-{label}"), text.to_string()));
            aims.push((
                format!("climb-{label}"),
                format!("{}{windows}", "..\\".repeat(DEPTH)),
            ));
        } else if let Some(rest) = text.strip_prefix('/') {
            aims.push((format!("absolute-{label}"), text.to_string()));
            aims.push((
                format!("climb-{label}"),
                format!("{}{rest}", "../".repeat(DEPTH)),
            ));
        }
    }
    for (name, text) in relative {
        aims.push(((*name).to_owned(), text.clone()));
    }
    aims.sort();
    aims.dedup();
    aims
}

/// Each variable's name once, in template order (a repeated name is one variable).
fn distinct_names(template: &UriTemplate) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for v in template.variables() {
        if !names.contains(&v.name()) {
            names.push(v.name());
        }
    }
    names
}

/// The case where variable `index` holds `value` and every other a plain word of its own.
fn with_value(template: &UriTemplate, names: &[&str], index: usize, value: &str) -> Option<Case> {
    let values: Values = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let text = if i == index {
                value.to_owned()
            } else {
                format!("jx{i}k")
            };
            ((*name).to_owned(), Value::text(text))
        })
        .collect();
    Case::new(template, values).ok()
}

/// Spellings of `uri` that RFC 3986 calls equivalent: hex digits in lower case (section 2.1),
/// an unreserved letter as its triplet (2.3), the scheme in capitals (3.1), and the query's
/// pairs in another order where the template reads them by name.
fn equivalents(uri: &str, template: &UriTemplate) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let lower_hex = lower_triplets(uri);
    if lower_hex != uri {
        out.push(("hex-lower", lower_hex));
    }
    if let Some(at) = uri.find("zqwx") {
        out.push((
            "unreserved-triplet",
            format!("{}%7Aqwx{}", &uri[..at], &uri[at + 4..]),
        ));
    }
    if let Some(colon) = uri.find(':') {
        let scheme = &uri[..colon];
        if scheme.bytes().any(|b| b.is_ascii_lowercase()) {
            out.push((
                "scheme-upper",
                format!("{}{}", scheme.to_ascii_uppercase(), &uri[colon..]),
            ));
        }
    }
    if let Some(reordered) = reorder_query(uri, template) {
        out.push(("query-reordered", reordered));
    }
    out
}

fn lower_triplets(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let mut out = String::with_capacity(uri.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |at: usize| bytes.get(at).is_some_and(u8::is_ascii_hexdigit);
        if bytes[i] == b'%' && hex(i + 1) && hex(i + 2) {
            out.push('%');
            out.push(char::from(bytes[i + 1].to_ascii_lowercase()));
            out.push(char::from(bytes[i + 2].to_ascii_lowercase()));
            i += 3;
        } else {
            let c = uri[i..].chars().next().unwrap_or_default();
            out.push(c);
            i += c.len_utf8().max(1);
        }
    }
    out
}

/// The query's pairs in reverse order, when the template reads a query of two or more names
/// with `{?...}` (which pairs name their variables, so order carries nothing).
fn reorder_query(uri: &str, template: &UriTemplate) -> Option<String> {
    let by_name = template
        .expressions()
        .any(|e| e.operator() == rfc6570::template::Operator::Query);
    let (head, query) = uri.split_once('?')?;
    let (query, fragment) = match query.split_once('#') {
        Some((q, f)) => (q, Some(f)),
        None => (query, None),
    };
    let pairs: Vec<&str> = query.split('&').collect();
    if !by_name || pairs.len() < 2 {
        return None;
    }
    let reversed: Vec<&str> = pairs.into_iter().rev().collect();
    let mut out = format!("{head}?{}", reversed.join("&"));
    if let Some(f) = fragment {
        out.push('#');
        out.push_str(f);
    }
    Some(out)
}

fn probe(template: &str, uri: &str, name: String, purpose: Purpose) -> Probe {
    Probe {
        template: template.to_owned(),
        uri: uri.to_owned(),
        name,
        purpose,
    }
}

fn hostile(template: &str, h: &Hostile, purpose: Purpose) -> Probe {
    probe(
        template,
        h.case().uri(),
        format!("{}/{}", h.spelling(), h.variable()),
        purpose,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uris(probes: &[Probe]) -> Vec<&str> {
        probes.iter().map(|p| p.uri.as_str()).collect()
    }

    #[test]
    fn benign_values_come_with_their_equivalents() {
        let t = UriTemplate::parse("search://docs{?q,lang}").unwrap();
        let probes = for_template(&t, &[]);
        let all = uris(&probes);
        assert!(all.contains(&"search://docs?q=caf%C3%A9&lang=jx1k"));
        assert!(all.contains(&"search://docs?q=caf%c3%a9&lang=jx1k"));
        assert!(all.contains(&"search://docs?lang=jx1k&q=caf%C3%A9"));
        assert!(all.contains(&"SEARCH://docs?q=zqwx&lang=jx1k"));
        assert!(all.contains(&"search://docs?q=%7Aqwx&lang=jx1k"));
        let first = probes
            .iter()
            .position(|p| p.uri == "search://docs?q=caf%C3%A9&lang=jx1k")
            .unwrap();
        let twin = probes
            .iter()
            .find(|p| p.uri == "search://docs?q=caf%c3%a9&lang=jx1k")
            .unwrap();
        assert_eq!(twin.purpose, Purpose::Equivalent { of: first });
    }

    #[test]
    fn aims_reach_every_file_from_deep_down_in_every_spelling() {
        let aims = aims(
            &[Path::new("/etc/passwd")],
            &[("canary-up", "../canary.txt".into())],
        );
        assert!(aims.contains(&(
            "climb-passwd".into(),
            format!("{}etc/passwd", "../".repeat(12))
        )));
        let t = UriTemplate::parse("notes://{id}").unwrap();
        let probes = for_template(&t, &aims);
        let all = uris(&probes);
        assert!(
            all.contains(&"notes://%2Fetc%2Fpasswd"),
            "expanded for {{id}}"
        );
        assert!(
            all.contains(&"notes:///etc/passwd"),
            "raw, as naive clients send it"
        );
        assert!(all.contains(&"notes://..%2Fcanary.txt"));
        assert!(
            all.contains(
                &"notes://%252E%252E%252F%2563%2561%256E%2561%2572%2579%252E%2574%2578%2574"
            ),
            "double encoded"
        );
        assert!(
            all.contains(&"notes://%C0%AE%C0%AE%C0%AFcanary%C0%AEtxt"),
            "overlong"
        );
    }

    #[test]
    fn ladders_grow_one_variable_at_a_time() {
        let t = UriTemplate::parse("log://build/{job_id}{?lines}").unwrap();
        let steps = ladders(&[&t, &t]);
        assert_eq!(steps.len(), 2 * 2 * (9 + 4));
        assert!(matches!(
            steps.last().unwrap().purpose,
            Purpose::Ladder { ladder: 7, step: 3 }
        ));
        let steps = &steps[..steps.len() / 2];
        assert_eq!(steps.len(), 2 * (9 + 4));
        assert_eq!(
            steps[0].uri,
            format!("log://build/{}%21?lines=jx1k", "a".repeat(12))
        );
        assert_eq!(steps[0].purpose, Purpose::Ladder { ladder: 0, step: 0 });
        assert!(matches!(
            steps.last().unwrap().purpose,
            Purpose::Ladder { ladder: 3, step: 3 }
        ));
    }
}
