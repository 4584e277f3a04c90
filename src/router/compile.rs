//! Compiling a router: every template merged into one program for the VM and, when the
//! walk can serve them all, one radix trie; rebuilt on the first lookup after a change.

use std::collections::HashMap;

use super::Router;
use crate::matching::program::{Policy, Program};
use crate::matching::trie::{shape, Token};
use crate::matching::walk::Walker;
use crate::matching::{self, Triplets, Unsupported};
use crate::template::Parsed;

/// The merged program, rebuilt on the first lookup after a change.
pub(super) struct Compiled {
    /// Every template merged, with the walk as its fast path when every template's variables
    /// are delimited: values hold raw only what expansion writes.
    pub(super) program: Program,
    /// The same with raw sub-delimiters in values, for the second pass of a lookup that
    /// found nothing; `None` under [`RouterOptions::strict_encoding`](super::RouterOptions).
    pub(super) lenient: Option<Program>,
    /// What a lookup needs of each template key. Keys order statics first, then by template
    /// text, which is the tie-break among equally ranked matches.
    pub(super) keys: Vec<Key>,
    /// Static templates that need no normalization (ASCII, no `%`), by text.
    pub(super) statics: HashMap<Box<str>, usize>,
    /// The longest URI a lookup takes (the option, within what spans can record).
    pub(super) max_uri_len: usize,
}

/// The two passes of a lookup: as an expansion writes a URI, then as clients write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pass {
    Strict,
    Lenient,
}

impl Compiled {
    /// The program of a pass, if the router makes it.
    #[inline]
    pub(super) fn program(&self, pass: Pass) -> Option<&Program> {
        match pass {
            Pass::Strict => Some(&self.program),
            Pass::Lenient => self.lenient.as_ref(),
        }
    }
}

/// A template key's route, and what its matches need beyond the walk.
pub(super) struct Key {
    pub(super) route: usize,
    /// Whether the spans a walk records are the captures as they stand: the template has no
    /// query tail to bind.
    pub(super) spans_are_captures: bool,
}

/// The best template for a URI, with what is already known about its captures.
pub(super) struct Found {
    pub(super) key: usize,
    pub(super) triplets: Triplets,
    /// Whether every capture is known to be plain, so that none can break a safety rule.
    pub(super) plain: bool,
}

impl<T> Router<T> {
    pub(super) fn compiled(&self) -> Result<&Compiled, Unsupported> {
        self.compiled
            .get_or_init(|| self.compile())
            .as_ref()
            .map_err(|&e| e)
    }

    /// The templates merged under `policy`, with the walk where it serves them all.
    fn program(&self, templates: &[&Parsed], policy: Policy) -> Result<Program, Unsupported> {
        let mut program = Program::compile_many(templates, policy)?;
        program.walker = if policy.require_path_vars {
            let shapes: Vec<Vec<Token>> = templates.iter().map(|t| shape(t)).collect();
            Walker::build(&shapes, false, policy.strict_encoding)
        } else {
            None
        };
        Ok(program)
    }

    fn compile(&self) -> Result<Compiled, Unsupported> {
        let mut route_of: Vec<usize> = (0..self.routes.len()).collect();
        route_of.sort_by(|&a, &b| {
            let (a, b) = (&self.routes[a].template, &self.routes[b].template);
            (!a.is_static(), a.as_str()).cmp(&(!b.is_static(), b.as_str()))
        });
        let templates: Vec<&Parsed> = route_of
            .iter()
            .map(|&i| self.routes[i].template.parsed())
            .collect();
        let policy = self.options.matching.policy();
        let strict = self.program(
            &templates,
            Policy {
                strict_encoding: true,
                ..policy
            },
        )?;
        let lenient = if policy.strict_encoding {
            None
        } else {
            Some(self.program(&templates, policy)?)
        };
        // The walk finds static templates as fast as a hash would; the VM does not.
        let statics = self
            .routes
            .iter()
            .enumerate()
            .filter(|_| strict.walker.is_none())
            .filter(|(_, r)| r.template.is_static())
            .filter(|(_, r)| r.template.as_str().is_ascii() && !r.template.as_str().contains('%'))
            .map(|(i, r)| (r.template.as_str().into(), i))
            .collect();
        let keys = route_of
            .iter()
            .map(|&route| {
                let template = self.routes[route].template.parsed();
                Key {
                    route,
                    spans_are_captures: template.tail_var().is_none(),
                }
            })
            .collect();
        Ok(Compiled {
            program: strict,
            lenient,
            keys,
            statics,
            max_uri_len: matching::len_limit(self.options.matching.max_uri_len),
        })
    }
}
