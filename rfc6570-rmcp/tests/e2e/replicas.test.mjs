// Two replicas of the HTTP example (examples/http_server.rs, built with the `redis` feature)
// share their notifications over a real redis-server, which this test starts on a free
// loopback port and stops. The official TypeScript SDK client subscribes through replica A,
// on both protocol revisions (`resources/subscribe` on 2025-11-25, `subscriptions/listen` on
// 2026-07-28), and hears:
//   - the changes made beside replica B (its running build, MCP_RUNNING_BUILD_MS);
//   - the changes published by a process that serves nothing (examples/publish.rs);
//   - after redis-server is killed and started again, that its view may be stale, on both
//     replicas, and then changes again; meanwhile neither replica stops or keeps a read waiting.
// Run with `.ci/e2e`, or:
//   cargo build -p rfc6570-rmcp --features redis --example http_server --example publish
//   npm ci && node --test replicas.test.mjs
// MCP_HTTP_SERVER_BIN and MCP_PUBLISH_BIN name the binaries (default: the workspace's
// target/debug/examples/http_server and publish); REDIS_SERVER_BIN names redis-server (default:
// the one on PATH).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { freePort, run, startHttpServer, startRedis, waitFor } from './processes.mjs';

const example = (name) => fileURLToPath(new URL(`../../../target/debug/examples/${name}`, import.meta.url));
const HTTP_SERVER = process.env.MCP_HTTP_SERVER_BIN ?? example('http_server');
const PUBLISH = process.env.MCP_PUBLISH_BIN ?? example('publish');
const REDIS_SERVER = process.env.REDIS_SERVER_BIN ?? 'redis-server';

// How often the build beside replica B notifies `log://build/43`.
const TICK_MS = 200;
// The bounds: a change reaches a client well within these, or the test fails.
const HEARD_WITHIN_MS = 5_000;
// A publisher process starts, connects, publishes and exits within this.
const PUBLISHED_WITHIN_MS = 10_000;
// After redis-server is back: its clients reconnect (backoff at most 2 s) and tell their
// replicas, which tell their subscribers.
const STALE_WITHIN_MS = 15_000;
// No read waits on Redis: while it is away, each read answers within this.
const READ_WITHIN_MS = 1_000;

const REVISIONS = [
  { name: 'resources/subscribe, 2025-11-25', versionNegotiation: { mode: 'legacy' }, legacy: true },
  { name: 'subscriptions/listen, 2026-07-28', versionNegotiation: { mode: { pin: '2026-07-28' } }, legacy: false },
];

/// A client of the replica at `url` on `revision`, that keeps the URIs of the updates it hears
/// in `heard` (with when), and subscribes with `subscribe(uri)`, in the revision's way.
async function connect(url, revision) {
  const client = new Client({ name: 'rfc6570-replicas', version: '0.0.0' },
    { versionNegotiation: revision.versionNegotiation });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const heard = [];
  client.setNotificationHandler('notifications/resources/updated', (n) => {
    heard.push({ uri: n.params.uri, at: performance.now() });
  });
  const listens = [];
  const subscribe = async (uri) => {
    if (revision.legacy) await client.subscribeResource({ uri });
    else listens.push(await client.listen({ resourceSubscriptions: [uri] }));
  };
  const hears = (uri) => heard.some((h) => h.uri === uri);
  const close = async () => {
    for (const listen of listens) await listen.close();
    await client.close();
  };
  return { client, heard, subscribe, hears, close };
}

/// How many times `uri` was heard since `since`.
function hearings(c, uri, since) {
  return c.heard.filter((h) => h.uri === uri && h.at >= since).length;
}

/// Runs the publisher for `uri` until `c` hears `heard` (rmcp acknowledges a listen before it
/// registers the stream, so a first notice may come too early), at most 3 times.
async function publishUntilHeard(c, uri, heard = uri) {
  const since = performance.now();
  for (let attempt = 1; ; attempt++) {
    const published = await run(PUBLISH, [redis.url, uri], PUBLISHED_WITHIN_MS);
    assert.equal(published.code, 0, `publish failed: ${published.stderr}`);
    try {
      return await heardAfter(c, heard, since, HEARD_WITHIN_MS);
    } catch (e) {
      if (attempt === 3) throw e;
    }
  }
}

/// The first time `uri` was heard, in ms after `since`, waiting at most `ms` for it.
async function heardAfter(c, uri, since, ms) {
  await waitFor(`${uri} heard`, () => c.heard.some((h) => h.uri === uri && h.at >= since), ms);
  return c.heard.find((h) => h.uri === uri && h.at >= since).at - since;
}

async function readText(c, uri) {
  const { contents } = await c.client.readResource({ uri });
  assert.equal(contents[0].uri, uri);
  return contents[0].text;
}

let redis;

describe('two replicas over Redis', () => {
  let port;
  let a;
  let b;

  before(async () => {
    port = await freePort();
    redis = await startRedis(REDIS_SERVER, port);
    const env = { ...process.env, MCP_REDIS_URL: redis.url };
    a = await startHttpServer(HTTP_SERVER, env);
    b = await startHttpServer(HTTP_SERVER, { ...env, MCP_RUNNING_BUILD_MS: String(TICK_MS) });
  });

  after(async () => {
    await a?.stop();
    await b?.stop();
    await redis?.kill();
  });

  for (const revision of REVISIONS) {
    describe(revision.name, () => {
      test('a client of replica A hears of the build beside replica B', async (t) => {
        const c = await connect(a.url, revision);
        try {
          await c.subscribe('log://build/43');
          const ms = await heardAfter(c, 'log://build/43', performance.now(), HEARD_WITHIN_MS);
          t.diagnostic(`first update from replica B after ${ms.toFixed(1)} ms (it ticks every ${TICK_MS} ms)`);
        } finally {
          await c.close();
        }
      });

      test('a client of replica A hears of a change published by a process that serves nothing', async (t) => {
        const c = await connect(a.url, revision);
        try {
          await c.subscribe('notes://todo');
          const ms = await publishUntilHeard(c, 'notes://todo');
          t.diagnostic(`heard ${ms.toFixed(1)} ms after the publisher process was started`);
          assert.ok(!c.hears('notes://welcome'), 'only the URI that was published');
        } finally {
          await c.close();
        }
      });
    });
  }

  test('redis-server killed and restarted: both replicas serve on, tell their subscribers, and carry changes again', async (t) => {
    const [legacy, modern] = REVISIONS;
    // One subscriber on each replica, of a note that nobody changes: whatever it hears of it
    // after the restart is the staleness notice.
    const onA = await connect(a.url, legacy);
    const onB = await connect(b.url, modern);
    try {
      await onA.subscribe('notes://welcome');
      await onB.subscribe('notes://welcome');
      await onA.subscribe('log://build/43');
      await heardAfter(onA, 'log://build/43', performance.now(), HEARD_WITHIN_MS);

      await redis.kill();
      const killed = performance.now();
      // Redis is away for at least a second; reads go on, each answered promptly.
      let slowest = 0;
      for (let i = 0; i < 10; i++) {
        for (const c of [onA, onB]) {
          const start = performance.now();
          assert.match(await readText(c, 'notes://welcome'), /^# Welcome/);
          slowest = Math.max(slowest, performance.now() - start);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.ok(slowest < READ_WITHIN_MS, `a read took ${slowest.toFixed(1)} ms while Redis was away`);
      assert.ok(a.alive() && b.alive(), 'both replicas still run');

      redis = await startRedis(REDIS_SERVER, port);
      const back = performance.now();
      const staleOnA = await heardAfter(onA, 'notes://welcome', killed, STALE_WITHIN_MS);
      const staleOnB = await heardAfter(onB, 'notes://welcome', killed, STALE_WITHIN_MS);
      t.diagnostic(`Redis away ${(back - killed).toFixed(0)} ms; staleness notice ${staleOnA.toFixed(0)} ms (A) and ${staleOnB.toFixed(0)} ms (B) after the kill`);

      // Changes flow again. From replica B's build: staleness notices, which name
      // `log://build/43` too, come once or twice a replica; the build, every 200 ms.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const again = performance.now();
      await waitFor('5 updates from the build beside replica B',
        () => hearings(onA, 'log://build/43', again) >= 5, HEARD_WITHIN_MS);
      // From a publisher: a note under one subscribed, which no staleness notice names.
      await onA.subscribe('notes://vorlage');
      await publishUntilHeard(onA, 'notes://vorlage/1');
      assert.ok(a.alive() && b.alive(), 'both replicas still run');
    } finally {
      await onA.close();
      await onB.close();
    }
  });
});
