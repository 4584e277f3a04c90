//! A lookup: from a URI to the best template's value and captures, checked for path safety.
//!
//! The engine finds the template and its spans; most lookups end in [`Router::at`] itself with
//! spans that are the captures as they stand. The rest (a query tail to bind, triplets to
//! decode, a capture to check) continue out of line, so that the common lookup keeps its
//! registers.

use super::{Route, RouteError, Router};
use crate::UriTemplate;
use crate::engine::{Found, Matcher, Plainness};
use crate::matching::{Captures, MatchError, Spans};
use crate::safety::SafetyPolicy;

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

impl<'u, T> Routed<'_, 'u, T> {
    /// The URI's fragment, without its `#`, when the template has no fragment part and so
    /// set it aside: [`Captures::fragment`].
    ///
    /// ```
    /// # use rfc6570::Router;
    /// let mut router = Router::new();
    /// router.insert("file:///{+path}", ())?;
    /// let routed = router.at("file:///docs/a.md#intro")?;
    /// assert_eq!(routed.captures.get("path").unwrap().decoded(), "docs/a.md");
    /// assert_eq!(routed.fragment(), Some("intro"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fragment(&self) -> Option<&'u str> {
        self.captures.fragment()
    }
}

impl<T> Router<T> {
    /// Routes a URI to the best matching template.
    ///
    /// The lookup runs in time linear in the URI's length, whatever the number of templates
    /// (but for one search more per template that repeats a name whose occurrences the URI
    /// makes disagree: the [semantics](crate::semantics), section 15),
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
    /// breaks a path-safety rule, [`RouteError::Malformed`] for a malformed URI, and
    /// [`RouteError::Refused`] with the best match's own reason: its query, a map key given
    /// twice, or, where the only templates that match repeat a name, occurrences that
    /// disagree.
    pub fn at<'r: 'u, 'u>(&'r self, uri: &'u str) -> Result<Routed<'r, 'u, T>, RouteError> {
        let Some(Ok(compiled)) = self.compiled.get() else {
            return self.compile_then_at(uri);
        };
        let mut spans = Spans::new(compiled.matcher.width());
        let Some(found) =
            compiled
                .matcher
                .find(uri, compiled.max_uri_len, &mut spans, &self.routes)?
        else {
            return Err(RouteError::NotFound);
        };
        if found.is_complete() {
            // Most lookups end here, and build their result where it is returned: the
            // captures are large enough that a move costs.
            let template = self.routes[found.index()].template.parsed();
            return Ok(self.routed(found.index(), Captures::new(template, uri, spans)));
        }
        self.bind(uri, spans, found, &compiled.matcher)
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

    /// Turns the spans of the template found into its captures, and checks them: a query
    /// tail to bind, triplets to decode, values that a path-safety rule could refuse. Out of
    /// line, so that the common lookup keeps its registers.
    #[inline(never)]
    fn bind<'r: 'u, 'u>(
        &'r self,
        uri: &'u str,
        mut spans: Spans,
        found: Found,
        matcher: &Matcher,
    ) -> Result<Routed<'r, 'u, T>, RouteError> {
        let (index, plain) = self.agreeing(uri, &mut spans, found, matcher)?;
        let route = &self.routes[index];
        let template = route.template.parsed();
        let captures = Captures::new(template, uri, spans);
        match plain {
            Plainness::Plain => {}
            // What the walk saw is most likely in the captures: no pass first to be sure.
            Plainness::DotsAndSlashes | Plainness::NotPlain => {
                self.check_safety(route, &captures, plain)?;
            }
            Plainness::Unread if captures.all_plain() => {}
            Plainness::Unread => self.check_safety(route, &captures, plain)?,
        }
        Ok(self.routed(index, captures))
    }

    /// Finishes the spans of the template found ([`Found::finish`]); where it repeats a name
    /// whose occurrences disagree, searches again without it, until a template agrees or
    /// none is left: at most once more per template that repeats a name. Returns the
    /// template whose spans these are, and what is known of whether they are plain.
    fn agreeing(
        &self,
        uri: &str,
        spans: &mut Spans,
        mut found: Found,
        matcher: &Matcher,
    ) -> Result<(usize, Plainness), RouteError> {
        let strict = self.options.matching.strict_query;
        let mut left_out = Vec::new();
        loop {
            let template = self.routes[found.index()].template.parsed();
            let error = match found.finish(template, uri, spans, strict) {
                Ok(plain) => return Ok((found.index(), plain)),
                Err(error @ MatchError::Disagreement { .. }) => error,
                Err(error) => return Err(RouteError::of_match(template.as_str(), error)),
            };
            left_out.push(found.index() as u32);
            let again = matcher.find_without(uri, spans, &self.routes, &left_out)?;
            let Some(next) = again else {
                // No other template matches: the disagreement of the first one found is
                // the answer.
                let first = self.routes[left_out[0] as usize].template.as_str();
                return Err(RouteError::of_match(first, error));
            };
            found = next;
        }
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

    /// Judges each capture that is not inert with its policy: by
    /// [`SafetyPolicy::check_raw`], or, where the walk found that the captures hold nothing a
    /// rule reads but dots, slashes and triplets of inert bytes or two-byte characters
    /// (`plain`), by the shorter reading of their segments alone.
    fn check_safety(
        &self,
        route: &Route<T>,
        captures: &Captures<'_>,
        plain: Plainness,
    ) -> Result<(), RouteError> {
        let dots_and_slashes = plain == Plainness::DotsAndSlashes;
        // Inert text breaks no rule: only the other captures are read. Each item and key is
        // judged where it stands in the URI, decoded as it is read: the handler's own call is
        // the one decoding.
        let mut judge = |name: &str, part: &str, single: bool| {
            let policy = route.options.policy_for(name, self.options.safety);
            if policy == SafetyPolicy::OFF {
                Ok(())
            } else if dots_and_slashes {
                policy.check_dots_and_slashes(part, single)
            } else {
                policy.check_raw(part, single)
            }
        };
        captures
            .judge_unplain_parts(&mut judge)
            .map_err(|(name, rule)| RouteError::Unsafe {
                template: route.template.to_string(),
                variable: name.to_owned(),
                rule,
            })
    }
}
