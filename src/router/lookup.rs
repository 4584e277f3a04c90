//! A lookup: from a URI to the best template's value and captures, checked for path safety.
//!
//! Most lookups take the walk and end in [`Router::at`] itself; the rest (a query tail to bind,
//! a triplet to validate, a capture to check, a URI the walk hands to the VM) continue out of
//! line, so that the common lookup keeps its registers.

use super::compile::{Compiled, Found, Pass};
use super::{Route, RouteError, Router};
use crate::matching::{self, Captures, Search, Slots, Triplets};
use crate::safety::SafetyPolicy;
use crate::UriTemplate;

/// The outcome of a successful lookup.
///
/// ```
/// use rfc6570::Router;
///
/// let mut router = Router::new();
/// router.insert("db://users/{id}/profile", "profile")?;
/// let routed = router.at("db://users/ada/profile")?;
/// assert_eq!(*routed.value, "profile");
/// assert_eq!(routed.template.as_str(), "db://users/{id}/profile");
/// assert_eq!(serde_json::to_value(&routed.captures)?, serde_json::json!({"id": "ada"}));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub struct Routed<'r, 'u, T> {
    /// The value inserted with the template.
    pub value: &'r T,
    /// The template that matched.
    pub template: &'r UriTemplate,
    /// Its variables, borrowed from the URI.
    pub captures: Captures<'u>,
}

impl<T> Router<T> {
    /// Routes a URI to the best matching template.
    ///
    /// The lookup runs in time linear in the URI's length, whatever the number of templates,
    /// and allocates nothing for URIs whose captures need no decoding (once the thread's matcher
    /// cache is warm), as long as no template has more than 10 variables: the captures keep
    /// that many spans inline. The first lookup after a change compiles the router.
    ///
    /// ```
    /// use rfc6570::Router;
    ///
    /// let mut router = Router::new();
    /// router.insert("log://build/{job_id}{?lines}", "build log")?;
    /// router.insert("search://docs{?q,lang}", "search")?;
    ///
    /// let routed = router.at("search://docs?lang=en&q=uri%20templates")?;
    /// assert_eq!(*routed.value, "search");
    /// assert_eq!(routed.template.as_str(), "search://docs{?q,lang}");
    /// assert_eq!(routed.captures.get("q").unwrap().decoded(), "uri templates");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`RouteError::NotFound`] when nothing matches, [`RouteError::Unsafe`] when the best match
    /// breaks a path-safety rule, [`RouteError::Malformed`] for a malformed URI, and the query
    /// errors of the best match.
    pub fn at<'r: 'u, 'u>(&'r self, uri: &'u str) -> Result<Routed<'r, 'u, T>, RouteError> {
        let Some(Ok(compiled)) = self.compiled.get() else {
            return self.compile_then_at(uri);
        };
        matching::check_len_within(uri, compiled.max_uri_len)?;
        let width = compiled.program.slots / 2;
        let mut slots = Slots::new(width);
        let Some(walker) = &compiled.program.walker else {
            return self.at_by_vm(compiled, uri, slots);
        };
        // The walk inline, the VM (for a walk that gives up) out of line: see matching::search.
        let found: Search = walker
            .walk(uri.as_bytes(), slots.as_mut_slice(width))
            .into();
        if let Search::Walked(key, seen) = found {
            let key = &compiled.keys[key as usize];
            if key.spans_are_captures && seen.is_clean() {
                // Most lookups end here, and build their result where it is returned: the
                // captures are large enough that a move costs.
                let template = self.routes[key.route].template.parsed();
                return Ok(self.routed(key.route, Captures::new(template, uri, slots)));
            }
        }
        self.after_search(compiled, Pass::Strict, uri, slots, found, None)
    }

    /// The first lookup after a change: compiles the router (or reports why it cannot be),
    /// then looks up.
    #[cold]
    #[inline(never)]
    fn compile_then_at<'r: 'u, 'u>(
        &'r self,
        uri: &'u str,
    ) -> Result<Routed<'r, 'u, T>, RouteError> {
        self.compiled().map_err(RouteError::Unsupported)?;
        self.at(uri)
    }

    /// The rest of a lookup that did not end in plain captures from the walk: a query tail to
    /// bind, a triplet to validate, a capture to check for safety, the VM's answer, or none
    /// found (and then the lenient pass). Out of line, so that the common lookup keeps its
    /// registers.
    #[inline(never)]
    fn after_search<'r: 'u, 'u>(
        &'r self,
        compiled: &'r Compiled,
        pass: Pass,
        uri: &'u str,
        mut slots: Slots,
        found: Search,
        mut triplets: Option<Triplets>,
    ) -> Result<Routed<'r, 'u, T>, RouteError> {
        let Some(program) = compiled.program(pass) else {
            return Err(RouteError::NotFound);
        };
        let width = program.slots / 2;
        let found = match found {
            Search::Deferred => {
                matching::run_vm(program, uri, slots.as_mut_slice(width), &mut triplets)?
            }
            // The walk compares bytes: where the URI holds a triplet it may have taken for a
            // variable's text, or failed on, one of an unreserved character (`%66`, which
            // equals `f`) makes its answer not count, and the VM decides (matching::search).
            // A malformed URI is reported as such, wherever its fault is.
            Search::Walked(_, seen) if seen.percent() && triplets.is_none() => {
                matching::validate_walk(program, uri, slots.as_mut_slice(width), &mut triplets)?
                    .unwrap_or(found)
            }
            Search::NotFound if triplets.is_none() => {
                matching::validate_walk(program, uri, slots.as_mut_slice(width), &mut triplets)?
                    .unwrap_or(found)
            }
            found => found,
        };
        let found = match found {
            Search::Walked(key, seen) => {
                let key = key as usize;
                let template = self.routes[compiled.keys[key].route].template.parsed();
                matching::clear_tail(template, slots.as_mut_slice(width));
                // The walk matched literals (which hold no `%`) and scanned every variable's
                // span and the query tail, so a URI where those hold no `%` holds no triplet.
                Found {
                    key,
                    triplets: triplets.unwrap_or(Triplets::None),
                    plain: seen.all_plain(),
                }
            }
            Search::Automaton(key) => Found {
                key: key as usize,
                triplets: triplets.unwrap_or(Triplets::Some),
                plain: false,
            },
            Search::NotFound | Search::Deferred if pass == Pass::Strict => {
                return self.at_leniently(compiled, uri, triplets);
            }
            Search::NotFound | Search::Deferred => return Err(RouteError::NotFound),
        };
        self.bind(compiled, uri, slots, found)
    }

    /// A lookup by the VM, for routers the walk does not serve: static templates first.
    #[inline(never)]
    fn at_by_vm<'r: 'u, 'u>(
        &'r self,
        compiled: &'r Compiled,
        uri: &'u str,
        slots: Slots,
    ) -> Result<Routed<'r, 'u, T>, RouteError> {
        let triplets = Some(matching::validate_uri(uri, usize::MAX)?);
        if let Some(&i) = compiled.statics.get(uri) {
            let template = self.routes[i].template.parsed();
            return Ok(self.routed(i, Captures::empty(template, uri)));
        }
        self.search_in(compiled, Pass::Strict, uri, slots, triplets)
    }

    /// The second pass of a lookup that found nothing as an expansion writes it: the same
    /// templates with raw sub-delimiters read as values ([`RouterOptions::strict_encoding`](
    /// super::RouterOptions::strict_encoding)), for URIs as clients write them.
    #[cold]
    #[inline(never)]
    fn at_leniently<'r: 'u, 'u>(
        &'r self,
        compiled: &'r Compiled,
        uri: &'u str,
        triplets: Option<Triplets>,
    ) -> Result<Routed<'r, 'u, T>, RouteError> {
        let Some(program) = compiled.program(Pass::Lenient) else {
            return Err(RouteError::NotFound);
        };
        let slots = Slots::new(program.slots / 2);
        self.search_in(compiled, Pass::Lenient, uri, slots, triplets)
    }

    /// Both engines of one pass over fresh slots, as [`matching::search`] chooses them.
    fn search_in<'r: 'u, 'u>(
        &'r self,
        compiled: &'r Compiled,
        pass: Pass,
        uri: &'u str,
        mut slots: Slots,
        mut triplets: Option<Triplets>,
    ) -> Result<Routed<'r, 'u, T>, RouteError> {
        let Some(program) = compiled.program(pass) else {
            return Err(RouteError::NotFound);
        };
        let width = program.slots / 2;
        let found = matching::search(program, uri, slots.as_mut_slice(width), &mut triplets)?;
        match found {
            // The search has validated the URI, and re-run a walk that did not count.
            Search::NotFound if pass == Pass::Strict => self.at_leniently(compiled, uri, triplets),
            Search::NotFound => Err(RouteError::NotFound),
            found => self.after_search(compiled, pass, uri, slots, found, triplets),
        }
    }

    /// Turns the spans of the template found into its captures, and checks them.
    fn bind<'r: 'u, 'u>(
        &'r self,
        compiled: &'r Compiled,
        uri: &'u str,
        mut slots: Slots,
        found: Found,
    ) -> Result<Routed<'r, 'u, T>, RouteError> {
        let i = compiled.keys[found.key].route;
        let route = &self.routes[i];
        let template = route.template.parsed();
        let strict = self.options.matching.strict_query;
        matching::finish(template, uri, &mut slots, found.triplets, strict)
            .map_err(|e| RouteError::of_match(template.as_str(), e))?;
        let captures = Captures::new(template, uri, slots);
        if !found.plain {
            self.check_safety(route, &captures)?;
        }
        Ok(self.routed(i, captures))
    }

    #[inline]
    fn routed<'r: 'u, 'u>(&'r self, i: usize, captures: Captures<'u>) -> Routed<'r, 'u, T> {
        let route = &self.routes[i];
        Routed {
            value: &route.value,
            template: &route.template,
            captures,
        }
    }

    fn check_safety(&self, route: &Route<T>, captures: &Captures<'_>) -> Result<(), RouteError> {
        if captures.all_plain() {
            return Ok(());
        }
        for capture in captures.iter() {
            let policy = route
                .options
                .policy_for(capture.name(), self.options.safety);
            if policy == SafetyPolicy::OFF {
                continue;
            }
            // Each item and key is judged where it stands in the URI, decoded as it is read:
            // the handler's own call is the one decoding.
            let single = capture.items_are_segments();
            let outcome = capture
                .raw_parts()
                .try_for_each(|part| policy.check_raw(part, single));
            if let Err(rule) = outcome {
                return Err(RouteError::Unsafe {
                    template: route.template.to_string(),
                    variable: capture.name().to_owned(),
                    rule,
                });
            }
        }
        Ok(())
    }
}
