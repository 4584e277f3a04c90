// What a new project (`npm init -y`: CommonJS) gets from the installed package, whether it
// loads it with `require` (require.test.cjs) or `import` (import.test.mjs): the same API, and
// one module under both.
const assert = require('node:assert/strict');

exports.check = function check({ UriTemplate, UriTemplateError, Router, safeJoin }) {
  const t = new UriTemplate('file:///{+path}{?rev}');
  assert.deepEqual(t.match('file:///docs/caf%C3%A9.md?rev=3'), { path: 'docs/café.md', rev: '3' });
  assert.equal(t.expand({ path: 'a b/c.md' }), 'file:///a%20b/c.md');
  // A refused URI is no match, and explain names the rule.
  assert.equal(t.match('file:///..%2Fsecret.txt'), null);
  const why = t.explain('file:///..%2Fsecret.txt');
  assert.ok(why.error instanceof UriTemplateError);
  assert.deepEqual([why.ok, why.error.kind, why.error.rule], [false, 'unsafe', 'dot_dot_segment']);
  const router = new Router();
  router.insert('notes://{id}', 'note');
  assert.deepEqual(router.at('notes://7'), { value: 'note', template: 'notes://{id}', variables: { id: '7' } });
  assert.equal(safeJoin('/srv', 'a/../b'), '/srv/b');
};
