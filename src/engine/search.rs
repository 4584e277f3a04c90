//! A [`Matcher`]: what one template or a router's set compiles to, and the search over it,
//! the one place that chooses between the walk, the table and the VM.

use std::sync::OnceLock;

use super::dfa;
use super::found::{Found, Plainness, Rest};
use super::policy::Policy;
use super::program::Program;
use super::statics::Statics;
use super::validate::{Known, too_long, validate_triplets, validate_uri, validate_uri_past};
use super::vm;
use super::walk::{BINDS_TAILS, Seen, Walk};
use crate::matching::{BadUri, Mark, Spans, Unsupported};
use crate::pct::{self, Triplets};
use crate::template::Parsed;

/// Whether one template can be matched under `policy`: what [`Matcher::one`] would refuse,
/// without building the matcher (a router checks each template on insert, and compiles them
/// together on its first lookup).
pub(crate) fn check(template: &Parsed, policy: Policy) -> Result<(), Unsupported> {
    policy.admits(template)?;
    Program::check(template, policy.strictly())
}

/// The templates a [`Matcher`] was compiled from, by index: what it reads to compile its
/// lenient program, the first time a URI needs it.
pub(crate) trait Templates {
    /// Template `index`, as given to [`Matcher::one`] (index 0) or [`Matcher::many`].
    fn template(&self, index: u32) -> &Parsed;

    /// Whether these are one template alone ([`Matcher::one`]'s), which has no table of
    /// static templates to probe: known where [`Matcher::find`] is instantiated, so that a
    /// template's own match does not pay for the router's table.
    #[inline]
    fn alone(&self) -> bool {
        false
    }
}

impl Templates for Parsed {
    fn template(&self, _: u32) -> &Parsed {
        self
    }

    #[inline]
    fn alone(&self) -> bool {
        true
    }
}

impl Templates for &dyn Templates {
    fn template(&self, index: u32) -> &Parsed {
        (**self).template(index)
    }

    fn alone(&self) -> bool {
        (**self).alone()
    }
}

/// One template, or a router's templates, compiled for matching.
#[derive(Clone)]
pub(crate) struct Matcher {
    /// Values read as an expansion writes them, with the walk where it serves every template.
    strict: Program,
    /// Values that also hold the raw sub-delimiters clients send, for a second pass when the
    /// first found nothing; none under strict encoding. Compiled when a URI first needs it:
    /// most URIs never do, and a router compiles each template on insert to check it.
    lenient: OnceLock<Option<Box<Program>>>,
    /// What the templates ask of every match.
    policy: Policy,
    /// Who matches a URI without its fragment, when no template matched it with it.
    set_aside: SetAside,
    /// What a match of each program key needs: keys order static templates first, then by
    /// text, which is the tie-break among equally ranked matches. Past the program's keys,
    /// as many again: template `i`'s found with its query tail bound by the walk, as key
    /// `i + n` of `n` (see `Walker::bind_tails`), complete.
    keys: Vec<Key>,
    /// Static templates that need no normalization, by text, to their index: a URI that
    /// spells one is found without a search.
    statics: Statics,
    /// The most variables of a template: how many spans a search may fill.
    width: usize,
}

/// Who matches a URI without its fragment (RFC 3986 section 3.5: a fragment is the client's,
/// set aside before a dereference), where no template matched it whole. A template without a
/// fragment part (no `{#..}`, no literal `#`) can never match a URI with a `#`, so only those
/// with one can match it whole, and they win where both kinds match.
#[derive(Clone)]
enum SetAside {
    /// Every template has a fragment part: nothing is set aside.
    Never,
    /// No template has one: the matcher itself matches the rest.
    Itself,
    /// Some have one: the others (by index), compiled on first use, match the rest.
    ByTheOthers {
        others: Vec<u32>,
        matcher: OnceLock<Option<Box<Matcher>>>,
    },
}

impl SetAside {
    fn of(templates: &[&Parsed]) -> Self {
        let others: Vec<u32> = (0..templates.len() as u32)
            .filter(|&i| !templates[i as usize].has_fragment_part())
            .collect();
        if others.is_empty() {
            Self::Never
        } else if others.len() == templates.len() {
            Self::Itself
        } else {
            Self::ByTheOthers {
                others,
                matcher: OnceLock::new(),
            }
        }
    }
}

/// Some of a matcher's templates, by their indices there, as a matcher of their own sees them.
struct Subset<'a> {
    all: &'a dyn Templates,
    indices: &'a [u32],
}

impl Templates for Subset<'_> {
    fn template(&self, index: u32) -> &Parsed {
        self.all.template(self.indices[index as usize])
    }
}

/// A program key's template.
#[derive(Clone)]
struct Key {
    /// Its index among the templates compiled.
    index: u32,
    /// Its first query-tail variable, if it has a query tail, and its number of variables.
    tail: Option<u32>,
    vars: u32,
    /// Whether clean spans from the walk are its captures as they stand: no query tail to
    /// bind, no repeated name whose occurrences to check.
    complete: bool,
}

/// What a pass found: a program key, and what it knows of whether its spans are plain.
struct Hit {
    key: u32,
    plain: Plainness,
}

impl Matcher {
    /// Compiles one template. With empty path variables allowed, the walk serves it too
    /// where it is delimited.
    pub(crate) fn one(template: &Parsed, policy: Policy) -> Result<Self, Unsupported> {
        let strict = Program::compile(template, policy.strictly())?;
        Ok(Self::new(
            strict,
            policy,
            &[template],
            &[0],
            SetAside::of(&[template]),
        ))
    }

    /// Compiles many templates into one program, so that a lookup does not grow with their
    /// number; `templates[i]` is found with index `i`.
    pub(crate) fn many(templates: &[&Parsed], policy: Policy) -> Result<Self, Unsupported> {
        let mut order: Vec<u32> = (0..templates.len() as u32).collect();
        crate::sort::sort_by_key(&mut order, |&i| {
            let t = templates[i as usize];
            // Among equally ranked matches, a template that repeats a name first: it matches
            // a subset of the URIs of the same shape without the repeat.
            (!t.is_static(), !t.has_repeats(), t.as_str())
        });
        let sorted: Vec<&Parsed> = order.iter().map(|&i| templates[i as usize]).collect();
        let strict = Program::compile_many(&sorted, policy.strictly())?;
        Ok(Self::new(
            strict,
            policy,
            &sorted,
            &order,
            SetAside::of(templates),
        ))
    }

    fn new(
        strict: Program,
        policy: Policy,
        sorted: &[&Parsed],
        order: &[u32],
        set_aside: SetAside,
    ) -> Self {
        let key = |t: &Parsed, index: u32, bound: bool| Key {
            index,
            tail: t.tail_var().filter(|_| !bound).map(|v| v as u32),
            vars: t.var_count() as u32,
            complete: (bound || t.tail_var().is_none()) && !t.has_repeats(),
        };
        let mut keys: Vec<Key> = sorted
            .iter()
            .zip(order)
            .map(|(t, &i)| key(t, i, false))
            .collect();
        if BINDS_TAILS {
            keys.extend(sorted.iter().zip(order).map(|(t, &i)| key(t, i, true)));
        }
        let statics = if sorted.len() > 1 {
            Statics::new(order.iter().copied().zip(sorted.iter().copied()))
        } else {
            Statics::default()
        };
        Self {
            width: sorted.iter().map(|t| t.var_count()).max().unwrap_or(0),
            strict,
            lenient: OnceLock::new(),
            policy,
            set_aside,
            keys,
            statics,
        }
    }

    /// The most variables of a template: what the spans given to [`find`](Self::find) must
    /// hold.
    #[inline]
    pub(crate) fn width(&self) -> usize {
        self.width
    }

    /// Finds the best template for `uri` and writes its spans, or finds none; a malformed URI
    /// (over `limit` bytes among its faults) is an error. `spans` are unset, for
    /// [`width`](Self::width) variables; `templates` are those the matcher was compiled from.
    #[inline]
    pub(crate) fn find(
        &self,
        uri: &str,
        limit: usize,
        spans: &mut Spans,
        templates: &impl Templates,
    ) -> Result<Option<Found>, BadUri> {
        if uri.len() > limit {
            return Err(too_long(limit));
        }
        if !templates.alone() {
            if let Some(index) = self.statics.get(uri) {
                return Ok(Some(Found { index, rest: None }));
            }
        }
        let Some(walker) = &self.strict.walker else {
            return self.resume(uri, spans, None, templates, None);
        };
        let walked = if templates.alone() {
            walker.walk_apart(uri.as_bytes(), spans.pairs_mut())
        } else {
            walker.walk(uri.as_bytes(), spans.pairs_mut())
        };
        match walked {
            Walk::Found(key, seen) => {
                let key = &self.keys[key as usize];
                if key.complete && seen.is_clean() {
                    return Ok(Some(Found {
                        index: key.index,
                        rest: None,
                    }));
                }
                let plain = plainness(seen);
                if key.complete && plain != Plainness::NotPlain {
                    // What `resume` would answer, without its plumbing: spans that need
                    // nothing more, or only path safety's reading of their segments
                    // (`docs/a.md`), once their triplets are known to need nothing either.
                    let rest =
                        (plain == Plainness::DotsAndSlashes).then_some(Rest::DOTS_AND_SLASHES);
                    let found = Found {
                        index: key.index,
                        rest,
                    };
                    if !seen.unread_triplets() {
                        return Ok(Some(found));
                    }
                    return match triplets_left(uri)? {
                        None => Ok(Some(found)),
                        Some(triplets) => {
                            let known = Known::of_triplets(triplets);
                            self.resume(uri, spans, Some(walked), templates, Some(known))
                        }
                    };
                }
                if !key.complete {
                    return self.walked_to(uri, spans, walked, templates);
                }
            }
            Walk::NotFound(seen, vouched) if !seen.stopped_at_client_raw() => {
                return self.missed(uri, spans, walked, vouched as usize, templates);
            }
            Walk::NotFound(..) | Walk::GaveUp => {}
        }
        self.resume(uri, spans, Some(walked), templates, None)
    }

    /// The rest of a search whose walk found a template with a query tail or a repeated
    /// name (`walked`): what [`resume`](Self::resume) would answer, without its plumbing,
    /// unless a triplet of an unreserved character leaves the answer to the automaton.
    #[inline(never)]
    fn walked_to(
        &self,
        uri: &str,
        spans: &mut Spans,
        walked: Walk,
        templates: &dyn Templates,
    ) -> Result<Option<Found>, BadUri> {
        // `find` passes found walks only; any other is resumed as it stands. (Taking the
        // key and bits apart instead cost the GitHub lookups two instructions: the caller's
        // registers moved.)
        let Walk::Found(key, seen) = walked else {
            return self.resume(uri, spans, Some(walked), templates, None);
        };
        let mut known = None;
        match judge_found(uri, seen, &mut known)? {
            Some(plain) => Ok(Some(self.found(uri, spans, Hit { key, plain }, known))),
            None => self.resume(uri, spans, Some(walked), templates, known),
        }
    }

    /// The rest of a search whose walk found nothing and stopped at no byte the lenient
    /// reading takes (most misses): what [`resume`](Self::resume) would do, without its
    /// plumbing. Where the bytes past those the walk vouches for (`vouched`) are plain too,
    /// the URI holds no fault, no triplet and no fragment: nothing matches it, and that is
    /// the answer, without a call.
    #[inline]
    fn missed(
        &self,
        uri: &str,
        spans: &mut Spans,
        walked: Walk,
        vouched: usize,
        templates: &dyn Templates,
    ) -> Result<Option<Found>, BadUri> {
        let unread = uri.as_bytes().get(vouched..).unwrap_or(uri.as_bytes());
        if pct::is_plain_text(unread) {
            return Ok(None);
        }
        self.missed_in_doubt(uri, spans, walked, vouched, templates)
    }

    /// [`missed`](Self::missed) where the URI holds more than plain bytes: it is checked (a
    /// malformed one is reported as such) past the bytes the walk vouches for; unless a
    /// triplet of an unreserved character could have hidden a literal from the walk, nothing
    /// matches it whole, and only the templates that set its fragment aside are left to ask.
    #[cold]
    #[inline(never)]
    fn missed_in_doubt(
        &self,
        uri: &str,
        spans: &mut Spans,
        walked: Walk,
        vouched: usize,
        templates: &dyn Templates,
    ) -> Result<Option<Found>, BadUri> {
        let known = validate_uri_past(uri, vouched)?;
        if known.triplets == Triplets::Unreserved {
            return self.resume(uri, spans, Some(walked), templates, Some(known));
        }
        if known.fragment == Some(None) {
            // No fragment to set aside.
            return Ok(None);
        }
        self.without_fragment(uri, spans, templates, &[], Some(known))
    }

    /// The rest of a search after the walk, if the program has one: its answer judged (or
    /// the automaton's, where there is no walk), then the lenient reading if the strict one
    /// found nothing.
    #[inline(never)]
    fn resume(
        &self,
        uri: &str,
        spans: &mut Spans,
        walked: Option<Walk>,
        templates: &dyn Templates,
        mut known: Option<Known>,
    ) -> Result<Option<Found>, BadUri> {
        let hit = match walked {
            None => run_automaton(&self.strict, uri, spans, &mut known)?,
            Some(walked) => judge_walk(&self.strict, uri, spans, walked, &mut known)?,
        };
        // A walk that found nothing can tell that the lenient one would not find anything
        // either: then a miss walks once.
        let hit = match hit {
            Some(hit) => Some(hit),
            None if known.is_some_and(|k| !k.lenient_may_differ) => None,
            None => match self.lenient(templates) {
                Some(lenient) => pass(lenient, uri, spans, &mut known)?,
                None => None,
            },
        };
        match hit {
            Some(hit) => Ok(Some(self.found(uri, spans, hit, known))),
            None => self.without_fragment(uri, spans, templates, &[], known),
        }
    }

    /// [`find`](Self::find) again, where the templates of `left_out` (by index) do not count:
    /// a router's search when the occurrences of a repeated name disagreed in the template
    /// it found. The VM alone runs, strictly then leniently: the walk and the table cannot
    /// leave a template out. The URI was found valid by the first search.
    #[cold]
    pub(crate) fn find_without(
        &self,
        uri: &str,
        spans: &mut Spans,
        templates: &dyn Templates,
        left_out: &[u32],
    ) -> Result<Option<Found>, BadUri> {
        let keys: Vec<u32> = (0..self.program_keys().len() as u32)
            .filter(|&key| left_out.contains(&self.keys[key as usize].index))
            .collect();
        let known = Some(validate_uri(uri)?);
        let lenient = || self.lenient(templates);
        for program in std::iter::once(&self.strict).chain(std::iter::from_fn(lenient).take(1)) {
            spans.marks_mut().fill(Mark::NONE);
            if let Some(key) = vm::run_without(program, uri.as_bytes(), spans.marks_mut(), &keys) {
                let hit = Hit {
                    key,
                    plain: Plainness::Unread,
                };
                return Ok(Some(self.found(uri, spans, hit, known)));
            }
        }
        self.without_fragment(uri, spans, templates, left_out, known)
    }

    /// The search of a URI that no template matched whole, once its fragment is set aside:
    /// by the templates without a fragment part, but those of `left_out`. The URI is valid as
    /// a whole by now.
    fn without_fragment(
        &self,
        uri: &str,
        spans: &mut Spans,
        templates: &dyn Templates,
        left_out: &[u32],
        known: Option<Known>,
    ) -> Result<Option<Found>, BadUri> {
        if matches!(self.set_aside, SetAside::Never) {
            return Ok(None);
        }
        let Some(end) = Known::fragment(known, uri) else {
            return Ok(None);
        };
        let rest = &uri[..end];
        spans.marks_mut().fill(Mark::NONE);
        let found = match &self.set_aside {
            SetAside::Never => None,
            SetAside::Itself if left_out.is_empty() => {
                self.find(rest, rest.len(), spans, &templates)?
            }
            SetAside::Itself => self.find_without(rest, spans, templates, left_out)?,
            SetAside::ByTheOthers { others, matcher } => {
                let subset = Subset {
                    all: templates,
                    indices: others,
                };
                let matcher = matcher.get_or_init(|| {
                    let chosen: Vec<&Parsed> = (0..others.len() as u32)
                        .map(|i| subset.template(i))
                        .collect();
                    // The set compiled, so any part of it does.
                    Matcher::many(&chosen, self.policy).ok().map(Box::new)
                });
                let found = match matcher {
                    Some(m) if left_out.is_empty() => m.find(rest, rest.len(), spans, &subset)?,
                    Some(m) => {
                        let left_out: Vec<u32> = (0..others.len() as u32)
                            .filter(|&i| left_out.contains(&others[i as usize]))
                            .collect();
                        m.find_without(rest, spans, &subset, &left_out)?
                    }
                    None => None,
                };
                found.map(|f| Found {
                    index: others[f.index as usize],
                    ..f
                })
            }
        };
        Ok(found.map(|f| Found {
            rest: Some(Rest {
                set_aside: true,
                ..f.rest.unwrap_or(Rest::PLAIN)
            }),
            ..f
        }))
    }

    /// The keys of the program's templates, in its order, without those of templates found
    /// with their tails bound.
    fn program_keys(&self) -> &[Key] {
        &self.keys[..self.keys.len() >> u32::from(BINDS_TAILS)]
    }

    /// The lenient program, compiled on first use, unless the policy is strict.
    fn lenient(&self, templates: &dyn Templates) -> Option<&Program> {
        if self.policy.strict_encoding {
            return None;
        }
        let policy = self.policy;
        self.lenient
            .get_or_init(|| {
                let sorted: Vec<&Parsed> = self
                    .program_keys()
                    .iter()
                    .map(|key| templates.template(key.index))
                    .collect();
                // The strict program compiled, and the lenient one differs from it only in
                // its variables' classes: the same refusals and limits hold, so this cannot
                // fail.
                let compiled = match sorted[..] {
                    [one] => Program::compile(one, policy),
                    _ => Program::compile_many(&sorted, policy),
                };
                debug_assert!(compiled.is_ok(), "the strict program compiled");
                compiled.ok().map(Box::new)
            })
            .as_deref()
    }

    /// What a search found from a pass's hit: its template, and where the query tail starts,
    /// whose spans a walk leaves to be bound.
    #[inline]
    fn found(&self, uri: &str, spans: &mut Spans, hit: Hit, known: Option<Known>) -> Found {
        let key = &self.keys[hit.key as usize];
        let query = match key.tail {
            Some(first) => {
                let tail = &mut spans.pairs_mut()[first as usize..key.vars as usize];
                let start = tail[0][0].get().unwrap_or(uri.len());
                tail.fill([Mark::NONE; 2]);
                Mark::at(start)
            }
            None => Mark::NONE,
        };
        let rest = Rest {
            // Unchecked (`None`), every triplet the walk took was read whole in the run that took
            // it, which is the whole of one span (a run ends where its template's next literal
            // starts: see `walk::build::qualifies`), and each is of an inert byte or of a whole
            // two-byte character, so that every value decodes; a query that holds a `%` is
            // always checked (see `Seen::unread_triplets`).
            triplets: known.map_or(Triplets::None, |k| k.triplets),
            plain: hit.plain,
            query,
            set_aside: false,
        };
        Found {
            index: key.index,
            rest: Some(rest),
        }
    }
}

/// What a walk's complete match whose spans are inert but for their triplets, dots and
/// slashes (`a%20b`, `docs/caf%C3%A9.md`) has left to learn of the URI's triplets: nothing
/// (`None`) where each is of an inert byte that is not unreserved (it decodes to ASCII that
/// breaks no rule), nor where the others are of whole two-byte characters (no look-alike is
/// one; a span ends where the walk met a literal, which holds no triplet, so that where the
/// URI's characters are whole, each span's are); else what they are, for the search to go on as
/// [`Matcher::resume`] does. Out of line, and small: the lookup keeps its registers.
#[inline(never)]
fn triplets_left(uri: &str) -> Result<Option<Triplets>, BadUri> {
    let triplets = validate_triplets(uri)?.triplets;
    Ok((triplets > Triplets::TwoByte).then_some(triplets))
}

/// What a walk's spans are, by what it saw of them, where the URI's triplets are of inert
/// bytes or of two-byte characters that decode: what they decode to breaks no safety rule,
/// so that spans inert but for them are plain, and spans that hold dots and slashes besides
/// can break only the rules read off segments.
#[inline]
fn plainness(seen: Seen) -> Plainness {
    if seen.inert_but_for_triplets() {
        Plainness::Plain
    } else if seen.inert_but_for_dots_slashes_and_triplets() {
        Plainness::DotsAndSlashes
    } else {
        Plainness::NotPlain
    }
}

/// One reading's search over fresh spans: the walk where the program has one, else the
/// automaton.
fn pass(
    program: &Program,
    uri: &str,
    spans: &mut Spans,
    known: &mut Option<Known>,
) -> Result<Option<Hit>, BadUri> {
    spans.marks_mut().fill(Mark::NONE);
    match &program.walker {
        Some(walker) => {
            let walked = walker.walk(uri.as_bytes(), spans.pairs_mut());
            judge_walk(program, uri, spans, walked, known)
        }
        None => run_automaton(program, uri, spans, known),
    }
}

/// Whether a walk's answer stands. The walk compares bytes: where the URI holds a triplet it
/// may have taken for a variable's text, or failed on, one of an unreserved character (`%66`,
/// which equals `f` under RFC 3986 normalization) makes its answer not count, and the
/// automaton, which compares normalized units, decides. A walk that gives up leaves the URI to
/// the automaton too; and a malformed URI is reported as such, wherever its fault is.
#[inline]
fn judge_walk(
    program: &Program,
    uri: &str,
    spans: &mut Spans,
    walked: Walk,
    known: &mut Option<Known>,
) -> Result<Option<Hit>, BadUri> {
    let hit = match walked {
        Walk::GaveUp => return rerun(program, uri, spans, known),
        Walk::Found(key, seen) => match judge_found(uri, seen, known)? {
            Some(plain) => Some(Hit { key, plain }),
            None => return rerun(program, uri, spans, known),
        },
        Walk::NotFound(..) => {
            if known.is_none() {
                *known = Some(validate_uri(uri)?);
            }
            None
        }
    };
    if known.is_some_and(|k| k.triplets == Triplets::Unreserved) {
        return rerun(program, uri, spans, known);
    }
    if let (Walk::NotFound(seen, _), Some(known)) = (walked, known.as_mut()) {
        known.lenient_may_differ = seen.stopped_at_client_raw();
    }
    Ok(hit)
}

/// What a walk's complete match (`seen` of its spans) is worth: what its spans are, once the
/// URI's triplets are checked where the walk left one unread (filling `known`; see
/// [`Seen::unread_triplets`]), or `None` where one of an unreserved character leaves the answer
/// to the automaton. The walk took every byte as a literal or in a run of bytes a URI may hold,
/// so only its triplets are left to check.
/// Inline: out of line, its callers' lookups pay a call and a frame even where the walk saw no
/// `%`.
#[inline(always)]
fn judge_found(
    uri: &str,
    seen: Seen,
    known: &mut Option<Known>,
) -> Result<Option<Plainness>, BadUri> {
    if seen.unread_triplets() && known.is_none() {
        *known = Some(validate_triplets(uri)?);
    }
    match known.map(|k| k.triplets) {
        Some(Triplets::Unreserved) => Ok(None),
        // Two-byte characters are checked to decode with the captures.
        Some(triplets) if triplets > Triplets::TwoByte => Ok(Some(Plainness::NotPlain)),
        _ => Ok(Some(plainness(seen))),
    }
}

/// [`run_automaton`] over fresh spans, after a walk whose answer does not count.
#[inline(never)]
fn rerun(
    program: &Program,
    uri: &str,
    spans: &mut Spans,
    known: &mut Option<Known>,
) -> Result<Option<Hit>, BadUri> {
    spans.marks_mut().fill(Mark::NONE);
    run_automaton(program, uri, spans, known)
}

/// The automaton's search: validates the URI if that is not done yet, then runs the VM's
/// table where the program has one (see `dfa`), and the VM where it does not or the table
/// defers.
fn run_automaton(
    program: &Program,
    uri: &str,
    spans: &mut Spans,
    known: &mut Option<Known>,
) -> Result<Option<Hit>, BadUri> {
    // Only a single template's program has a trailer (`Program::compile`): its key is 0.
    if let Some(trailer) = &program.trailer {
        if trailer.read(uri.as_bytes(), spans.marks_mut()) {
            known.get_or_insert(Known::of_triplets(Triplets::None));
            return Ok(Some(Hit {
                key: 0,
                plain: Plainness::Unread,
            }));
        }
    }
    // Without a lead (in WebAssembly), the table is not built before the URI is found valid.
    let led = match dfa::LEADS {
        true => program.dfa().map_or(0, |dfa| dfa.led(uri.as_bytes())),
        false => 0,
    };
    if known.is_none() {
        *known = Some(validate_uri_past(uri, led)?);
    }
    let marks = spans.marks_mut();
    let key = match program.dfa().map(|dfa| dfa.run(uri.as_bytes(), led, marks)) {
        Some(dfa::Run::Match(key)) => Some(key),
        Some(dfa::Run::NoMatch) => None,
        Some(dfa::Run::Dynamic) | None => vm::run(program, uri.as_bytes(), marks),
    };
    Ok(key.map(|key| Hit {
        key,
        plain: Plainness::Unread,
    }))
}
