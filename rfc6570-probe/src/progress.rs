//! The progress bar: on a terminal only, never in CI (`CI` set) nor with `--quiet`.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// A progress bar, or nothing.
#[derive(Clone)]
pub struct Progress(Option<ProgressBar>);

impl Progress {
    pub fn new(quiet: bool) -> Self {
        let shown = !quiet && std::io::stderr().is_terminal() && std::env::var_os("CI").is_none();
        Self(shown.then(|| {
            let bar = ProgressBar::new(0);
            let style = ProgressStyle::with_template("{msg:>12} [{bar:40}] {pos}/{len} {elapsed}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
            bar.set_style(style);
            bar
        }))
    }

    /// A new stage of `total` steps.
    pub fn stage(&self, what: &'static str, total: usize) {
        if let Some(bar) = &self.0 {
            bar.set_message(what);
            bar.set_length(total as u64);
            bar.set_position(0);
        }
    }

    pub fn step(&self) {
        if let Some(bar) = &self.0 {
            bar.inc(1);
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}
