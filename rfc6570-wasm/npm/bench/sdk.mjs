// match and expand per call: rfc6570-wasm's UriTemplate against the MCP TypeScript SDK's
// (@modelcontextprotocol/server 2.4.0), on the shapes MCP servers list, with the same inputs,
// in one run. Each figure is the median of 7 rounds of N calls, the JavaScript-to-WebAssembly
// crossing included. The floor measures the crossing alone: a match that the first byte
// refuses. Last, one call each on a shape that makes a regex matcher backtrack.
//
//   node bench/sdk.mjs            # N = 20,000
//   BENCH_CALLS=2000 node bench/sdk.mjs
import { UriTemplate as Sdk } from '@modelcontextprotocol/server';
import { UriTemplate as Ours } from '../node.js';

const N = Number(process.env.BENCH_CALLS ?? 20_000);
const ROUNDS = 7;

// Each shape: the template, a URI both match to the same values, and variables to expand.
const SHAPES = [
  ['notes://{id}', 'notes://welcome', { id: 'welcome' }],
  ['file:///{+path}', 'file:///docs/guide/intro.md', { path: 'docs/guide/intro.md' }],
  ['log://build/{job_id}{?lines}', 'log://build/42?lines=10-20', { job_id: '42', lines: '10-20' }],
  ['search://docs{?q,lang}', 'search://docs?q=templates&lang=en', { q: 'templates', lang: 'en' }],
  ['users://{userId}/posts/{postId}', 'users://fred/posts/123', { userId: 'fred', postId: '123' }],
];

/** Nanoseconds per call of `f`, the median of the rounds. */
function perCall(f) {
  const times = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < N; i++) f();
    times.push(Number(process.hrtime.bigint() - start) / N);
  }
  times.sort((a, b) => a - b);
  return times[ROUNDS >> 1];
}

/** The SDK's answer, its values decoded where `encoded` says they need it. */
function decodedBy(variables, encoded) {
  if (!encoded || variables === null) return variables;
  return Object.fromEntries(Object.entries(variables).map(([k, v]) => [k, decodeURIComponent(v)]));
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

// Values that need decoding, as most real ones do (a space, an accent, a slash). The SDK gives
// them back still encoded (its issue #2728), so these check ours against `decodeURIComponent` of
// the SDK's answer, and expand the decoded values.
const ENCODED = [
  ['notes://{id}', 'notes://a%20b', { id: 'a b' }],
  ['notes://{id}', 'notes://caf%C3%A9', { id: 'café' }],
  ['file:///{+path}', 'file:///docs/guide/intro%20to%20templates.md', { path: 'docs/guide/intro to templates.md' }],
];

// The same shapes, the encoded ones, and file:///{+path} once more without path safety, which
// the SDK lacks.
const RUNS = [
  ...SHAPES.map((shape) => [...shape, {}]),
  ...ENCODED.map((shape) => [...shape, { encoded: true }]),
  [...SHAPES[1], { pathSafety: false }],
];

const rows = [];
for (const [template, uri, variables, options] of RUNS) {
  const sdk = new Sdk(template);
  const ours = new Ours(template, { pathSafety: options.pathSafety });
  // Both must answer alike before they are timed.
  if (!same(decodedBy(sdk.match(uri), options.encoded), ours.match(uri))) throw new Error(`${template}: the two match differently`);
  if (sdk.expand(variables) !== ours.expand(variables)) throw new Error(`${template}: the two expand differently`);
  // Warm up both, then time them.
  perCall(() => sdk.match(uri));
  perCall(() => ours.match(uri));
  const match = [perCall(() => sdk.match(uri)), perCall(() => ours.match(uri))];
  const expand = [perCall(() => sdk.expand(variables)), perCall(() => ours.expand(variables))];
  const label = options.pathSafety === false ? `\`${template}\`, no path safety`
    : options.encoded ? `\`${template}\` on \`${uri}\`` : `\`${template}\``;
  rows.push({ label, match, expand });
}
const floor = perCall((() => {
  const t = new Ours('notes://{id}');
  return () => t.match('x');
})());

// A shape that makes a regex matcher backtrack: one call each, on 200 characters.
const slow = '{a}{b}{c}{d}!';
const input = 'x'.repeat(200);
const once = (t) => {
  const start = process.hrtime.bigint();
  t.match(input);
  return Number(process.hrtime.bigint() - start);
};
const backtracking = [once(new Sdk(slow)), once(new Ours(slow))];

const f = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(1)} ms` : ns >= 10_000 ? `${(ns / 1000).toFixed(1)} µs` : `${ns.toFixed(0)} ns`);
console.log(`node ${process.version}, ${N} calls a round, median of ${ROUNDS} rounds\n`);
console.log('| template | match: SDK | match: ours | SDK / ours | expand: SDK | expand: ours | SDK / ours |');
console.log('|---|---|---|---|---|---|---|');
for (const { label, match, expand } of rows) {
  console.log(`| ${label} | ${f(match[0])} | ${f(match[1])} | ${(match[0] / match[1]).toFixed(1)}x | ${f(expand[0])} | ${f(expand[1])} | ${(expand[0] / expand[1]).toFixed(2)}x |`);
}
console.log(`\nfloor (a match refused at the first byte: the crossing alone): ${f(floor)}`);
console.log(`\`${slow}\` on ${input.length} characters, one call: SDK ${f(backtracking[0])}, ours ${f(backtracking[1])}`);
