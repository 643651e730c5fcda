// The static server for dist/: `make serve` uses it on port 8080 and the end-to-end tests on a free
// port, which it writes to a file so tests never collide with a port in use.
//   node scripts/serve-dist.mjs [root=dist] [port-file] [port=0]
//
// Files are served by serve-static (Express's static handler, over `send`), pinned in
// package-lock.json. It decodes the path inside its own error handling (a malformed URL is a 400),
// refuses `..` after decoding (403), never serves dotfiles, answers only GET and HEAD (405 with
// `Allow: GET, HEAD` otherwise), parses Range headers properly, and redirects a folder without
// its trailing slash (`/lab` -> `/lab/`, so the lab page's relative asset URLs resolve inside its
// folder) to the same path with leading slashes collapsed, percent-encoded. This wrapper only adds:
//   - a request target that is not a plain path (`http://host/…`, `*`, `//…`, `/\…`) is a 400
//     before serve-static sees it, so a redirect can only ever name a path on this origin;
//   - an error page with the status and nothing else (no header of the file it failed on), and a
//     last-resort catch so that no request can end the process;
//   - precompressed files, as a static host serves them: for a .wasm, .js, .css, .html or .svg
//     path (or a folder's `/`, meaning its index.html) whose file exists, the `.br` or `.gz` that
//     scripts/compress.mjs wrote beside it, chosen by Accept-Encoding: the highest q-value wins,
//     br before gzip on a tie, `q=0` refuses a coding, `*` stands for the codings not named, and
//     identity is the last resort (a missing .br falls back to the .gz, then to the file itself).
//     The compressed file is asked of serve-static under its own name (the path with `.br` or
//     `.gz` appended), so every rule above applies to it as to the original; the response keeps
//     the original's Content-Type and adds `Content-Encoding`, and its Content-Length, ETag and
//     Last-Modified are the compressed file's. Every such path answers `Vary: Accept-Encoding`.
//     A request with a Range header gets the file itself (a range of the identity bytes).
import { createServer } from 'node:http';
import { writeFile } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { resolve, extname, join, sep } from 'node:path';
import serveStatic from 'serve-static';
import { COMPRESSIBLE, ENCODINGS } from './compress.mjs';

const [root = 'dist', portFile = '', port = '0'] = process.argv.slice(2);
const base = resolve(root);
/** The Content-Type of each compressible extension, as serve-static sends the file itself. */
const TYPES = {
  '.wasm': 'application/wasm', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8', '.svg': 'image/svg+xml', '.txt': 'text/plain; charset=utf-8',
};
const ENCODING = Symbol('content-encoding');
const files = serveStatic(base, {
  fallthrough: false,
  // Called once the file is found, before its Content-Type is chosen (send keeps one already set).
  setHeaders(res, path) {
    const encoding = res[ENCODING];
    if (!encoding) return;
    const suffix = ENCODINGS.find(([name]) => name === encoding)[1];
    res.setHeader('Content-Encoding', encoding);
    res.setHeader('Content-Type', TYPES[extname(path.slice(0, -suffix.length))] ?? 'application/octet-stream');
  },
});

/** Accept-Encoding as { coding: q }; entries that do not parse are ignored. */
function acceptEncoding(header) {
  const q = {};
  for (const part of (header ?? '').split(',')) {
    const [coding, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    if (!/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(coding ?? '')) continue;
    let value = 1;
    let bad = false;
    for (const p of params) {
      const m = p.match(/^q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/);
      if (m) value = Number(m[1]);
      else if (p.startsWith('q')) bad = true;
    }
    if (!bad) q[coding === 'x-gzip' ? 'gzip' : coding] = value;
  }
  return q;
}

/** The encodings to try, best first: each coding the request accepts at least as much as
 * identity, by q-value (br before gzip on a tie), then identity, the last resort (RFC 9110
 * 12.5.3: with no acceptable coding, send none). Identity not named takes the lowest q listed. */
function encodingsFor(header) {
  const q = acceptEncoding(header);
  const listed = Object.values(q);
  const of = (coding) => q[coding] ?? q['*'] ?? (coding === 'identity' && listed.length ? Math.min(...listed) : 0);
  const identity = of('identity');
  const codings = ENCODINGS.map(([name]) => ({ name, q: of(name) }))
    .filter((e) => e.q > 0 && e.q >= identity)
    .sort((a, b) => b.q - a.q); // stable: on a tie the order of ENCODINGS (br, gzip) stays
  return [...codings.map((e) => e.name), 'identity'];
}

/** Whether the original of a compressed copy is a file in the root: a copy whose original is
 * gone is never sent. Only decides whether to look for a copy (serve-static still decodes and
 * checks the path it serves); on any doubt (a malformed escape, a dot segment) the answer is no,
 * and serve-static answers the request as it would without compression. */
function originalExists(path) {
  let decoded;
  try { decoded = decodeURIComponent(path); } catch { return false; }
  if (decoded.includes('\0') || decoded.split(/[/\\]/).some((seg) => seg.startsWith('.'))) return false;
  const full = join(base, decoded);
  if (!full.startsWith(base + sep)) return false;
  try { return statSync(full).isFile(); } catch { return false; }
}

/** Serves the first of `tries` ({ url, encoding }) that exists; a 404 moves on to the next. */
function serve(req, res, tries) {
  const [first, ...rest] = tries;
  req.url = first.url;
  res[ENCODING] = first.encoding;
  files(req, res, (err) => {
    const status = err?.statusCode ?? err?.status ?? 404;
    if (status === 404 && rest.length && !res.headersSent) serve(req, res, rest);
    else fail(res, status);
  });
}

function fail(res, status) {
  if (res.headersSent) { res.destroy(); return; }
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  const body = `${status}\n`;
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-content-type-options': 'nosniff',
    ...(status === 405 ? { allow: 'GET, HEAD' } : {}),
  });
  res.end(body);
}

const server = createServer((req, res) => {
  try {
    // The method first (so `OPTIONS *` is a 405 too), then origin-form only: one `/`, then
    // anything but another slash or a backslash (which browsers read as a slash).
    if (req.method !== 'GET' && req.method !== 'HEAD') { fail(res, 405); return; }
    if (!/^\/(?![/\\])/.test(req.url)) { fail(res, 400); return; }
    const url = req.url;
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    const file = path.endsWith('/') ? `${path}index.html` : path;
    if (!COMPRESSIBLE.includes(extname(file))) { serve(req, res, [{ url }]); return; }
    res.setHeader('Vary', 'Accept-Encoding');
    const tries = req.headers.range === undefined && originalExists(file)
      ? encodingsFor(req.headers['accept-encoding']).map((name) => (name === 'identity'
        ? { url }
        : { url: file + ENCODINGS.find(([n]) => n === name)[1] + url.slice(path.length), encoding: name }))
      : [{ url }];
    serve(req, res, tries);
  } catch (err) {
    console.error(`[serve] ${req.method} ${JSON.stringify(req.url)}: ${err?.message ?? err}`);
    fail(res, 500);
  }
});
server.listen(Number(port), '127.0.0.1', async () => {
  const { port: actual } = server.address();
  if (portFile) await writeFile(portFile, String(actual));
  console.log(`serving ${base} on http://127.0.0.1:${actual}/`);
});
