// A tiny static file server for dist/: `make serve` uses it on port 8080 and the end-to-end tests
// on a free port, which it writes to a file so tests never collide with a port in use.
//   node scripts/serve-dist.mjs [root=dist] [port-file] [port=0]
import { createServer } from 'node:http';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';

const [root = 'dist', portFile = '', port = '0'] = process.argv.slice(2);
const base = resolve(root);
const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json', '.png': 'image/png',
};

const server = createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  const path = decodeURIComponent(url.pathname);
  let file = normalize(join(base, path));
  if (!file.startsWith(base)) { res.writeHead(403).end(); return; }
  try {
    if ((await stat(file)).isDirectory()) {
      // `/lab` -> `/lab/`, so the page's relative asset URLs resolve inside its folder.
      if (!path.endsWith('/')) { res.writeHead(301, { location: `${url.pathname}/${url.search}` }).end(); return; }
      file = join(file, 'index.html');
    }
    const body = await readFile(file);
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    res.end(body);
  } catch {
    res.writeHead(404).end('not found');
  }
});
server.listen(Number(port), '127.0.0.1', async () => {
  const { port: actual } = server.address();
  if (portFile) await writeFile(portFile, String(actual));
  console.log(`serving ${base} on http://127.0.0.1:${actual}/`);
});
