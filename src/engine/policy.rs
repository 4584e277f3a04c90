//! What every compiled template must satisfy under a set of match options ([`Policy`]).

use crate::matching::{MatchOptions, Unsupported};
use crate::template::{LintKind, Parsed};

/// What the compiled variables must satisfy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct Policy {
    /// Every variable outside query expressions must be defined and non-empty.
    pub(super) require_path_vars: bool,
    /// Values hold raw only what expansion writes raw (no raw sub-delimiters).
    pub(super) strict_encoding: bool,
    /// A name used more than once refuses the template. It changes no program, so it is not
    /// part of the [`index`](Self::index) that programs are cached by.
    pub(super) refuse_repeated: bool,
}

impl Policy {
    /// A small number for each policy, for caching a program per policy.
    pub(crate) fn index(self) -> usize {
        usize::from(self.require_path_vars) | usize::from(self.strict_encoding) << 1
    }

    /// What `options` ask of every template.
    pub(crate) fn of(options: &MatchOptions) -> Self {
        Self {
            require_path_vars: !options.allow_empty_path_vars,
            strict_encoding: options.strict_encoding,
            refuse_repeated: options.refuse_repeated_names,
        }
    }

    /// Whether the policy admits `template` by what is not compiled: under
    /// `refuse_repeated`, a name used more than once is refused, at its second occurrence.
    pub(crate) fn admits(self, template: &Parsed) -> Result<(), Unsupported> {
        if !self.refuse_repeated || !template.has_repeats() {
            return Ok(());
        }
        let position = template
            .variables()
            .enumerate()
            .find(|&(v, _)| template.first_of(v) != v)
            .map_or(0, |(_, spec)| spec.position());
        Err(Unsupported::Shape {
            kind: LintKind::RepeatedName,
            position,
        })
    }

    /// The policy of the first pass: values as an expansion writes them.
    pub(super) fn strictly(self) -> Self {
        Self {
            strict_encoding: true,
            ..self
        }
    }
}
