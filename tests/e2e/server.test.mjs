// The static server (scripts/serve-dist.mjs) against hostile requests. No browser: each test starts
// its own server on a free port, over a temporary tree with a `dist-secret/` folder beside `dist/`,
// and sends raw requests with node:http (fetch would normalise the paths before sending them).
// SERVE_DIST_SCRIPT=<file> runs the same tests against another server script, e.g. an old one.
// The last tests check the choice of precompressed files by Accept-Encoding (scripts/compress.mjs
// writes them at the end of the build).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { brotliCompressSync, brotliDecompressSync, gzipSync, gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = process.env.SERVE_DIST_SCRIPT
  ?? fileURLToPath(new URL('../../scripts/serve-dist.mjs', import.meta.url));
const SECRET = 'the-sibling-secret';
const WASM = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
// Text that compresses well, so a compressed body can never be mistaken for the original.
const JS = `export const answer = 42;\n${'// a line of the module, again and again\n'.repeat(200)}`;
const CSS = `${'main { margin: 0 auto; }\n'.repeat(100)}`;
const SVG = `<svg xmlns="http://www.w3.org/2000/svg">${'<rect width="1" height="1"/>'.repeat(50)}</svg>`;
const HOME = `<!DOCTYPE html><title>home</title><p>home page${'<p>another paragraph of the page</p>\n'.repeat(20)}`;
let tree;

before(() => {
  tree = mkdtempSync(join(tmpdir(), 'serve-dist-test-'));
  mkdirSync(join(tree, 'dist', 'lab'), { recursive: true });
  mkdirSync(join(tree, 'dist-secret'));
  writeFileSync(join(tree, 'dist', 'index.html'), HOME);
  writeFileSync(join(tree, 'dist', 'lab', 'index.html'), '<!DOCTYPE html><title>lab</title><p>lab page');
  writeFileSync(join(tree, 'dist', 'app_bg.wasm'), WASM);
  writeFileSync(join(tree, 'dist-secret', 'secret.txt'), SECRET);
  writeFileSync(join(tree, 'dist', 'app.js'), JS);
  writeFileSync(join(tree, 'dist', 'style.css'), CSS);
  writeFileSync(join(tree, 'dist', 'icon.svg'), SVG);
  // Every file but one has both copies; `only-gz.js` has a .gz and no .br.
  for (const [name, text] of [['app.js', JS], ['style.css', CSS], ['icon.svg', SVG], ['index.html', HOME],
    ['app_bg.wasm', WASM], ['lab/index.html', readFileSync(join(tree, 'dist', 'lab', 'index.html'))]]) {
    writeFileSync(join(tree, 'dist', `${name}.br`), brotliCompressSync(text));
    writeFileSync(join(tree, 'dist', `${name}.gz`), gzipSync(text));
  }
  writeFileSync(join(tree, 'dist', 'only-gz.js'), JS);
  writeFileSync(join(tree, 'dist', 'only-gz.js.gz'), gzipSync(JS));
  // A `.br` beside a file that is not served compressed (a .txt) is never sent in its place.
  writeFileSync(join(tree, 'dist', 'notes.md'), 'plain notes');
  writeFileSync(join(tree, 'dist', 'notes.md.br'), brotliCompressSync('plain notes'));
  // A `.br` with no original: the original's path is still a 404.
  writeFileSync(join(tree, 'dist', 'gone.js.br'), brotliCompressSync(JS));
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

const CHROMIUM_AE = 'gzip, deflate, br, zstd';
const decode = { br: brotliDecompressSync, gzip: gunzipSync, identity: (b) => b };

/** Checks one answer: the encoding chosen, the body decoding to `original`, its length, Vary. */
function assertServed(res, encoding, original, what) {
  assert.equal(res.status, 200, `${what}: status ${res.status}`);
  assert.equal(res.headers['content-encoding'], encoding === 'identity' ? undefined : encoding, `${what}: Content-Encoding`);
  assert.match(res.headers.vary ?? '', /\baccept-encoding\b/i, `${what}: Vary is ${res.headers.vary}`);
  assert.equal(Number(res.headers['content-length']), res.body.length, `${what}: Content-Length is the bytes sent`);
  assert.deepEqual(decode[encoding](res.body), Buffer.from(original), `${what}: the bytes decode to the original`);
  if (encoding !== 'identity') assert.ok(res.body.length < Buffer.byteLength(original), `${what}: smaller than the original`);
}

test('compression: br is preferred, gzip next, identity when nothing is accepted', async () => {
  await withServer(async (s) => {
    assertServed(await s.send('GET', '/app.js', { 'accept-encoding': CHROMIUM_AE }), 'br', JS, "Chromium's Accept-Encoding");
    assertServed(await s.send('GET', '/app.js', { 'accept-encoding': 'gzip, br' }), 'br', JS, 'gzip, br');
    assertServed(await s.send('GET', '/app.js', { 'accept-encoding': 'gzip' }), 'gzip', JS, 'gzip');
    assertServed(await s.send('GET', '/app.js', { 'accept-encoding': 'x-gzip' }), 'gzip', JS, 'x-gzip');
    assertServed(await s.send('GET', '/app.js', { 'accept-encoding': 'GZIP' }), 'gzip', JS, 'GZIP');
    assertServed(await s.send('GET', '/app.js'), 'identity', JS, 'no Accept-Encoding');
    assertServed(await s.send('GET', '/app.js', { 'accept-encoding': '' }), 'identity', JS, 'an empty Accept-Encoding');
    assertServed(await s.send('GET', '/app.js', { 'accept-encoding': 'deflate, zstd' }), 'identity', JS, 'only codings we have not');
    assertServed(await s.send('GET', '/app.js', { 'accept-encoding': 'identity' }), 'identity', JS, 'identity');
    assertServed(await s.send('GET', '/', { 'accept-encoding': CHROMIUM_AE }), 'br', HOME, 'a folder\'s index.html');
    assertServed(await s.send('GET', '/index.html?x=1', { 'accept-encoding': 'gzip' }), 'gzip', HOME, 'a query string');
  });
});

test('compression: q-values are honoured and q=0 refuses a coding', async () => {
  await withServer(async (s) => {
    const cases = [
      ['br;q=0, gzip', 'gzip'], ['br;q=0.5, gzip;q=0.8', 'gzip'], ['br;q=0.9, gzip;q=0.8', 'br'],
      ['br;q=0, gzip;q=0', 'identity'], ['*;q=0', 'identity'], ['*', 'br'], ['*, br;q=0', 'gzip'],
      ['gzip;q=0.2, identity', 'identity'], ['br;q=0.5', 'br'], ['br; q=1.0, gzip', 'br'],
      ['br;q=2, gzip', 'gzip'], ['br;q=abc, gzip', 'gzip'], ['gzip;q=0.001', 'gzip'], [' , ;;, gzip', 'gzip'],
    ];
    for (const [ae, want] of cases) assertServed(await s.send('GET', '/app.js', { 'accept-encoding': ae }), want, JS, `Accept-Encoding: ${ae}`);
  });
});

test('compression: a missing .br falls back to the .gz, then to the file itself', async () => {
  await withServer(async (s) => {
    assertServed(await s.send('GET', '/only-gz.js', { 'accept-encoding': CHROMIUM_AE }), 'gzip', JS, 'no .br');
    assertServed(await s.send('GET', '/only-gz.js', { 'accept-encoding': 'br' }), 'identity', JS, 'no .br, gzip not accepted');
    const txt = await s.send('GET', '/notes.md', { 'accept-encoding': 'br' });
    assert.equal(txt.headers['content-encoding'], undefined, 'a .md is not one of the compressed kinds');
    assert.equal(txt.body.toString(), 'plain notes');
    const gone = await s.send('GET', '/gone.js', { 'accept-encoding': 'br' });
    assert.equal(gone.status, 404, 'a .br whose original is gone is no file');
    assert.equal(gone.headers['content-encoding'], undefined, 'an error page is never marked compressed');
    const missing = await s.send('GET', '/nope.wasm', { 'accept-encoding': CHROMIUM_AE });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers['content-encoding'], undefined);
    assert.equal(missing.body.toString(), '404\n');
  });
});

test('compression: each file keeps its own Content-Type', async () => {
  await withServer(async (s) => {
    for (const path of ['/app.js', '/style.css', '/icon.svg', '/index.html', '/app_bg.wasm', '/lab/']) {
      const plain = await s.send('GET', path);
      assert.equal(plain.status, 200, path);
      for (const ae of ['br', 'gzip']) {
        const packed = await s.send('GET', path, { 'accept-encoding': ae });
        assert.equal(packed.headers['content-encoding'], ae, `${path} as ${ae}`);
        assert.equal(packed.headers['content-type'], plain.headers['content-type'], `${path} as ${ae}: the original's Content-Type`);
        assert.deepEqual(decode[ae](packed.body), plain.body, `${path} as ${ae}`);
      }
    }
    const wasm = await s.send('GET', '/app_bg.wasm', { 'accept-encoding': CHROMIUM_AE });
    assert.equal(wasm.headers['content-type'], 'application/wasm', 'streaming instantiation needs application/wasm');
    assert.deepEqual(brotliDecompressSync(wasm.body), WASM);
  });
});

test('compression: HEAD gives the headers of the GET, a Range gets the file itself', async () => {
  await withServer(async (s) => {
    const get = await s.send('GET', '/app.js', { 'accept-encoding': 'br' });
    const head = await s.send('HEAD', '/app.js', { 'accept-encoding': 'br' });
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0, 'HEAD has no body');
    for (const h of ['content-encoding', 'content-type', 'content-length', 'etag', 'vary']) {
      assert.equal(head.headers[h], get.headers[h], `HEAD's ${h}`);
    }
    const range = await s.send('GET', '/app.js', { 'accept-encoding': 'br', range: 'bytes=0-5' });
    assert.equal(range.status, 206);
    assert.equal(range.headers['content-encoding'], undefined, 'a range is of the identity bytes');
    assert.equal(range.body.toString(), JS.slice(0, 6));
    assert.equal(range.headers['content-range'], `bytes 0-5/${Buffer.byteLength(JS)}`);
    assert.match(range.headers.vary ?? '', /accept-encoding/i);
    // The compressed and the plain answers are told apart by validators too.
    const plain = await s.send('GET', '/app.js');
    assert.notEqual(get.headers.etag, plain.headers.etag, 'the .br has its own ETag');
    const again = await s.send('GET', '/app.js', { 'accept-encoding': 'br', 'if-none-match': get.headers.etag });
    assert.equal(again.status, 304);
  });
});

test('compression: a traversal or a bad path is refused before a compressed copy is looked for', async () => {
  await withServer(async (s) => {
    for (const path of ['/..%2Fdist-secret/secret.txt', '/../dist-secret/x.js', '/%2E%2E/dist-secret/x.js', '/%E0%A4%A.js', '/.hidden.js', '//evil.example/a.js']) {
      const res = await s.send('GET', path, { 'accept-encoding': CHROMIUM_AE });
      assert.ok(res.status >= 400 && res.status < 500, `GET ${path} answered ${res.status}`);
      assert.equal(res.headers['content-encoding'], undefined, `GET ${path}`);
      assert.equal(res.headers.location, undefined, `GET ${path}`);
    }
    await s.alive('the traversal attempts with Accept-Encoding');
  });
});
