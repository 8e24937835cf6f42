import type { HistoryFilter } from '../ledger/history.js';
import type { LedgerStore } from '../ledger/store.js';
import type { RawRow } from '../ledger/rows.js';
import { toCsv, toJsonl, type ExportRow } from '../render/export.js';
import { Spool } from '../util/spool.js';
import { answerOf, besideModule, startWorker } from '../util/worker.js';
import type { KeyRecord } from '../ledger/signing-keys.js';
import type { KeptEvidence } from '../ledger/contract.js';
import { EVIDENCE_EMBARGO_MS } from '../verify/evidence.js';
import { inflateRawSync } from 'node:zlib';
import type { Logger } from '../log.js';
import { saltIdsOf } from '../ledger/people.js';

/** `keys`: the receipt keys, listed after the rows of the JSON Lines so verifiers can check receipts against them. */
export type ExportJob = {
  filter: HistoryFilter;
  limit: number;
  stamp: string;
  keys?: KeyRecord[];
  /** The export's clock (ms): evidence younger than 15 minutes by it is left out. */
  now?: number;
};

/** Where an export reads: the rows in chunks, and the message that showed each (SQLite's History, or a store's history). */
export type ExportSource = {
  rawChunks(f: HistoryFilter): AsyncGenerator<RawRow[]>;
  messages(rollIds: string[]): Map<string, string> | Promise<Map<string, string>>;
  evidenceOf(interactionIds: string[]): Map<string, KeptEvidence> | Promise<Map<string, KeptEvidence>>;
  saltsOf(saltIds: string[]): Map<string, string> | Promise<Map<string, string>>;
};
/** The files written, or how many rows had been read when they passed the limit (nothing kept). */
export type ExportResult = { ok: true; rows: number; files: { name: string; path: string; bytes: number }[] } | { ok: false; rows: number };

/** One chunk as CSV and JSON Lines, with the message that showed each row. */
async function render(history: ExportSource, chunk: RawRow[], header: boolean, now: number) {
  const messages = await history.messages(chunk.map((r) => r.id));
  const salts = await saltsOfChunk(history, chunk);
  const rows: ExportRow[] = chunk.map((r) => ({ ...r, message_id: messages.get(r.id) ?? null, salts: r.chained ? saltsNamed(r.chained, salts) : undefined }));
  return { csv: toCsv(rows, header), jsonl: toJsonl(rows) + (await evidenceLines(history, chunk, now)), rows: rows.length };
}

/** The salts still kept of the people a chunk's committed rows name: each row carries its own, so any part of the file checks alone. */
async function saltsOfChunk(history: ExportSource, chunk: RawRow[]): Promise<Map<string, string>> {
  const ids = new Set(chunk.flatMap((r) => (r.chained ? saltIdsOf(r.chained) : [])));
  return ids.size ? history.saltsOf([...ids]) : new Map();
}

function saltsNamed(chained: string, salts: Map<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const id of saltIdsOf(chained)) {
    const salt = salts.get(id);
    if (salt) out[id] = salt;
  }
  return out;
}

/**
 * The Discord-signed requests behind a chunk's rows, one line each after the rows: the
 * exact bytes, or `pending` while the body's reply token may still work (younger than 15 minutes).
 */
async function evidenceLines(history: ExportSource, chunk: RawRow[], now: number): Promise<string> {
  const ids = new Set<string>();
  for (const r of chunk) {
    if (!r.input.includes('"evidence":')) continue;
    const id = (JSON.parse(r.input) as { evidence?: { interaction?: unknown } }).evidence?.interaction;
    if (typeof id === 'string') ids.add(id);
  }
  if (!ids.size) return '';
  const kept = await history.evidenceOf([...ids]);
  let out = '';
  for (const id of ids) {
    const e = kept.get(id);
    if (!e) continue;
    const line =
      now - Date.parse(e.created_at) < EVIDENCE_EMBARGO_MS
        ? { interaction: id, pending: true }
        : { interaction: id, timestamp: e.timestamp, signature: e.signature, body: inflateRawSync(e.body).toString('base64') };
    out += `${JSON.stringify({ evidence: line })}\n`;
  }
  return out;
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
      const part = await render(history, chunk, count === 0, job.now ?? Date.now());
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

/** `worker`: the worker's module (the export worker beside this one; a test names another). */
export type ExportOptions = { log?: Logger; worker?: URL };

/**
 * Runs a SQLite file's export in a worker thread on its own read-only connection; in-thread where
 * there is no file (memory, PostgreSQL, whose reads wait on the network, not the thread).
 *
 * A worker reads its code from disk when it starts, long after this process read its own: a build
 * or an edit in between (an upgrade in place, a working tree changed while the bot runs) can leave
 * it unable to start, and a GM's export then failed as "Something went wrong". Whatever stops the
 * worker, the export is written here instead, by the code this process runs, in chunks that give
 * the event loop back; only a failure of that too reaches the GM.
 */
export async function exportLedger(ledger: LedgerStore, job: ExportJob, o: ExportOptions = {}): Promise<ExportResult> {
  if (!ledger.sqliteFile) return writeExport(ledger.history, job);
  try {
    const worker = startWorker(o.worker ?? besideModule(import.meta.url, 'export-worker'), { file: ledger.sqliteFile, job }, WORKER_LIMITS);
    return await answerOf<ExportResult>(worker, 'export worker');
  } catch (err) {
    o.log?.warn('the export worker failed; the export is written on the main thread instead', { err });
    return writeExport(ledger.history, job);
  }
}
