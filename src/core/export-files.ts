import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { HistoryFilter } from '../ledger/history.js';
import type { LedgerStore } from '../ledger/store.js';
import type { RawRow } from '../ledger/rows.js';
import { toCsv, toJsonl, type ExportRow } from '../render/export.js';
import { Spool } from '../util/spool.js';
import type { KeyRecord } from '../ledger/signing-keys.js';

/** `keys`: the receipt keys, listed after the rows of the JSON Lines so verifiers can check receipts against them. */
export type ExportJob = { filter: HistoryFilter; limit: number; stamp: string; keys?: KeyRecord[] };

/** Where an export reads: the rows in chunks, and the message that showed each (SQLite's History, or a store's history). */
export type ExportSource = {
  rawChunks(f: HistoryFilter): AsyncGenerator<RawRow[]>;
  messages(rollIds: string[]): Map<string, string> | Promise<Map<string, string>>;
};
/** The files written, or how many rows had been read when they passed the limit (nothing kept). */
export type ExportResult = { ok: true; rows: number; files: { name: string; path: string; bytes: number }[] } | { ok: false; rows: number };

/** One chunk as CSV and JSON Lines, with the message that showed each row. */
async function render(history: ExportSource, chunk: RawRow[], header: boolean) {
  const messages = await history.messages(chunk.map((r) => r.id));
  const rows: ExportRow[] = chunk.map((r) => ({ ...r, message_id: messages.get(r.id) ?? null }));
  return { csv: toCsv(rows, header), jsonl: toJsonl(rows), rows: rows.length };
}

/**
 * Every row the filter matches, oldest first, written to two spooled files (CSV and JSON Lines) a
 * chunk at a time: memory holds one chunk whatever the ledger's size. Past `limit` bytes the files
 * are removed and the result says so, so nothing grows past what the reply could carry.
 */
export async function writeExport(history: ExportSource, job: ExportJob): Promise<ExportResult> {
  const spool = await Spool.create();
  try {
    const csv = await spool.file(`ledger-${job.stamp}.csv`);
    const jsonl = await spool.file(`ledger-${job.stamp}.jsonl`);
    let count = 0;
    for await (const chunk of history.rawChunks(job.filter)) {
      const part = await render(history, chunk, count === 0);
      if (csv.bytes + jsonl.bytes + Buffer.byteLength(part.csv) + Buffer.byteLength(part.jsonl) > job.limit) {
        await spool.discard();
        return { ok: false, rows: count + part.rows };
      }
      await csv.write(part.csv);
      await jsonl.write(part.jsonl);
      count += part.rows;
    }
    // An empty export still has the CSV header.
    if (!count) await csv.write(toCsv([]));
    const keys = (job.keys ?? []).map((k) => `${JSON.stringify({ signing_key: k })}\n`).join('');
    if (csv.bytes + jsonl.bytes + Buffer.byteLength(keys) > job.limit) {
      await spool.discard();
      return { ok: false, rows: count };
    }
    await jsonl.write(keys);
    await spool.close();
    return { ok: true, rows: count, files: [csv, jsonl].map((f) => ({ name: f.name, path: f.path, bytes: f.bytes })) };
  } catch (err) {
    await spool.discard();
    throw err;
  }
}

/**
 * A worker's heap, kept small so its collector runs early: an export of 1,000,000 rows peaked at
 * 1.40× the bot's idle RSS with these limits, 1.53× with a 16 MiB young generation, and 1.66× on
 * the main thread (V8 let the garbage grow to 127 MiB before its first full collection). The
 * export's CPU is also off the thread that serves every server.
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 4 };

/**
 * A worker on a module beside this one. Built, it is plain JS; run from the TypeScript sources
 * (tests, `npm run console`) the worker first registers tsx's loader, which a worker does not inherit.
 */
function startWorker(name: string, workerData: unknown): Worker {
  const ts = import.meta.url.endsWith('.ts');
  const entry = new URL(`./${name}.${ts ? 'ts' : 'js'}`, import.meta.url);
  if (!ts) return new Worker(entry, { workerData, resourceLimits: WORKER_LIMITS });
  // tsx's ESM register API (the `import` side of its "./esm/api" export), then the entry.
  const pkg = createRequire(import.meta.url).resolve('tsx/package.json');
  const api = pathToFileURL(path.join(path.dirname(pkg), 'dist/esm/api/index.mjs')).href;
  const boot = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(boot, { eval: true, workerData, resourceLimits: WORKER_LIMITS });
}

/**
 * Runs a SQLite file's export in a worker thread on its own read-only connection; in-thread where
 * there is no file (memory, PostgreSQL, whose reads wait on the network, not the thread).
 */
export function exportLedger(ledger: LedgerStore, job: ExportJob): Promise<ExportResult> {
  if (!ledger.sqliteFile) return writeExport(ledger.history, job);
  const worker = startWorker('export-worker', { file: ledger.sqliteFile, job });
  return new Promise((resolve, reject) => {
    let settled = false;
    worker.once('message', (m: { result?: ExportResult; error?: string }) => {
      settled = true;
      if (m.result) resolve(m.result);
      else reject(new Error(`export worker: ${m.error}`));
    });
    worker.once('error', (err) => {
      settled = true;
      reject(err);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`export worker exited with code ${code} before answering`));
    });
  });
}
