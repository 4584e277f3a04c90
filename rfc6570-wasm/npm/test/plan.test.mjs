// The package's own expansion (plan.js) against the module's, on every operator, prefixes,
// repeated names and literals that expansion encodes, for values drawn from what encoding
// treats apart: each character class, triplets and a `%` that starts none, brackets,
// non-ASCII text, lone surrogates, numbers and booleans. Where the plan answers, it must
// answer what the module does; where it leaves a value to the module (`undefined`), the
// package asks the module, so nothing else is compared. The expected values of the shared
// cases (cases.test.mjs) run through the plan as users call `expand`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UriTemplate } from '../node.js';
import { expandInModule } from '../api.js';
import { Template } from '../dist/rfc6570_wasm.js';
import { expandPlan } from '../plan.js';

const OPERATORS = ['', '+', '#', '.', '/', ';', '?', '&'];
const MODIFIERS = ['', '', ':1', ':3', '*'];
const PIECES = [
  'a', 'Z', '0', '-', '.', '_', '~', ' ', '%', '%2f', '%41', '%zz', '%4', '[', ']', '!', '*', "'", '(', ')',
  '#', '?', '/', '&', '=', ',', ':', '@', '+', '$', ';', '\u00e9', '\u20ac', '\u{1f600}', '\ud800', '\udc00', '"', '\u0001',
];
const LITERALS = ['', 'x://h/', 'caf\u00e9/', 'a%20b', '-', '!'];

/** A small deterministic generator, so that a failure reproduces. */
let seed = 0x2545f491;
function random(n) {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) % n;
}
const pick = (list) => list[random(list.length)];

function template() {
  const names = ['x', 'y', 'z'];
  let source = pick(LITERALS);
  for (let e = 0, n = 1 + random(2); e < n; e++) {
    const vars = Array.from({ length: 1 + random(3) }, () => `${pick(names)}${pick(MODIFIERS)}`);
    source += `{${pick(OPERATORS)}${vars.join(',')}}${pick(LITERALS)}`;
  }
  return source;
}

function value() {
  switch (random(8)) {
    case 0: return undefined;
    case 1: return null;
    case 2: return random(2) === 0 ? 42 : true;
    case 3: return '';
    default: return Array.from({ length: 1 + random(6) }, () => pick(PIECES)).join('');
  }
}

test('the plan expands every value it answers for as the module does', () => {
  let answered = 0;
  const rounds = 6000;
  for (let round = 0; round < rounds; round++) {
    const source = template();
    const module = new Template(source, true);
    const plan = JSON.parse(module.plan());
    module.free();
    const variables = { x: value(), y: value(), z: value() };
    const planned = expandPlan(plan, variables);
    let expected;
    try {
      expected = expandInModule(new UriTemplate(source), variables);
    } catch (error) {
      expected = error;
    }
    if (planned !== undefined) {
      answered++;
      assert.equal(planned, expected, `${source} with ${JSON.stringify(variables)}`);
    }
  }
  // Most draws are values the plan reads: a plan that gave up on everything would pass the
  // comparison above.
  assert.ok(answered > rounds * 0.8, `the plan answered ${answered} of ${rounds}`);
});

test('a template that carries bound values has no plan: the module expands with them', () => {
  const module = new Template('{x,y}', true).partial('x\0s1\0a');
  assert.equal(module.plan(), 'null');
  const partial = new UriTemplate('{x,y}').partial({ x: 'a' });
  assert.equal(partial.expand({ y: 'b' }), 'a,b');
});

test('the plan reads each of the template\'s names once, and no inherited getter', () => {
  let reads = 0;
  const variables = { get x() { reads += 1; return String(reads); } };
  assert.equal(new UriTemplate('{x}{x}{/x}').expand(variables), '11/1');
  assert.equal(reads, 1);
  const inherited = Object.create({ get x() { throw new Error('read'); } });
  assert.equal(new UriTemplate('{x}').expand(inherited), '');
});

test('a value too long for the plan is left to the module and its limits', () => {
  assert.throws(() => new UriTemplate('{x:3}').expand({ x: 'a'.repeat(4.3e6) }), { kind: 'variables' });
  assert.equal(new UriTemplate('{x:3}').expand({ x: 'a'.repeat(400_000) }), 'aaa');
});

test('values the plan leaves to the module still expand, or are refused, as before', () => {
  const t = new UriTemplate('{x}{?y*}{/z:2}');
  assert.equal(t.expand({ x: ['a', 'b'], y: { k: 'v' }, z: 'abc' }), 'a,b?k=v/ab');
  assert.equal(t.expand({ x: 'lone\ud800' }), 'lone%EF%BF%BD');
  assert.throws(() => t.expand({ z: ['a'] }), { kind: 'prefix_on_composite' });
  assert.equal(t.expand({ x: () => 1 }), '');
});
