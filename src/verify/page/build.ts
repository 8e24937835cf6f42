import fs from 'node:fs';
import path from 'node:path';
import { PAGE_WORDS } from './words.js';

/**
 * `npm run build` ends here: verify.html, one self-contained file (inline script and style, no
 * network: its Content-Security-Policy allows no fetch at all), bundled by esbuild from the same
 * verification modules as `npm run verify`, so the two cannot drift. Written to dist/verify.html,
 * which /export and /game end attach. Run from the project root (it reads src/).
 */
const root = process.cwd();
const page = (file: string) => path.join(root, 'src/verify/page', file);

// 'wasm-unsafe-eval' lets the page compile WebAssembly (its SHA-256, crypto-shim.ts) and nothing else: eval stays refused.
const CSP = "default-src 'none'; script-src 'unsafe-inline' 'wasm-unsafe-eval'; worker-src blob:; style-src 'unsafe-inline'; img-src data:";

// overflow-wrap on the whole page: its hashes, keys, fingerprints, receipt lines and file names have no
// break in them, and one wider than a phone's screen would widen the page; anywhere (break-word before
// it, for older Safari) breaks such a token only where it cannot fit whole.
const STYLE = `body{font:16px/1.45 system-ui,sans-serif;max-width:56rem;margin:2rem auto;padding:0 1rem;color:#1d1f24;background:#fafafa;overflow-wrap:break-word;overflow-wrap:anywhere}
h1{font-size:1.5rem}label{display:block;margin:.8rem 0 .2rem;font-weight:600}input[type=text],textarea{width:100%;box-sizing:border-box;font:14px monospace;padding:.4rem}
textarea{height:9rem}#drop{border:2px dashed #8a8f98;border-radius:8px;padding:1.5rem;text-align:center}#drop.over{background:#e8f0fe}
button{margin-top:1rem;font-size:1rem;padding:.5rem 1.5rem}pre{white-space:pre-wrap;background:#fff;border:1px solid #ddd;padding:.8rem}
.ok{color:#0b6b2b}.bad{color:#a31515}progress{width:100%}@media (prefers-color-scheme:dark){body{background:#1e1f22;color:#e3e5e8}pre{background:#2b2d31;border-color:#444}.ok{color:#57d98a}.bad{color:#ff8080}}`;

const EN = PAGE_WORDS.en;
// The English words are written here; the page puts the reader's own in at load (words.ts, by data-w).
const BODY = `<main>
<h1 data-w="heading">${EN.heading}</h1>
<p id="intro">${EN.intro}</p>
<div id="drop"><span data-w="dropHere">${EN.dropHere}</span> <input type="file" id="file" accept=".jsonl,.json,.txt" aria-label="${EN.fileLabel}"><div id="chosen" data-w="noneChosen">${EN.noneChosen}</div></div>
<label for="head" data-w="head">${EN.head}</label><input type="text" id="head" spellcheck="false">
<label for="receipt" data-w="receipt">${EN.receipt}</label><textarea id="receipt" spellcheck="false"></textarea>
<label for="key" data-w="key">${EN.key}</label><input type="text" id="key" spellcheck="false">
<label for="discord-key" data-w="discordKey">${EN.discordKey}</label><input type="text" id="discord-key" spellcheck="false">
<button id="check" type="button" data-w="check">${EN.check}</button>
<progress id="progress" max="1" value="0" hidden></progress><p id="status" role="status"></p>
<p id="verdict"></p><p id="heads"></p><p id="report-note" data-w="reportNote"></p><pre id="report"></pre><pre id="receipt-report"></pre>
</main>`;

async function bundle(entry: string, define: Record<string, string> = {}): Promise<string> {
  const { build } = await import('esbuild');
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'inline',
    alias: { 'node:crypto': page('crypto-shim.ts') },
    define,
  });
  return out.outputFiles[0]!.text;
}

const worker = await bundle(page('worker.ts'));
const script = await bundle(page('page.ts'), { WORKER_SOURCE: JSON.stringify(worker) });
// A script may not contain "</script": the only way it could is inside a string, so escape it there.
const inline = script.replace(/<\/script/gi, '<\\/script');
const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${EN.title}</title>
<style>${STYLE}</style></head><body>${BODY}<script>${inline}</script></body></html>
`;
const target = path.join(root, 'dist/verify.html');
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, html);
process.stdout.write(`built ${path.relative(root, target)} (${Math.round(html.length / 1024)} KiB)\n`);
