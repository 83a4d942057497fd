// After `vite build`: writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip -9) beside
// every text file in dist/ larger than 1 KiB. The server embeds them and answers with one of
// them when the request's Accept-Encoding allows it (docs/ANALYST-FLOW.md, "Speed over a real
// network"). Images and fonts are compressed already and are left alone.
import { readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const DIST = new URL('../dist/', import.meta.url).pathname;
const MIN_BYTES = 1024;
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|xml|webmanifest)$/i;

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? files(path) : [path];
  });
}

let originalBytes = 0;
let brotliBytes = 0;
let gzipBytes = 0;
let count = 0;
for (const path of files(DIST)) {
  // A rerun over an existing dist: old variants are rewritten from their originals.
  if (path.endsWith('.br') || path.endsWith('.gz')) {
    unlinkSync(path);
    continue;
  }
}
for (const path of files(DIST)) {
  if (!COMPRESSIBLE.test(path) || statSync(path).size <= MIN_BYTES) continue;
  const data = readFileSync(path);
  const br = brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
  const gz = gzipSync(data, { level: 9 });
  writeFileSync(`${path}.br`, br);
  writeFileSync(`${path}.gz`, gz);
  originalBytes += data.length;
  brotliBytes += br.length;
  gzipBytes += gz.length;
  count += 1;
}

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
console.log(
  `precompress: ${count} files in ${relative(process.cwd(), DIST) || '.'}: ${kib(originalBytes)} -> ` +
    `${kib(brotliBytes)} brotli, ${kib(gzipBytes)} gzip`,
);
