//! Expansion and parsing of the RFC 6570 spec examples (`uritemplate-test/spec-examples.json`,
//! 64 templates in 4 groups of variables), in this crate and its peers.
//!
//! * `expand/spec_examples`: every template expanded once per iteration, each crate with its own
//!   variable type built beforehand and each template parsed once where the crate can parse
//!   ahead: this crate (`expand_to` into a reused `String`, variables as the suite's JSON),
//!   `iri-string` (written into a reused `String`; it keeps no parsed form, so it re-reads the
//!   template each time), `std-uritemplate` (no parse step: parses on every call),
//!   `uri-template` (parsed once). The floor copies the expected outputs into a reused `String`.
//!   `rfc6570_pairs` is this crate again with the variables as a slice of `(name, JSON value)`
//!   pairs (a `Vars` the crate ships) instead of a JSON object: it shows how much of the time is
//!   the object's hash lookups. The targets are judged on `rfc6570`.
//! * `expand/uritemplate-next`: `uritemplate-next` is about 100 times slower than the others (it
//!   compiles a regex per encoded value) and panics on some inputs (a prefix that cuts a UTF-8
//!   character), so it runs on its own, with fewer samples, on the cases it expands correctly
//!   (all 64 spec examples, checked at start-up), next to this crate on the same cases.
//! * `parse/spec_examples`: parsing (or validating) the 64 templates: `UriTemplate::parse`,
//!   iri-string's `UriTemplateStr::new`, std-uritemplate's `expand` with no variables (its only
//!   way to validate), uri-template's `UriTemplate::new` (from a `&'static str`, so no copy), and
//!   uritemplate-next's `UriTemplate::new` (which validates nothing). The floor is a `memchr`
//!   pass over the templates for `{`.
//!
//! Every crate's output is checked against the suite before anything is timed.

mod common;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::hint::black_box;
use std::panic::{AssertUnwindSafe, catch_unwind};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use iri_string::spec::UriSpec;
use iri_string::template::UriTemplateStr;
use iri_string::template::simple_context::{SimpleContext, Value as IriValue};
use serde_json::Value as Json;

/// The variables of one group as each peer wants them.
fn strings(v: &Json) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect()
}

fn pairs(v: &Json) -> Vec<(String, String)> {
    v.as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_owned()))
        .collect()
}

fn iri_context(vars: &Json) -> SimpleContext {
    let mut ctx = SimpleContext::new();
    for (k, v) in vars.as_object().unwrap() {
        let value = match v {
            Json::String(s) => IriValue::String(s.clone()),
            Json::Array(_) => IriValue::List(strings(v)),
            Json::Object(_) => IriValue::Assoc(pairs(v)),
            _ => unreachable!(),
        };
        ctx.insert(k.as_str(), value);
    }
    ctx
}

fn std_vars(vars: &Json) -> HashMap<String, stduritemplate::Value> {
    use stduritemplate::Value as V;
    vars.as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| {
            let value = match v {
                Json::String(s) => V::String(s.clone()),
                Json::Array(_) => V::List(strings(v).into_iter().map(V::String).collect()),
                Json::Object(_) => V::Map(
                    pairs(v)
                        .into_iter()
                        .map(|(k, v)| (k, V::String(v)))
                        .collect(),
                ),
                _ => unreachable!(),
            };
            (k.clone(), value)
        })
        .collect()
}

fn uri_template_vars(vars: &Json) -> uri_template::HashValues<'static, 'static, String> {
    use std::borrow::Cow;
    let mut values = uri_template::HashValues::new();
    for (k, v) in vars.as_object().unwrap() {
        let value = match v {
            Json::String(s) => uri_template::Value::from(s.clone()),
            Json::Array(_) => uri_template::Value::from(strings(v)),
            Json::Object(_) => uri_template::Value::Keys(Cow::Owned(
                pairs(v)
                    .into_iter()
                    .map(|(k, v)| (k.into(), v.into()))
                    .collect(),
            )),
            _ => unreachable!(),
        };
        values.insert(k.clone(), value);
    }
    values
}

fn uritemplate_next(template: &str, vars: &Json) -> uritemplate::UriTemplate {
    use uritemplate::TemplateVar;
    let mut t = uritemplate::UriTemplate::new(template);
    for (k, v) in vars.as_object().unwrap() {
        let value = match v {
            Json::String(s) => TemplateVar::Scalar(s.clone()),
            Json::Array(_) => TemplateVar::List(strings(v)),
            Json::Object(_) => TemplateVar::AssociativeArray(pairs(v)),
            _ => unreachable!(),
        };
        t.set(k, value);
    }
    t
}

fn bench(c: &mut Criterion) {
    let (groups, cases) = common::spec_examples();

    // Prepared state: templates parsed once, variables converted once.
    let ours: Vec<(rfc6570::UriTemplate, &Json)> = cases
        .iter()
        .map(|c| {
            (
                rfc6570::UriTemplate::parse(c.template).unwrap(),
                &groups[c.group],
            )
        })
        .collect();
    let pair_groups: Vec<Vec<(String, Json)>> = groups
        .iter()
        .map(|g| {
            g.as_object()
                .unwrap()
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .collect();
    let ours_pairs: Vec<(&rfc6570::UriTemplate, &[(String, Json)])> = cases
        .iter()
        .zip(&ours)
        .map(|(c, (t, _))| (t, pair_groups[c.group].as_slice()))
        .collect();
    let iri_ctx: Vec<SimpleContext> = groups.iter().map(iri_context).collect();
    let iri: Vec<(&UriTemplateStr, &SimpleContext)> = cases
        .iter()
        .map(|c| (UriTemplateStr::new(c.template).unwrap(), &iri_ctx[c.group]))
        .collect();
    let std_ctx: Vec<_> = groups.iter().map(std_vars).collect();
    let std: Vec<(&str, &HashMap<String, stduritemplate::Value>)> = cases
        .iter()
        .map(|c| (c.template, &std_ctx[c.group]))
        .collect();
    let ut_ctx: Vec<_> = groups.iter().map(uri_template_vars).collect();
    let ut: Vec<(uri_template::UriTemplate, &uri_template::HashValues<String>)> = cases
        .iter()
        .map(|c| {
            (
                uri_template::UriTemplate::new(c.template).unwrap(),
                &ut_ctx[c.group],
            )
        })
        .collect();

    // Every crate must produce an accepted expansion for every case.
    let mut buf = String::with_capacity(256);
    for (i, case) in cases.iter().enumerate() {
        let ok = |name: &str, out: &str| {
            assert!(
                case.expected.iter().any(|e| e == out),
                "{name}: {} gave {out:?}",
                case.template
            )
        };
        buf.clear();
        ours[i].0.expand_to(ours[i].1, &mut buf).unwrap();
        ok("rfc6570", &buf);
        buf.clear();
        ours_pairs[i]
            .0
            .expand_to(ours_pairs[i].1, &mut buf)
            .unwrap();
        ok("rfc6570_pairs", &buf);
        buf.clear();
        write!(buf, "{}", iri[i].0.expand::<UriSpec, _>(iri[i].1).unwrap()).unwrap();
        ok("iri-string", &buf);
        ok(
            "std-uritemplate",
            &stduritemplate::expand(std[i].0, std[i].1).unwrap(),
        );
        ok("uri-template", &ut[i].0.expand(ut[i].1).unwrap());
    }

    // uritemplate-next: only the cases it gets right without panicking.
    let next: Vec<(usize, uritemplate::UriTemplate)> = cases
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let t = uritemplate_next(c.template, &groups[c.group]);
            let out = catch_unwind(AssertUnwindSafe(|| t.build())).ok()?;
            c.expected.contains(&out).then_some((i, t))
        })
        .collect();
    eprintln!(
        "uritemplate-next expands {} of {} spec examples correctly",
        next.len(),
        cases.len()
    );

    let mut g = c.benchmark_group("expand/spec_examples");
    g.throughput(Throughput::Elements(cases.len() as u64));
    g.bench_function("rfc6570", |b| {
        let mut buf = String::with_capacity(256);
        b.iter(|| {
            for (t, vars) in &ours {
                buf.clear();
                t.expand_to(*vars, &mut buf).unwrap();
                black_box(&buf);
            }
        })
    });
    g.bench_function("rfc6570_pairs", |b| {
        let mut buf = String::with_capacity(256);
        b.iter(|| {
            for (t, vars) in &ours_pairs {
                buf.clear();
                t.expand_to(*vars, &mut buf).unwrap();
                black_box(&buf);
            }
        })
    });
    g.bench_function("iri-string", |b| {
        let mut buf = String::with_capacity(256);
        b.iter(|| {
            for (t, ctx) in &iri {
                buf.clear();
                write!(buf, "{}", t.expand::<UriSpec, _>(*ctx).unwrap()).unwrap();
                black_box(&buf);
            }
        })
    });
    g.bench_function("std-uritemplate", |b| {
        b.iter(|| {
            for (t, vars) in &std {
                black_box(stduritemplate::expand(t, vars).unwrap());
            }
        })
    });
    g.bench_function("uri-template", |b| {
        b.iter(|| {
            for (t, vars) in &ut {
                black_box(t.expand(*vars).unwrap());
            }
        })
    });
    g.bench_function("floor_memcpy", |b| {
        let mut buf = String::with_capacity(256);
        b.iter(|| {
            for case in &cases {
                buf.clear();
                buf.push_str(black_box(&case.expected[0]));
                black_box(&buf);
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("expand/uritemplate-next");
    g.sample_size(10);
    g.throughput(Throughput::Elements(next.len() as u64));
    g.bench_function("rfc6570", |b| {
        let mut buf = String::with_capacity(256);
        b.iter(|| {
            for (i, _) in &next {
                let (t, vars) = &ours[*i];
                buf.clear();
                t.expand_to(*vars, &mut buf).unwrap();
                black_box(&buf);
            }
        })
    });
    g.bench_function("uritemplate-next", |b| {
        b.iter(|| {
            for (_, t) in &next {
                black_box(t.build());
            }
        })
    });
    g.finish();

    let templates: Vec<&'static str> = cases.iter().map(|c| c.template).collect();
    let empty: HashMap<String, stduritemplate::Value> = HashMap::new();
    let mut g = c.benchmark_group("parse/spec_examples");
    g.throughput(Throughput::Elements(templates.len() as u64));
    g.bench_function("rfc6570", |b| {
        b.iter(|| {
            for t in &templates {
                black_box(rfc6570::UriTemplate::parse(black_box(t)).unwrap());
            }
        })
    });
    g.bench_function("iri-string", |b| {
        b.iter(|| {
            for t in &templates {
                black_box(UriTemplateStr::new(black_box(*t)).unwrap());
            }
        })
    });
    g.bench_function("std-uritemplate", |b| {
        b.iter(|| {
            for t in &templates {
                black_box(stduritemplate::expand(black_box(t), &empty).unwrap());
            }
        })
    });
    g.bench_function("uri-template", |b| {
        b.iter(|| {
            for t in &templates {
                black_box(uri_template::UriTemplate::new(black_box(*t)).unwrap());
            }
        })
    });
    g.bench_function("uritemplate-next", |b| {
        b.iter(|| {
            for t in &templates {
                black_box(uritemplate::UriTemplate::new(black_box(t)));
            }
        })
    });
    g.bench_function("floor_memchr", |b| {
        b.iter(|| {
            for t in &templates {
                black_box(memchr::memchr_iter(b'{', black_box(t).as_bytes()).count());
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
