// The static server (scripts/serve-dist.mjs) against hostile requests. No browser: each test starts
// its own server on a free port, over a temporary tree with a `dist-secret/` folder beside `dist/`,
// and sends raw requests with node:http (fetch would normalise the paths before sending them).
// SERVE_DIST_SCRIPT=<file> runs the same tests against another server script, e.g. an old one.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = process.env.SERVE_DIST_SCRIPT
  ?? fileURLToPath(new URL('../../scripts/serve-dist.mjs', import.meta.url));
const SECRET = 'the-sibling-secret';
const WASM = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
let tree;

before(() => {
  tree = mkdtempSync(join(tmpdir(), 'serve-dist-test-'));
  mkdirSync(join(tree, 'dist', 'lab'), { recursive: true });
  mkdirSync(join(tree, 'dist-secret'));
  writeFileSync(join(tree, 'dist', 'index.html'), '<!DOCTYPE html><title>home</title><p>home page');
  writeFileSync(join(tree, 'dist', 'lab', 'index.html'), '<!DOCTYPE html><title>lab</title><p>lab page');
  writeFileSync(join(tree, 'dist', 'app_bg.wasm'), WASM);
  writeFileSync(join(tree, 'dist-secret', 'secret.txt'), SECRET);
});
after(() => rmSync(tree, { recursive: true, force: true }));

/** Starts a server over `tree/dist` on a free port, runs `fn(server)`, and always stops it. */
async function withServer(fn) {
  const portFile = join(tree, `port-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const child = spawn(process.execPath, [SCRIPT, join(tree, 'dist'), portFile, '0'],
    { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  try {
    for (let i = 0; i < 100 && !(existsSync(portFile) && readFileSync(portFile, 'utf8')); i++) {
      if (child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const port = Number(readFileSync(portFile, 'utf8'));
    const server = {
      origin: `http://127.0.0.1:${port}`,
      /** One raw request: the path goes on the request line exactly as given. */
      send: (method, path, headers = {}) => new Promise((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false, timeout: 5000 }, (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        });
        req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in 5 s`)));
        req.on('error', (e) => reject(new Error(`${method} ${path}: ${e.message} (server ${child.exitCode === null ? 'running' : `exited with ${child.exitCode}`}; stderr: ${stderr.split('\n').find((l) => /Error/.test(l)) ?? stderr.trim()})`)));
        req.end();
      }),
      /** The server still runs and serves the home page. */
      async alive(after) {
        await new Promise((r) => setTimeout(r, 50));
        assert.equal(child.exitCode, null, `the server exited after ${after}: ${stderr}`);
        const home = await server.send('GET', '/');
        assert.equal(home.status, 200, `GET / after ${after}`);
        assert.match(home.body.toString(), /home page/);
      },
    };
    await fn(server);
  } finally {
    child.kill();
    rmSync(portFile, { force: true });
  }
}

test('server: a malformed URL gets a 4xx and the server keeps serving', async () => {
  await withServer(async (s) => {
    for (const path of ['/%E0%A4%A', '/%', '/%ZZ', '/%FF', '/lab/%E0', '/%00', '/lab%']) {
      const res = await s.send('GET', path);
      assert.ok(res.status >= 400 && res.status < 500, `GET ${path} answered ${res.status}`);
      await s.alive(`GET ${path}`);
    }
  });
});

test('server: a bad Range header does not end the server', async () => {
  await withServer(async (s) => {
    for (const range of ['bytes=100-50', 'bytes=0-18446744073709551615', 'bytes=-99999', 'bytes=x-y', 'bytes=5-']) {
      const res = await s.send('GET', '/app_bg.wasm', { range });
      assert.ok([200, 206, 416].includes(res.status), `Range ${range} answered ${res.status}`);
      await s.alive(`Range: ${range}`);
    }
  });
});

test('server: a file beside dist/ is never served, however the path is written', async () => {
  await withServer(async (s) => {
    for (const path of ['/..%2Fdist-secret/secret.txt', '/../dist-secret/secret.txt', '/%2E%2E/dist-secret/secret.txt',
      '/.%2E%2Fdist-secret%2Fsecret.txt', '/lab/..%2F..%2Fdist-secret/secret.txt', '/..%5Cdist-secret/secret.txt',
      '/%2E%2E%2Fdist-secret/', '/..%2Fdist-secret']) {
      const res = await s.send('GET', path);
      assert.ok(res.status >= 400 && res.status < 500, `GET ${path} answered ${res.status}`);
      assert.ok(!res.body.toString().includes(SECRET), `GET ${path} served the sibling file`);
    }
    await s.alive('the traversal attempts');
  });
});

test('server: no redirect leaves the origin', async () => {
  await withServer(async (s) => {
    const paths = ['/.//evil.example/..%2Flab', '/.//evil.example/lab/..%2F..%2Flab', '//evil.example/..%2Flab',
      '//evil.example/', '/\\evil.example/..%2Flab', '/%2F%2Fevil.example/..%2F..%2Flab', '/%5Cevil.example/..%2Flab',
      '/./lab', '//lab', '///lab', '/%2F/lab', '/lab?next=//evil.example', 'http://evil.example/lab', '*'];
    for (const path of paths) {
      const res = await s.send('GET', path);
      assert.ok(res.status < 500, `GET ${path} answered ${res.status}`);
      const loc = res.headers.location;
      if (loc === undefined) continue;
      assert.match(loc, /^\/(?![/\\])/, `GET ${path} redirected to ${loc}, not to a path on this origin`);
      assert.equal(new URL(loc, s.origin + '/base/').origin, s.origin, `GET ${path} redirected to ${loc}`);
    }
    await s.alive('the redirect attempts');
  });
});

test('server: only GET and HEAD are answered; other methods get 405 with Allow', async () => {
  await withServer(async (s) => {
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']) {
      for (const path of ['/', '/index.html', '/lab/']) {
        const res = await s.send(method, path);
        assert.equal(res.status, 405, `${method} ${path} answered ${res.status}`);
        assert.match(res.headers.allow ?? '', /\bGET\b.*\bHEAD\b|\bHEAD\b.*\bGET\b/, `${method} ${path}: Allow is ${res.headers.allow}`);
        assert.doesNotMatch(res.body.toString(), /home page|lab page/);
      }
    }
    const head = await s.send('HEAD', '/');
    assert.equal(head.status, 200);
    assert.match(head.headers['content-type'], /^text\/html/);
    assert.equal(head.body.length, 0, 'HEAD has no body');
    await s.alive('the other methods');
  });
});

test('server: /lab reaches /lab/, and files keep their content types', async () => {
  await withServer(async (s) => {
    const bare = await s.send('GET', '/lab');
    assert.ok([301, 302, 307, 308].includes(bare.status), `GET /lab answered ${bare.status}`);
    assert.equal(bare.headers.location, '/lab/');
    const lab = await s.send('GET', bare.headers.location);
    assert.equal(lab.status, 200);
    assert.match(lab.headers['content-type'], /^text\/html/);
    assert.match(lab.body.toString(), /lab page/);
    const wasm = await s.send('GET', '/app_bg.wasm');
    assert.equal(wasm.status, 200);
    assert.equal(wasm.headers['content-type'], 'application/wasm', 'streaming instantiation needs application/wasm');
    assert.deepEqual(wasm.body, WASM);
    assert.equal((await s.send('GET', '/nope.js')).status, 404);
  });
});
