// How each section of tests/cases.json is checked, against a package's exports (`api`):
// `check[section](c, api)` answers null when case `c` holds, or what went wrong. No Node.js
// module is used, so that the same checks run in Node.js (cases.test.mjs) and in a browser
// (browser.test.mjs).

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** What is wrong with `error` for the expected refusal (a kind, or fields), or null. */
function refusal(error, expected, api) {
  if (!(error instanceof api.UriTemplateError) || !(error instanceof Error)) {
    return `expected a UriTemplateError, got ${error}`;
  }
  const fields = typeof expected === 'string' ? { kind: expected } : expected;
  for (const [key, value] of Object.entries(fields)) {
    if (error[key] !== value) return `${key}: expected ${JSON.stringify(value)}, got ${JSON.stringify(error[key])}`;
  }
  return null;
}

/** Runs `f`: null if it answers `expected` (or refuses as `c.error` says), else what it did. */
function outcome(c, f, expected, api) {
  let got;
  try {
    got = f();
  } catch (e) {
    return c.error ? refusal(e, c.error, api) : `threw ${e}`;
  }
  if (c.error) return `expected ${JSON.stringify(c.error)}, got ${JSON.stringify(got)}`;
  return same(got, expected) ? null : `expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`;
}

/** `c` with each `${name}` of its `let` replaced by that text repeated, in every string and
 * every key (as `with_lets` in tests/cases.rs). */
export function withLets(c) {
  if (!c.let) return c;
  const texts = Object.entries(c.let).map(([name, [text, times]]) => ['${' + name + '}', text.repeat(times)]);
  const text = (s) => texts.reduce((out, [name, long]) => out.replaceAll(name, long), s);
  const walk = (value) => {
    if (typeof value === 'string') return text(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [text(k), walk(v)]));
    }
    return value;
  };
  return walk(c);
}

/** Runs `f`; throws if it took longer than the case's `withinMs`. */
function timed(c, f) {
  const start = performance.now();
  const got = f();
  const ms = performance.now() - start;
  if (c.withinMs !== undefined && ms > c.withinMs) throw new Error(`took ${ms.toFixed(1)} ms`);
  return got;
}

const options = (c) => ({ pathSafety: c.pathSafety ?? true });
const uriOf = (c, t) => (c.roundTrip ? t.expand(c.roundTrip) : c.uri);

export const check = {
  template: (c, api) => outcome(c, () => new api.UriTemplate(c.template).toString(), c.template, api),
  isTemplate: (c, api) => outcome(c, () => api.UriTemplate.isTemplate(c.input), c.expected, api),
  variableNames: (c, api) => outcome(c, () => new api.UriTemplate(c.template).variableNames, c.expected, api),
  expand: (c, api) => outcome(c, () => new api.UriTemplate(c.template, options(c)).expand(c.variables), c.expected, api),
  match: (c, api) => outcome(c, () => {
    const t = new api.UriTemplate(c.template, options(c));
    const uri = uriOf(c, t);
    return timed(c, () => t.match(uri));
  }, c.expected, api),
  explain: (c, api) => {
    const t = new api.UriTemplate(c.template, options(c));
    const explained = t.explain(uriOf(c, t));
    if (explained.ok !== false) return `expected a refusal, got ${JSON.stringify(explained)}`;
    return refusal(explained.error, c.error, api);
  },
  route: (c, api) => outcome(c, () => {
    const router = new api.Router(options(c));
    c.templates.forEach((t, i) => router.insert(t, i));
    const found = router.at(c.uri);
    if (found === null) return null;
    if (found.value !== c.templates.indexOf(found.template)) return 'the value is not the template\'s';
    return { template: found.template, variables: found.variables };
  }, c.expected, api),
  explainRoute: (c, api) => {
    const router = new api.Router(options(c));
    c.templates.forEach((t, i) => router.insert(t, i));
    const explained = router.explain(c.uri);
    if (c.error) {
      if (explained.ok !== false) return `expected a refusal, got ${JSON.stringify(explained)}`;
      return refusal(explained.error, c.error, api);
    }
    if (explained.ok !== true) return `expected a match, got ${explained.error}`;
    if (explained.value !== c.templates.indexOf(explained.template)) return 'the value is not the template\'s';
    const got = { template: explained.template, variables: explained.variables };
    return same(got, c.expected) ? null : `expected ${JSON.stringify(c.expected)}, got ${JSON.stringify(got)}`;
  },
  safeJoin: (c, api) => outcome(c, () => api.safeJoin(c.base, c.path), c.expected, api),
};

/** Every failing case of `cases`, as `section: name: what`. */
export function failures(cases, api) {
  const failed = [];
  for (const [section, checker] of Object.entries(check)) {
    for (const c of cases[section]) {
      const wrong = checker(withLets(c), api);
      if (wrong !== null) failed.push(`${section}: ${c.name}: ${wrong}`);
    }
  }
  return failed;
}
