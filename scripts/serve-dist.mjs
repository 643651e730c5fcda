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
//   - an error page with the status and nothing else, and a last-resort catch so that no request
//     can end the process.
import { createServer } from 'node:http';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import serveStatic from 'serve-static';

const [root = 'dist', portFile = '', port = '0'] = process.argv.slice(2);
const base = resolve(root);
const files = serveStatic(base, { fallthrough: false });

function fail(res, status) {
  if (res.headersSent) { res.destroy(); return; }
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
    files(req, res, (err) => fail(res, err?.statusCode ?? err?.status ?? 404));
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
