//! Compiling a router: its templates handed to the engine together, rebuilt on the first
//! lookup after a change.

use super::{Route, Router};
use crate::engine::{self, Matcher, Policy, Templates};
use crate::matching::Unsupported;
use crate::template::Parsed;

/// What a lookup reads: the router's templates compiled together, and its length limit.
pub(super) struct Compiled {
    pub(super) matcher: Matcher,
    /// The longest URI a lookup takes, within what spans can record.
    pub(super) max_uri_len: usize,
}

impl<T> Router<T> {
    pub(super) fn compiled(&self) -> Result<&Compiled, Unsupported> {
        self.compiled
            .get_or_init(|| self.compile())
            .as_ref()
            .map_err(|&e| e)
    }

    fn compile(&self) -> Result<Compiled, Unsupported> {
        let templates: Vec<&Parsed> = self.routes.iter().map(|r| r.template.parsed()).collect();
        let options = &self.options.matching;
        Ok(Compiled {
            matcher: Matcher::many(&templates, Policy::of(options))?,
            max_uri_len: engine::limit(options.max_uri_len),
        })
    }
}

/// A router's templates are its routes', by insertion index.
impl<T> Templates for Vec<Route<T>> {
    fn template(&self, index: u32) -> &Parsed {
        self[index as usize].template.parsed()
    }
}
