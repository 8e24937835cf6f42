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
const outdir = path.join(root, 'dist');

/**
 * Left to node_modules: native addons, libraries that start threads or load files by path
 * (pino's transports, pg's optional native driver), and discord.js with its optional codecs.
 */
const EXTERNAL = ['better-sqlite3', '@resvg/resvg-js', 'discord.js', '@discordjs/*', 'pg', 'pino'];

/** The URL a source module has once tsc has built it into dist/, relative to dist/main.js. */
const builtUrlOf = (file: string) => `./${path.relative(root, file).split(path.sep).join('/').replace(/\.ts$/, '.js')}`;

/**
 * Our source with every character past ASCII written as a `\uXXXX` escape, which means the same in a
 * string, a template, a regular expression or an identifier. esbuild escapes strings itself but
 * leaves regular expressions as written, and one quotation mark in one of them made node hold the
 * whole bundle's source as UTF-16: 3.9 MiB of memory for the life of the process instead of 1.9.
 */
function asciiOnly(source: string, file: string): string {
  // A backslash before such a character (a needless escape) would become a literal backslash.
  const escaped = /\\[\u0080-\uffff]/.exec(source);
  if (escaped) throw new Error(`${file}: a backslash before a non-ASCII character (offset ${escaped.index}); write the character alone`);
  return source.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const { build } = await import('esbuild');
// Built in memory, checked, then written: a bundle that fails its check is not written (dist/main.js
// is then tsc's own, which loads the unbundled modules, and the build fails).
const built = await build({
  write: false,
  entryPoints: [path.join(root, 'main.ts')],
  outdir,
  // dist/main.js stays the entry and loads the bot's bundle (dist/bot-*.js) once the young
  // generation's growth is stopped (main.ts); every module's URL is relative to dist/, as before.
  splitting: true,
  chunkNames: 'bot-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: EXTERNAL,
  minifyWhitespace: true,
  minifySyntax: true,
  // Names are kept as written, so error and class names read in the logs: esbuild's keepNames,
  // with minified names, set each function's name again at load (1.3 MiB more heap at ready).
  minifyIdentifiers: false,
  sourcemap: true,
  legalComments: 'eof',
  // A bundled CommonJS library may call require(): give the ES module one.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  plugins: [
    {
      // discord.js requires @discordjs/rest's CommonJS build; an import of it would load its ES build
      // beside it, a second copy of it and of its dependencies (about 1 MiB of heap). One copy serves both.
      name: 'one-discordjs-rest',
      setup(b) {
        b.onResolve({ filter: /^@discordjs\/rest$/ }, (args) =>
          args.namespace === 'commonjs-rest' ? { path: args.path, external: true } : { path: args.path, namespace: 'commonjs-rest' },
        );
        b.onLoad({ filter: /.*/, namespace: 'commonjs-rest' }, () => ({ contents: "module.exports = require('@discordjs/rest');", loader: 'js' }));
      },
    },
    {
      name: 'module-urls',
      setup(b) {
        b.onLoad({ filter: /\.ts$/ }, async (args) => {
          if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
          const source = await fs.promises.readFile(args.path, 'utf8');
          const url = `new URL(${JSON.stringify(builtUrlOf(args.path))}, import.meta.url).href`;
          return { contents: asciiOnly(source.replaceAll('import.meta.url', url), args.path), loader: 'ts' };
        });
      },
    },
  ],
});
for (const out of built.outputFiles.filter((f) => f.path.endsWith('.js'))) {
  const stray = /[\u0080-\uffff]/.exec(out.text);
  if (stray) throw new Error(`${path.relative(root, out.path)} is not ASCII at ${stray.index}: node would hold its source as two bytes a character`);
}
// The chunks of a build before this one are not this build's: removed, so only what main.js loads is there.
for (const old of fs.readdirSync(outdir).filter((f) => /^bot-\w+\.js(\.map)?$/.test(f))) fs.rmSync(path.join(outdir, old));
for (const out of built.outputFiles) {
  fs.writeFileSync(out.path, out.contents);
  if (out.path.endsWith('.js')) process.stdout.write(`built ${path.relative(root, out.path)} (${Math.round(out.contents.length / 1024)} KiB)\n`);
}
