//! `rfc6570`: expand, match, route and check RFC 6570 URI templates from the command line.
//!
//! Built with the `cli` feature: `cargo install rfc6570 --features cli`, or
//! `cargo run --features cli -- --help`.

use std::io::Read;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use rfc6570::matching::{Malformed, MatchOptions, Unsupported};
use rfc6570::router::RouterOptions;
use rfc6570::{Captures, MatchError, RouteError, Router, UriTemplate};
use serde::Serialize;
use serde_json::{Map, Value};

const EXAMPLES: &str = "\
Examples:
  $ rfc6570 expand 'log://build/{job_id}{?lines}' job_id=42 lines=10-20
  log://build/42?lines=10-20

  $ rfc6570 match 'search://docs{?q,lang}' 'search://docs?q=uri%20templates&lang=en'
  {\"q\":\"uri templates\",\"lang\":\"en\"}

  $ printf 'notes://{id}\\nfile:///{+path}\\n' | rfc6570 route --templates - notes://7 'file:///..%2Fetc%2Fpasswd'
  {\"uri\":\"notes://7\",\"template\":\"notes://{id}\",\"captures\":{\"id\":\"7\"}}
  {\"uri\":\"file:///..%2Fetc%2Fpasswd\",\"error\":\"unsafe\",\"message\":\"variable `path` of `file:///{+path}` holds a `..` path segment\",\"template\":\"file:///{+path}\",\"variable\":\"path\",\"rule\":\"dot_dot_segment\"}
  (exit status 1)

  $ rfc6570 check 'log://build/{job_id}' 'log://{job id}'
  ok: log://build/{job_id}
  error: unexpected character ' ' in expression at byte 10
    log://{job id}
              ^
  (exit status 1)

Exit status: 0 on success; 1 when a URI does not match or is refused (path safety included), or
a template is invalid or cannot be matched (check), or has a lint (check --deny-lints); 2 for
bad input (an invalid template to use, an unreadable file, bad JSON).";

const EXPAND_EXAMPLES: &str = "\
Examples:
  $ rfc6570 expand 'file:///{+path}' 'path=docs/intro to templates.md'
  file:///docs/intro%20to%20templates.md

  $ echo '{\"path\": [\"docs\", \"a b.md\"], \"tags\": {\"lang\": \"en\"}}' | rfc6570 expand '{/path*}{?tags*}' --json -
  /docs/a%20b.md?lang=en

  $ echo '{\"job_id\": 41}' | rfc6570 expand 'log://build/{job_id}{?lines}' --json - job_id=42
  log://build/42";

const MATCH_EXAMPLES: &str = "\
Every operator's values are decoded once. Values also hold the sub-delimiters ! $ & ' ( ) * +
, ; = : @ raw, as clients send them, where their expression does not use them as separators
(--strict-encoding: only what an expansion writes). A character a URI may not hold (a space,
\", {, ...) is an error at its byte, with a caret under it.

Path safety: the values are judged as `route` judges them. A value that holds a `..` segment,
an absolute or UNC path, a separator smuggled into a segment, double encoding, a NUL or a
look-alike of one of these is refused with its rule on stderr (exit status 1), never printed
as a match.

Examples:
  $ rfc6570 match 'file:///{+path}{?rev}' 'file:///docs/caf%C3%A9.md?rev=3'
  {\"path\":\"docs/café.md\",\"rev\":\"3\"}

  $ rfc6570 match 'file:///{+path}' 'file:///docs/a%2Bb.txt'
  {\"path\":\"docs/a+b.txt\"}

  $ rfc6570 match 'docs://{name}' 'docs://report(1).pdf'
  {\"name\":\"report(1).pdf\"}

  $ rfc6570 match '{/path*}' /a/b%20c
  {\"path\":[\"a\",\"b c\"]}

  $ rfc6570 match 'file:///{+path}' 'file:///..%2F..%2Fetc%2Fpasswd'
  (exit status 1)";

const ROUTE_EXAMPLES: &str = "\
Each URI gets one line of JSON: the template and captures, or `error` (not_found, unsafe,
malformed, duplicate_parameter, unexpected_parameter, duplicate_key, disagreement,
unsupported) with the details. URIs are read as `match` reads them; a reading that an
expansion writes wins over one with raw sub-delimiters in values.

Path safety: a URI whose value breaks a rule (a `..` segment, an absolute or UNC path, a
separator smuggled into a segment, double encoding, a NUL, a look-alike) is never printed as a
match: its line has \"error\": \"unsafe\", the variable and the `rule` (`match` says the
same in words).

Examples:
  $ printf '# MCP resources\\nlog://build/{job_id}{?lines}\\nfile:///{+path}\\n' > templates.txt
  $ rfc6570 route --templates templates.txt 'log://build/42?lines=1-5' nope://x 'file:///%ZZ'
  {\"uri\":\"log://build/42?lines=1-5\",\"template\":\"log://build/{job_id}{?lines}\",\"captures\":{\"job_id\":\"42\",\"lines\":\"1-5\"}}
  {\"uri\":\"nope://x\",\"error\":\"not_found\",\"message\":\"no template matches the URI\"}
  {\"uri\":\"file:///%ZZ\",\"error\":\"malformed\",\"message\":\"malformed URI at byte 8: `%` not followed by two hex digits\",\"position\":8,\"reason\":\"invalid_percent_encoding\",\"found\":\"%ZZ\"}
  (exit status 1)

  $ rfc6570 route --templates templates.txt 'file:///my notes.md'
  {\"uri\":\"file:///my notes.md\",\"error\":\"malformed\",\"message\":\"malformed URI at byte 10: a space (0x20) cannot stand in a URI; percent-encode it as %20\",\"position\":10,\"reason\":\"disallowed_character\",\"found\":\" \"}
  (exit status 1)";

const CHECK_EXAMPLES: &str = "\
Each template gets `ok:` or `error:` lines, each error with a caret under its byte. A valid
template may still match ambiguously, or not at all. A lint that warns of an ambiguous
reading (adjacent_variables, several_crossing, prefix_next_to_variable, repeated_name) is a
`warning:` line after `ok:`; one that makes matching refuse the template (query_after_query,
query_after_fragment and the others of the semantics' section 9) is an `error:` line, and the
check fails: the template can be expanded, not matched (\"matchable\": false in --json, and
\"refuses\" on the lint). --deny-lints makes a warning a failure too.

Examples:
  $ rfc6570 check '{var:0}'
  error: prefix must be a number from 1 to 9999 at byte 5
    {var:0}
         ^
  (exit status 1)

  $ rfc6570 check 'search://docs{?q}{?lang}'
  error: `{?lang}` at byte 17 follows another query expression and writes a second `?` inside the query, so the template cannot be matched; write it as `{&..}`
    search://docs{?q}{?lang}
                     ^
  (exit status 1)

  $ rfc6570 check 'file:///{+path}{ext}' --deny-lints
  ok: file:///{+path}{ext}
  warning: `ext` at byte 16 follows `path` with no literal between them, so where one ends is ambiguous; put a literal between them
    file:///{+path}{ext}
                    ^
  (exit status 1)

  $ rfc6570 check --json 'notes://{id}' 'x://{a}/{a}' 'a{b'
  {\"template\":\"notes://{id}\",\"valid\":true,\"matchable\":true,\"lints\":[]}
  {\"template\":\"x://{a}/{a}\",\"valid\":true,\"matchable\":true,\"lints\":[{\"code\":\"repeated_name\",\"refuses\":false,\"position\":9,\"message\":\"`a` at byte 9 repeats the name of `a` at byte 5: a URI matches only where the two agree\"}]}
  {\"template\":\"a{b\",\"valid\":false,\"kind\":\"unclosed_expression\",\"position\":1,\"message\":\"expression is not closed with `}`\"}
  (exit status 1)";

/// Expand, match, route and check RFC 6570 URI templates.
#[derive(Parser)]
#[command(name = "rfc6570", version, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Expand a template; print the URI.
    #[command(after_help = EXPAND_EXAMPLES)]
    Expand {
        /// The template.
        template: String,
        /// A string variable; given after --json, it overrides the file's.
        #[arg(value_name = "NAME=VALUE")]
        vars: Vec<String>,
        /// A JSON object of variables (strings, numbers, lists, objects); `-` reads stdin.
        #[arg(long, value_name = "FILE|-")]
        json: Option<String>,
    },
    /// Match a URI against a template; print the captured variables as JSON.
    #[command(after_help = MATCH_EXAMPLES)]
    Match {
        /// The template.
        template: String,
        /// The URI.
        uri: String,
        /// Accept in values only what an expansion writes, no raw sub-delimiters.
        #[arg(long)]
        strict_encoding: bool,
    },
    /// Route URIs among templates, with path safety; print one JSON object per URI.
    #[command(after_help = ROUTE_EXAMPLES)]
    Route {
        /// One template per line; blank lines and lines starting with `#` are skipped; `-`
        /// reads stdin.
        #[arg(long, short, value_name = "FILE|-")]
        templates: String,
        /// The URIs.
        #[arg(required = true)]
        uris: Vec<String>,
        /// Accept in values only what an expansion writes, no raw sub-delimiters.
        #[arg(long)]
        strict_encoding: bool,
    },
    /// Check templates; print `ok` or the error with a caret under it, a warning for each lint
    /// of a valid template, and an error for each reason matching refuses it.
    #[command(after_help = CHECK_EXAMPLES)]
    Check {
        /// The templates.
        #[arg(required = true)]
        templates: Vec<String>,
        /// Print one JSON object per template instead, with its lints.
        #[arg(long)]
        json: bool,
        /// Count a template with a lint as a failure (exit status 1).
        #[arg(long)]
        deny_lints: bool,
    },
}

/// How a command failed.
enum Failure {
    /// The answer is no (no match, a refusal, an invalid template to check, or a linted one
    /// with `--deny-lints`): exit status 1.
    Negative,
    /// Bad input, with the message for stderr: exit status 2.
    Input(String),
}

type Outcome = Result<(), Failure>;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Expand {
            template,
            vars,
            json,
        } => expand(&template, &vars, json.as_deref()),
        Command::Match {
            template,
            uri,
            strict_encoding,
        } => match_uri(&template, &uri, strict_encoding),
        Command::Route {
            templates,
            uris,
            strict_encoding,
        } => route(&templates, &uris, strict_encoding),
        Command::Check {
            templates,
            json,
            deny_lints,
        } => check(&templates, json, deny_lints),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Negative) => ExitCode::from(1),
        Err(Failure::Input(message)) => {
            eprintln!("rfc6570: {message}");
            ExitCode::from(2)
        }
    }
}

/// Reads a file, or stdin for `-`.
fn read_input(path: &str) -> Result<String, Failure> {
    let mut text = String::new();
    let read = if path == "-" {
        std::io::stdin().read_to_string(&mut text).map(|_| ())
    } else {
        std::fs::read_to_string(path).map(|t| text = t)
    };
    read.map_err(|e| Failure::Input(format!("cannot read {path}: {e}")))?;
    Ok(text)
}

fn parse(template: &str) -> Result<UriTemplate, Failure> {
    UriTemplate::parse(template).map_err(|e| Failure::Input(format!("invalid template: {e:#}")))
}

fn print_json<T: Serialize>(value: &T) {
    // Serialized straight to text, so that keys keep their order (template order for captures).
    println!(
        "{}",
        serde_json::to_string(value).expect("JSON of strings and numbers")
    );
}

fn expand(template: &str, pairs: &[String], json: Option<&str>) -> Outcome {
    let template = parse(template)?;
    let mut vars = match json {
        None => Map::new(),
        Some(path) => {
            let text = read_input(path)?;
            match serde_json::from_str(&text) {
                Ok(Value::Object(map)) => map,
                Ok(_) => {
                    return Err(Failure::Input(format!(
                        "{path}: the variables must be a JSON object"
                    )));
                }
                Err(e) => return Err(Failure::Input(format!("{path}: invalid JSON: {e}"))),
            }
        }
    };
    for pair in pairs {
        match pair.split_once('=') {
            Some((name, value)) if !name.is_empty() => {
                vars.insert(name.to_owned(), Value::String(value.to_owned()));
            }
            _ => {
                return Err(Failure::Input(format!(
                    "`{pair}`: variables are given as NAME=VALUE"
                )));
            }
        }
    }
    let uri = template
        .expand(&Value::Object(vars))
        .map_err(|e| Failure::Input(format!("cannot expand: {e:#}")))?;
    println!("{uri}");
    Ok(())
}

fn match_uri(template: &str, uri: &str, strict_encoding: bool) -> Outcome {
    let parsed = parse(template)?;
    let options = MatchOptions::new().strict_encoding(strict_encoding);
    // The match says why a URI does not match, as a template alone sees it.
    if let Err(e) = parsed.match_uri_with(uri, &options) {
        let at = match &e {
            MatchError::Malformed { position, .. } => Some(*position),
            _ => None,
        };
        eprintln!("rfc6570: {}{}", with_sources(&e), quoted_at(uri, at));
        return Err(Failure::Negative);
    }
    // Path safety, judged as `route` judges it: by a router that holds this one template and
    // reads the URI as the match above did (empty path variables allowed), so that the values
    // it judges are the ones printed.
    let options = RouterOptions::new()
        .strict_encoding(strict_encoding)
        .allow_empty_path_vars(true);
    let mut router = Router::with_options(options);
    router
        .insert(template, ())
        .map_err(|e| Failure::Input(format!("invalid template: {}", with_sources(&e))))?;
    match router.at(uri) {
        Ok(routed) => {
            print_json(&routed.captures);
            Ok(())
        }
        Err(refusal @ RouteError::Unsafe { .. }) => {
            eprintln!(
                "rfc6570: refused by path safety: {}",
                with_sources(&refusal)
            );
            Err(Failure::Negative)
        }
        Err(other) => {
            eprintln!("rfc6570: {}", with_sources(&other));
            Err(Failure::Negative)
        }
    }
}

/// One line of `route`'s output.
#[derive(Serialize)]
#[serde(untagged)]
enum RouteLine<'a> {
    Routed {
        uri: &'a str,
        template: &'a str,
        captures: &'a Captures<'a>,
    },
    Refused(Refused<'a>),
}

/// Why `route` refused a URI, with the details of the refusal's kind.
#[derive(Serialize, Default)]
struct Refused<'a> {
    uri: &'a str,
    error: &'static str,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    template: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    variable: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
    /// The malformed bytes: the `%` and what follows it, or the triplet that is not UTF-8.
    #[serde(skip_serializing_if = "Option::is_none")]
    found: Option<&'a str>,
}

fn route(templates: &str, uris: &[String], strict_encoding: bool) -> Outcome {
    let text = read_input(templates)?;
    let mut router = Router::with_options(RouterOptions::new().strict_encoding(strict_encoding));
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        router.insert(line, ()).map_err(|e| {
            let e = match e {
                rfc6570::InsertError::Parse(e) => format!("{e:#}"),
                e => with_sources(&e),
            };
            Failure::Input(format!("{templates}:{}: {e}", i + 1))
        })?;
    }
    let mut all_routed = true;
    for uri in uris {
        match router.at(uri) {
            Ok(routed) => print_json(&RouteLine::Routed {
                uri,
                template: routed.template.as_str(),
                captures: &routed.captures,
            }),
            Err(error) => {
                all_routed = false;
                print_json(&RouteLine::Refused(refusal(uri, &error)));
            }
        }
    }
    if all_routed {
        Ok(())
    } else {
        Err(Failure::Negative)
    }
}

fn refusal<'a>(uri: &'a str, error: &'a RouteError) -> Refused<'a> {
    let mut refused = Refused {
        uri,
        message: with_sources(error),
        ..Refused::default()
    };
    refused.error = error.code();
    match error {
        RouteError::Unsafe {
            template,
            variable,
            rule,
        } => {
            refused.template = Some(template);
            refused.variable = Some(variable);
            refused.rule = Some(rule.code());
        }
        RouteError::Malformed { position, reason } => {
            refused.position = Some(*position);
            refused.reason = Some(reason.code());
            refused.found = match reason {
                Malformed::TooLong { .. } => None,
                Malformed::Disallowed { .. } => uri.get(*position..*position + 1),
                _ => malformed_bytes(uri, *position),
            };
        }
        RouteError::Refused { template, source } => {
            refused.template = Some(template);
            match source {
                MatchError::Query(query) => refused.name = Some(query.name()),
                MatchError::DuplicateKey { variable, key } => {
                    refused.variable = Some(variable);
                    refused.name = Some(key);
                }
                MatchError::Disagreement { variable } => refused.variable = Some(variable),
                _ => {}
            }
        }
        _ => {}
    }
    refused
}

/// Up to three bytes of `uri` from `position` (a triplet, or a `%` and what follows it).
fn malformed_bytes(uri: &str, position: usize) -> Option<&str> {
    let rest = uri.get(position..)?;
    let end = rest
        .char_indices()
        .map(|(i, c)| i + c.len_utf8())
        .take_while(|&end| end <= 3)
        .last()
        .unwrap_or(0);
    Some(&rest[..end])
}

/// One line of `check --json`'s output.
#[derive(Serialize)]
struct CheckLine<'a> {
    template: &'a str,
    valid: bool,
    /// Whether a valid template can be matched: none of its lints refuses it (absent for an
    /// invalid one).
    #[serde(skip_serializing_if = "Option::is_none")]
    matchable: Option<bool>,
    /// Why matching refuses a valid template (absent where it does not).
    #[serde(skip_serializing_if = "Option::is_none")]
    refusal: Option<RefusalLine>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    /// A valid template's lints, in template order (absent for an invalid one).
    #[serde(skip_serializing_if = "Option::is_none")]
    lints: Option<Vec<LintLine>>,
}

/// Why matching refuses a valid template, in `check --json`'s output.
#[derive(Serialize)]
struct RefusalLine {
    code: &'static str,
    message: String,
}

/// Why matching refuses `template`, if it does: what a router says when it is inserted.
fn refusal_of(template: &UriTemplate) -> Option<Unsupported> {
    match Router::new().insert(template.clone(), ()) {
        Err(rfc6570::InsertError::Unsupported { reason, .. }) => Some(reason),
        _ => None,
    }
}

/// One lint in `check --json`'s output.
#[derive(Serialize)]
struct LintLine {
    code: &'static str,
    /// Whether matching refuses the template (the lint's kind), rather than warn of it.
    refuses: bool,
    position: usize,
    message: String,
}

fn check(templates: &[String], json: bool, deny_lints: bool) -> Outcome {
    let mut all_pass = true;
    for template in templates {
        let parsed = UriTemplate::parse(template);
        let lints = parsed.as_ref().map(UriTemplate::lints).unwrap_or_default();
        let refusal = parsed.as_ref().ok().and_then(refusal_of);
        let matchable = refusal.is_none();
        all_pass &= parsed.is_ok() && matchable && (lints.is_empty() || !deny_lints);
        let error = parsed.err();
        if json {
            print_json(&CheckLine {
                template,
                valid: error.is_none(),
                matchable: error.is_none().then_some(matchable),
                refusal: refusal.map(|r| RefusalLine {
                    code: r.code(),
                    message: r.to_string(),
                }),
                kind: error.as_ref().map(|e| e.kind().code()),
                position: error.as_ref().and_then(|e| e.position()),
                message: error.as_ref().map(|e| e.kind().to_string()),
                lints: error.is_none().then(|| {
                    lints
                        .iter()
                        .map(|l| LintLine {
                            code: l.code(),
                            refuses: l.kind().refuses(),
                            position: l.position(),
                            message: l.to_string(),
                        })
                        .collect()
                }),
            });
            continue;
        }
        if let Some(e) = error {
            println!("error: {e:#}");
            continue;
        }
        // A template that matching refuses has failed its check (it serves expansion only):
        // its refusing lints are its errors, each quoting it, and a refusal of no lint (too
        // many variables) is one more.
        match refusal {
            None => println!("ok: {template}"),
            Some(Unsupported::Shape { .. }) => {}
            Some(reason) => println!("error: `{template}` cannot be matched: {reason}"),
        }
        for lint in &lints {
            let level = if lint.kind().refuses() {
                "error"
            } else {
                "warning"
            };
            println!(
                "{level}: {lint}{}",
                quoted_at(template, Some(lint.position()))
            );
        }
    }
    if all_pass {
        Ok(())
    } else {
        Err(Failure::Negative)
    }
}

/// `text` on a line of its own under a message, with a caret under the character at byte
/// `position` on the next; nothing without a position. A text of over 100 characters is
/// quoted in part, the 40 characters on each side of the caret, with `…` where text is left
/// out, as the library quotes a template.
fn quoted_at(text: &str, position: Option<usize>) -> String {
    const WHOLE: usize = 100;
    const SIDE: usize = 40;
    let Some(mut position) = position else {
        return String::new();
    };
    // A position may fall inside a character (a length limit counts bytes): the caret goes
    // under the character it falls in. Columns count characters, not bytes.
    position = position.min(text.len());
    while !text.is_char_boundary(position) {
        position -= 1;
    }
    let at = text[..position].chars().count();
    let total = text.chars().count();
    let (first, last) = if total <= WHOLE {
        (0, total)
    } else {
        (at.saturating_sub(SIDE), (at + SIDE).min(total))
    };
    let mut line = String::from(if first > 0 { "\u{2026}" } else { "" });
    line.extend(text.chars().skip(first).take(last - first));
    if last < total {
        line.push('\u{2026}');
    }
    let column = at - first + usize::from(first > 0);
    format!("\n  {line}\n  {:column$}^", "")
}

/// An error's message followed by those of its sources, as one line: the library puts a
/// refusal's reason in `source()`, not in the message that wraps it.
fn with_sources(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        text.push_str(": ");
        text.push_str(&e.to_string());
        source = e.source();
    }
    text
}
