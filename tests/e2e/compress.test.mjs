// scripts/compress.mjs, as scripts/build.sh runs it at its end: no browser, a temporary tree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../scripts/compress.mjs', import.meta.url));

test('compress: a .br and a .gz beside each compressible file, decoding to it; stale copies go', () => {
  const tree = mkdtempSync(join(tmpdir(), 'compress-test-'));
  try {
    mkdirSync(join(tree, 'lab'));
    const text = (line) => line.repeat(300);
    const files = {
      'index.html': text('<p>a paragraph</p>\n'), 'app.js': text('export const x = 1;\n'),
      'app.css': text('main { margin: 0; }\n'), 'icon.svg': text('<rect width="1"/>'),
      'lab/lab_bg.wasm': Buffer.concat([Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), Buffer.alloc(5000, 7)]),
      'notes.md': text('not compressed\n'), 'words-en.txt': text('a lesson\u001f'), 'tiny.js': '1',
    };
    for (const [name, body] of Object.entries(files)) writeFileSync(join(tree, name), body);
    // Left from an earlier build: a copy whose original is gone, and a stale copy of tiny.js.
    writeFileSync(join(tree, 'old-123.js.br'), 'stale');
    writeFileSync(join(tree, 'lab', 'old-123_bg.wasm.gz'), 'stale');
    writeFileSync(join(tree, 'tiny.js.gz'), 'stale');
    const run = spawnSync(process.execPath, [SCRIPT, tree], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /\[compress\] 7 files under/);
    for (const name of ['index.html', 'app.js', 'app.css', 'icon.svg', 'lab/lab_bg.wasm', 'words-en.txt']) {
      const original = readFileSync(join(tree, name));
      const br = readFileSync(join(tree, `${name}.br`));
      const gz = readFileSync(join(tree, `${name}.gz`));
      assert.deepEqual(brotliDecompressSync(br), original, `${name}.br`);
      assert.deepEqual(gunzipSync(gz), original, `${name}.gz`);
      assert.ok(br.length < gz.length && gz.length < original.length, `${name}: ${br.length} < ${gz.length} < ${original.length}`);
    }
    assert.ok(!existsSync(join(tree, 'notes.md.br')) && !existsSync(join(tree, 'notes.md.gz')), 'a .md is not compressed');
    assert.ok(!existsSync(join(tree, 'tiny.js.br')) && !existsSync(join(tree, 'tiny.js.gz')), 'no copy larger than its original');
    assert.match(run.stdout, /tiny\.js \(1 bytes\) is sent as it is/);
    assert.ok(!existsSync(join(tree, 'old-123.js.br')) && !existsSync(join(tree, 'lab', 'old-123_bg.wasm.gz')), 'copies of files gone are removed');
    // A second run changes nothing.
    const before = readFileSync(join(tree, 'app.js.br'));
    assert.equal(spawnSync(process.execPath, [SCRIPT, tree]).status, 0);
    assert.deepEqual(readFileSync(join(tree, 'app.js.br')), before, 'brotli is deterministic');
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
});

test('compress: a folder that is not there is an error, not an empty success', () => {
  const run = spawnSync(process.execPath, [SCRIPT, join(tmpdir(), 'no-such-dist-here')], { encoding: 'utf8' });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /does not exist: build it first/);
});
