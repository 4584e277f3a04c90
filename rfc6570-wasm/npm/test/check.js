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

const options = (c) => ({ pathSafety: c.pathSafety ?? true });
const uriOf = (c, t) => (c.roundTrip ? t.expand(c.roundTrip) : c.uri);

export const check = {
  template: (c, api) => outcome(c, () => new api.UriTemplate(c.template).toString(), c.template, api),
  isTemplate: (c, api) => outcome(c, () => api.UriTemplate.isTemplate(c.input), c.expected, api),
  variableNames: (c, api) => outcome(c, () => new api.UriTemplate(c.template).variableNames, c.expected, api),
  expand: (c, api) => outcome(c, () => new api.UriTemplate(c.template, options(c)).expand(c.variables), c.expected, api),
  match: (c, api) => outcome(c, () => {
    const t = new api.UriTemplate(c.template, options(c));
    return t.match(uriOf(c, t));
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
  safeJoin: (c, api) => outcome(c, () => api.safeJoin(c.base, c.path), c.expected, api),
};

/** Every failing case of `cases`, as `section: name: what`. */
export function failures(cases, api) {
  const failed = [];
  for (const [section, checker] of Object.entries(check)) {
    for (const c of cases[section]) {
      const wrong = checker(c, api);
      if (wrong !== null) failed.push(`${section}: ${c.name}: ${wrong}`);
    }
  }
  return failed;
}
