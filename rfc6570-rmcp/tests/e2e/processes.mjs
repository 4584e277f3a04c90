// The processes the e2e tests start and stop: the HTTP example server, redis-server, a
// one-shot command. Every wait is bounded.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect, createServer } from 'node:net';

/// The HTTP example (`bin`) on a free loopback port: its URL, from the first line it prints;
/// `alive()`; and `stop()`, which sends SIGTERM and waits (at most 10 s) for it to exit.
export function startHttpServer(bin, env) {
  assert.ok(existsSync(bin), `no server binary at ${bin}: cargo build -p rfc6570-rmcp --example http_server`);
  const child = spawn(bin, [], {
    env: { ...env, MCP_HTTP_ADDR: '127.0.0.1:0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const stop = async () => {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error('no URL within 10 s')); }, 10_000);
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the HTTP server exited (${code}) before it served`)));
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const line = out.split('\n');
      if (line.length > 1) {
        clearTimeout(timer);
        resolve({ url: line[0].trim(), alive, stop });
      }
    });
  });
}

/// A port that was free on loopback a moment ago.
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/// Debian's `redis-server` (`bin`) on loopback `port`, keeping nothing on disk, once it takes
/// connections (at most 10 s). `kill()` ends it at once (SIGKILL: a crash, not a shutdown).
export async function startRedis(bin, port) {
  const child = spawn(bin, [
    '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no',
  ], { stdio: ['ignore', 'ignore', 'inherit'] });
  let failed;
  child.on('error', (e) => { failed = e; });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const kill = async () => {
    if (failed) return;
    child.kill('SIGKILL');
    await exited;
  };
  const started = async () => {
    if (failed) throw new Error(`${bin}: ${failed.message}`);
    return accepts(port);
  };
  try {
    await waitFor(`redis-server on port ${port}`, started, 10_000);
  } catch (e) {
    await kill();
    throw e;
  }
  return { url: `redis://127.0.0.1:${port}/`, kill };
}

/// Whether something takes TCP connections on loopback `port`.
function accepts(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => { socket.destroy(); resolve(true); });
    socket.on('error', () => resolve(false));
  });
}

/// Polls `condition` (which may be async) every 20 ms until it holds; fails after `ms`,
/// naming `what`.
export async function waitFor(what, condition, ms) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/// Runs `bin args...` to its end (killed after `ms`): its exit status and what it wrote to
/// standard error.
export function run(bin, args, ms) {
  assert.ok(existsSync(bin), `no binary at ${bin}`);
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}
