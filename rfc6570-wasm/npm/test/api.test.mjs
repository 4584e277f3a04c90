// The package's API beyond the shared cases: the SDK's shapes, errors that are Errors with
// kind and position, bad and huge inputs that never trap the module, and linear-time matching
// on the shapes that make regex matchers backtrack.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UriTemplate, UriTemplateError, Router, safeJoin } from '../node.js';

test('the SDK\'s shapes: a getter, toString, a static isTemplate, null for no match', () => {
  const t = new UriTemplate('log://build/{job_id}{?lines}');
  assert.deepEqual(t.variableNames, ['job_id', 'lines']);
  assert.ok(Array.isArray(t.variableNames));
  assert.equal(`${t}`, 'log://build/{job_id}{?lines}');
  assert.equal(String(t), t.toString());
  assert.equal(UriTemplate.isTemplate('log://build/{job_id}'), true);
  assert.equal(UriTemplate.isTemplate(42), false);
  assert.equal(t.match('notes://a'), null);
  assert.equal(Object.getPrototypeOf(t.match('log://build/42')), Object.prototype);
});

test('errors are UriTemplateErrors: an Error, with the kind, the message and the position', () => {
  assert.throws(() => new UriTemplate('log://{job id}'), (e) => {
    assert.ok(e instanceof UriTemplateError && e instanceof Error);
    assert.equal(e.name, 'UriTemplateError');
    assert.equal(e.kind, 'unexpected_character');
    assert.equal(e.position, 10);
    assert.equal(e.message, 'unexpected character \' \' in expression at index 10');
    assert.match(e.stack, /UriTemplateError/);
    return true;
  });
});

test('path safety is on unless it is false; anything but a boolean is a mistake', () => {
  for (const options of [{}, { pathSafety: undefined }, { pathSafety: true }, undefined]) {
    assert.equal(new UriTemplate('f/{+p}', options).match('f/../etc'), null, JSON.stringify(options));
    const router = new Router(options);
    router.insert('f/{+p}', 1);
    // No refused URI is answered as a match, by a template or a router; explain says why.
    assert.equal(router.at('f/../etc'), null);
    assert.equal(router.explain('f/../etc').error.rule, 'dot_dot_segment');
  }
  assert.deepEqual(new UriTemplate('f/{+p}', { pathSafety: false }).match('f/../etc'), { p: '../etc' });
  assert.throws(() => new UriTemplate('f/{+p}', { pathSafety: 0 }), TypeError);
  assert.throws(() => new Router({ pathSafety: 'no' }), TypeError);
});

test('a template that cannot be matched still expands, matches nothing, and says why', () => {
  const t = new UriTemplate('x{&a}{?b}');
  assert.equal(t.expand({ a: '1', b: '2' }), 'x&a=1?b=2');
  assert.equal(t.match('x&a=1'), null);
  const { ok, error } = t.explain('x&a=1');
  assert.equal(ok, false);
  assert.equal(error.kind, 'unsupported');
  assert.equal(error.position, 5);
  assert.ok(t.lints().some((lint) => lint.refuses && lint.position === 5));
});

test('__proto__ is a variable like any other', () => {
  const found = new UriTemplate('x/{__proto__}').match('x/abc');
  assert.deepEqual(Object.keys(found), ['__proto__']);
  assert.equal(found.__proto__, 'abc');
  assert.equal(Object.getPrototypeOf(found), Object.prototype);
});

test('an expansion longer than 1 MiB is an error, and the module goes on', () => {
  const name = 'n'.repeat(60_000);
  const t = new UriTemplate(`x{?${name}*}`);
  assert.throws(() => t.expand({ [name]: Array(1_000).fill('') }), (e) => e.kind === 'expansion_too_long');
  assert.deepEqual(new UriTemplate('notes://{id}').match('notes://a%20b'), { id: 'a b' });
});

test('a URI far over the limit is refused without being copied into the module', () => {
  const huge = `notes://${'a'.repeat(50_000_000)}`;
  const t = new UriTemplate('notes://{id}');
  assert.equal(t.match(huge), null);
  assert.equal(t.explain(huge).error.kind, 'malformed');
  const router = new Router();
  router.insert('notes://{id}', 1);
  assert.equal(router.at(huge), null);
  assert.equal(router.explain(huge).error.kind, 'malformed');
  assert.deepEqual(t.match('notes://b'), { id: 'b' });
});

test('the router refuses a template twice, and one that cannot be matched', () => {
  const router = new Router();
  router.insert('notes://{id}', 'note');
  assert.throws(() => router.insert('notes://{id}', 'again'), UriTemplateError);
  assert.throws(() => router.insert('x{&a}{?b}', 'never'), (e) => e instanceof UriTemplateError && e.kind !== undefined);
  assert.equal(router.at('notes://a').value, 'note');
});

test('values of any kind, kept by the router as they were given', () => {
  const router = new Router();
  const handler = () => 'read';
  router.insert('notes://{id}', handler);
  assert.equal(router.at('notes://a').value, handler);
});

test('bad input of every kind leaves the module usable', () => {
  const inputs = ['', '{', '}', '{{}}', '%', '%zz', '\u0000', '\ud800', 'x'.repeat(70_000), '{a:0}', '{a:10000}',
    '{/a*,b*}', '{+a}{+b}', '{?m*}{&m*}', '\u{1F600}{x}', '{x}'.repeat(2_000)];
  let refused = 0;
  for (const template of inputs) {
    for (const uri of inputs) {
      try {
        const t = new UriTemplate(template);
        t.match(uri);
        t.explain(uri);
        t.expand({ a: uri, b: [uri], m: { k: uri }, x: uri });
        t.lints();
      } catch (e) {
        assert.ok(e instanceof UriTemplateError, `${JSON.stringify(template.slice(0, 20))}: ${e}`);
        refused++;
      }
      try {
        safeJoin(template, uri);
      } catch (e) {
        assert.ok(e instanceof UriTemplateError, String(e));
      }
    }
  }
  assert.ok(refused > 0);
  // Still answering, correctly.
  assert.deepEqual(new UriTemplate('notes://{id}').match('notes://a%20b'), { id: 'a b' });
});

test('a template over the length and expression limits is refused with the limit', () => {
  // The SDK accepts 10,000 expressions; the engine stops at 1,024, and at 64 KiB.
  assert.throws(() => new UriTemplate('{p}'.repeat(2_000)), (e) => e.kind === 'too_many_expressions' && e.message.length < 100);
  assert.throws(() => new UriTemplate('x'.repeat(70_000)), (e) => e.kind === 'template_too_long' && e.message.length < 100);
});

test('no backtracking: the shapes that take a regex matcher seconds take milliseconds', () => {
  const shapes = [
    ['{a}{b}{c}{d}!', 'x'.repeat(30_000)],
    ['{+a}{+b}{+c}{+d}!', 'x'.repeat(30_000)],
    ['/users{/id*}', `/users/${'user1,user2,user3,'.repeat(1_500)}userX/`],
    ['{/id*}', `/${','.repeat(30_000)}`],
    ['{id*}', ','.repeat(30_000)],
  ];
  for (const [template, uri] of shapes) {
    const t = new UriTemplate(template);
    const start = performance.now();
    t.match(uri);
    const ms = performance.now() - start;
    assert.ok(ms < 200, `${template} on ${uri.length} characters took ${ms.toFixed(1)} ms`);
  }
  // And one that matches, with its values, as quickly.
  const t = new UriTemplate('{a}/{b}{c}!');
  const long = 'x'.repeat(20_000);
  const start = performance.now();
  const found = t.match(`1/${long}!`);
  assert.ok(performance.now() - start < 200);
  assert.equal(found.a, '1');
  assert.equal(found.b + found.c, long);
});

test('expansion writes numbers, booleans and bigints as String does, and leaves out what JSON would', () => {
  const t = new UriTemplate('{a}{;b,c,d}{?e*}');
  assert.equal(t.expand({ a: 1e21, b: 10n, c: false, d: NaN }), '1e%2B21;b=10;c=false;d=NaN');
  // Functions and symbols are undefined, as JSON.stringify leaves them out.
  assert.equal(t.expand({ a: () => 1, b: Symbol('s'), e: { k: 'v', f: () => 1 } }), '?k=v');
  // A sparse array's holes are undefined items.
  assert.equal(new UriTemplate('{x}').expand({ x: ['a', , 'b'] }), 'a,b');
  // A name with a NUL names no template variable.
  assert.equal(new UriTemplate('{x}').expand({ 'x\0': 'a', x: 'b' }), 'b');
});

test('partial writes what it is given and keeps the rest, which then expands as the whole would', () => {
  const t = new UriTemplate('search://docs{?q,lang,page}');
  const p = t.partial({ q: 'uri templates', page: 2 });
  assert.ok(p instanceof UriTemplate);
  assert.equal(`${p}`, 'search://docs?q=uri%20templates{&lang}&page=2');
  assert.deepEqual(p.variableNames, ['lang']);
  assert.equal(p.expand({ lang: 'en' }), t.expand({ q: 'uri templates', lang: 'en', page: 2 }));
  // The result matches too, with the template's path safety.
  assert.deepEqual(p.match('search://docs?q=uri%20templates&lang=fr&page=2'), { lang: 'fr' });
  // {x,y} with x alone cannot be written yet: x stays with the result.
  const kept = new UriTemplate('{x,y}').partial({ x: 1 });
  assert.equal(`${kept}`, '{x,y}');
  assert.equal(kept.expand({ y: 2 }), '1,2');
  assert.equal(kept.expand({}), '1');
  assert.throws(() => new UriTemplate('{x:2}').partial({ x: ['a'] }), (e) => e instanceof UriTemplateError && e.kind === 'prefix_on_composite');
});

test('partial answers a template over the limits a parse enforces, and long literals compile', () => {
  // 600 expressions, each of whose middle variable is given, make 1,200: over the 1,024 that
  // a parse accepts, as partial's result may be.
  const t = new UriTemplate('{/a,b,c}'.repeat(600));
  const p = t.partial({ b: 'x' });
  assert.equal(`${p}`, '{/a}/x{/c}'.repeat(600));
  assert.equal(p.expand({ a: 1 }), '/1/x'.repeat(600));
  // A long literal compiles without exhausting the stack, and the module goes on.
  const long = new UriTemplate('{x}').partial({ x: 'a'.repeat(30000) });
  assert.deepEqual(long.match('a'.repeat(30000)), {});
  assert.deepEqual(new UriTemplate(`${'x'.repeat(15000)}{id}`).match(`${'x'.repeat(15000)}7`), { id: '7' });
  assert.deepEqual(new UriTemplate('notes://{id}').match('notes://1'), { id: '1' });
});

test('matched values decode as decodeURIComponent decodes them, by hand or not', async () => {
  const { decodeTriplets } = await import('../api.js');
  // Whole characters, raw and as triplets (upper and lower case), at the borders of the
  // two-byte range and past it; every text of up to four of them.
  const pieces = [
    'a', '/', '%20', '%2F', '%2f', '%41', '%25', '%7E', '%C3%A9', '%c3%a9', '%C2%80', '%DF%BF',
    '%E2%82%AC', '%F0%9F%98%80', '\u00e9', '\u20ac', '\u{1f600}',
  ];
  let longest = [''];
  const texts = [];
  for (let round = 0; round < 4; round++) {
    longest = longest.flatMap((text) => pieces.map((piece) => text + piece));
    texts.push(...longest);
  }
  assert.equal(texts.length, 17 + 17 ** 2 + 17 ** 3 + 17 ** 4);
  for (const text of texts) assert.equal(decodeTriplets(text), decodeURIComponent(text), text);
  // Through a match, on the shapes the benchmark reads.
  assert.deepEqual(new UriTemplate('notes://{id}').match('notes://caf%C3%A9%20%E2%82%AC'), { id: 'caf\u00e9 \u20ac' });
  assert.deepEqual(
    new UriTemplate('file:///{+path}').match('file:///docs/guide/intro%20to%20templates.md'),
    { path: 'docs/guide/intro to templates.md' },
  );
});
