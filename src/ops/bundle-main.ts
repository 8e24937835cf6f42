import fs from 'node:fs';
import path from 'node:path';

/**
 * `npm run build`, after tsc: dist/main.js (what `npm start` runs) becomes one esbuild bundle of
 * the bot, so the process holds one module for our code and the pure-JS libraries we use instead
 * of one per file (zod alone is about 100, 64 of them its locales), trimmed to what is used:
 * about 12 MiB less resident memory at ready (bench/rss-child.mjs, the memory line). tsc's
 * per-module output stays beside it for the worker threads, the other scripts and the tests. Run
 * from the project root.
 *
 * Each module's own `import.meta.url` (how it finds migrations, units.json, verify.html and the
 * workers beside it) is rewritten to the URL of its tsc-built file, so every path resolves
 * exactly as it does unbundled.
 */
const root = process.cwd();
const outfile = path.join(root, 'dist/main.js');

/**
 * Left to node_modules: native addons, libraries that start threads or load files by path
 * (pino's transports, pg's optional native driver), and discord.js with its optional codecs.
 */
const EXTERNAL = ['better-sqlite3', '@resvg/resvg-js', 'discord.js', '@discordjs/*', 'pg', 'pino'];

/** The URL a source module has once tsc has built it into dist/, relative to dist/main.js. */
const builtUrlOf = (file: string) => `./${path.relative(root, file).split(path.sep).join('/').replace(/\.ts$/, '.js')}`;

const { build } = await import('esbuild');
await build({
  entryPoints: [path.join(root, 'main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: EXTERNAL,
  minify: true,
  // Error and class names stay readable in the logs.
  keepNames: true,
  sourcemap: true,
  legalComments: 'eof',
  // A bundled CommonJS library may call require(): give the ES module one.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  plugins: [
    {
      name: 'module-urls',
      setup(b) {
        b.onLoad({ filter: /\.ts$/ }, async (args) => {
          if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
          const source = await fs.promises.readFile(args.path, 'utf8');
          const url = `new URL(${JSON.stringify(builtUrlOf(args.path))}, import.meta.url).href`;
          return { contents: source.replaceAll('import.meta.url', url), loader: 'ts' };
        });
      },
    },
  ],
});
process.stdout.write(`built ${path.relative(root, outfile)} (${Math.round(fs.statSync(outfile).size / 1024)} KiB, one bundle)\n`);
