import { checkReceipt, receiptFields, type TrustedKey } from '../receipt.js';
import { finishExport, parseDiscordKey, RangeWalk, type LookFor, type RangeResult } from '../verify-export.js';
import { loadWasmSha256 } from './crypto-shim.js';
import { pageEd25519 } from './ed25519.js';

/**
 * verify.html's worker: the same core as `npm run verify` (one source, bundled by esbuild), off the
 * page's thread so a large export never freezes it. The dropped file is read a chunk at a time by
 * the same RangeWalk; a large one is cut into ranges that start on a line, each walked by a copy of
 * this worker (the page hands over its own blob: URL), and joined by finishExport, as the Node
 * verifier's threads are.
 */
export type CheckRequest = { file?: Blob; head?: string; receipt?: string; key?: string; discordKey?: string; workerSource?: string };
type RangeRequest = { range: { file: Blob; start: number; end: number; lookFor: LookFor } };
export type WorkerMessage =
  | { type: 'progress'; read: number; total: number }
  | { type: 'report'; ok: boolean; lines: string[]; heads: string[] }
  | { type: 'receipt'; ok: boolean; lines: string[] }
  | { type: 'done'; ms: number };
type RangeMessage = { type: 'range'; result: RangeResult } | { type: 'read'; bytes: number };

declare const self: {
  onmessage: ((e: { data: CheckRequest | RangeRequest }) => void) | null;
  postMessage(m: WorkerMessage | RangeMessage): void;
  navigator: { hardwareConcurrency?: number };
};

/** The browser's Worker, as this module (type-checked without the DOM's types) sees it. */
type PageWorker = {
  onmessage: ((e: { data: RangeMessage }) => void) | null;
  onerror: ((e: { message: string }) => void) | null;
  postMessage(m: RangeRequest): void;
  terminate(): void;
};
const PageWorker = (globalThis as unknown as { Worker: new (url: string) => PageWorker }).Worker;

/** Files under this size are read by this worker alone (as in Node's read-file.ts). */
const PARALLEL_FROM_BYTES = 8 * 1024 * 1024;

/** One range of the file through a RangeWalk, telling how many bytes it has read. */
async function walkBlob(file: Blob, start: number, end: number, lookFor: LookFor, read: (bytes: number) => void): Promise<RangeResult> {
  const walk = new RangeWalk(start === 0, lookFor);
  const stream = file.slice(start, end).stream().getReader();
  for (;;) {
    const { done, value } = await stream.read();
    if (done) break;
    walk.push(value);
    read(value.byteLength);
  }
  return walk.finish();
}

/** Where each range starts: equal slices moved on to the start of a line. */
async function rangeStarts(file: Blob, parts: number): Promise<number[]> {
  const starts = [0];
  for (let i = 1; i < parts; i++) {
    let at = Math.floor((file.size * i) / parts);
    for (;;) {
      const window = new Uint8Array(await file.slice(at, at + 64 * 1024).arrayBuffer());
      if (!window.length) {
        at = file.size;
        break;
      }
      const lf = window.indexOf(0x0a);
      if (lf >= 0) {
        at += lf + 1;
        break;
      }
      at += window.length;
    }
    if (at > starts.at(-1)!) starts.push(at);
  }
  return starts;
}

/** The ranges on copies of this worker, progress gathered from each. */
async function walkInParallel(file: Blob, workerUrl: string, lookFor: LookFor, progress: (bytes: number) => void): Promise<RangeResult[]> {
  const parts = Math.min(4, Math.max(2, self.navigator.hardwareConcurrency ?? 2));
  const starts = await rangeStarts(file, parts);
  return Promise.all(
    starts.map(
      (start, i) =>
        new Promise<RangeResult>((resolve, reject) => {
          const w = new PageWorker(workerUrl);
          w.onmessage = (e) => {
            if (e.data.type === 'read') progress(e.data.bytes);
            else {
              w.terminate();
              resolve(e.data.result);
            }
          };
          w.onerror = (e) => reject(new Error(e.message));
          w.postMessage({ range: { file, start, end: starts[i + 1] ?? file.size, lookFor } } satisfies RangeRequest);
        }),
    ),
  );
}

/** The export read and checked, progress reported about every 1%. */
async function report(file: Blob, req: CheckRequest, lookFor: LookFor) {
  let read = 0;
  let told = 0;
  const progress = (bytes: number) => {
    read += bytes;
    if (read - told < file.size / 100 && read < file.size) return;
    told = read;
    self.postMessage({ type: 'progress', read, total: file.size });
  };
  // Copies of this worker from a blob: URL made here (one the page made cannot be opened from a worker on a file:// page).
  const results =
    file.size >= PARALLEL_FROM_BYTES && req.workerSource
      ? await walkInParallel(file, URL.createObjectURL(new Blob([req.workerSource], { type: 'text/javascript' })), lookFor, progress)
      : [await walkBlob(file, 0, file.size, lookFor, progress)];
  self.postMessage({ type: 'progress', read: file.size, total: file.size });
  // Discord's key as the reader pinned it: the joined ranges' requests are checked under it (the ranges need it not).
  return finishExport(results, { ...lookFor, discordKey: parseDiscordKey(req.discordKey ?? '') });
}

async function check(req: CheckRequest): Promise<void> {
  const started = performance.now();
  const receipt = req.receipt?.trim() ? req.receipt : undefined;
  const fields = receipt ? receiptFields(receipt) : undefined;
  const lookFor: LookFor = { head: req.head?.trim() || undefined, receiptRoll: typeof fields === 'object' ? fields.roll : undefined };
  const exported = req.file ? await report(req.file, req, lookFor) : undefined;
  if (exported) {
    const heads = exported.chains.flatMap((c) => (c.report.ok ? [`${c.guildId} ${c.report.headHash}`] : []));
    self.postMessage({ type: 'report', ok: exported.ok, lines: [...exported.lines, exported.ok ? 'verified: all holds' : 'NOT verified: see above'], heads });
  }
  if (receipt) {
    const pasted = req.key?.trim();
    const keys: TrustedKey[] = pasted ? [{ public_key: pasted }] : [];
    const evidence = exported ? { keys: exported.keys.chained, roll: exported.receiptRoll } : undefined;
    const verdict =
      keys.length || evidence
        ? await checkReceipt(receipt, keys, pageEd25519, evidence)
        : { ok: false, lines: ["receipt NOT CHECKED: paste the bot's public key (/verify key:true), or load an export of its server"] };
    self.postMessage({ type: 'receipt', ok: verdict.ok, lines: verdict.lines });
  }
  self.postMessage({ type: 'done', ms: Math.round(performance.now() - started) });
}

/** The fast SHA-256, compiled once per worker before any row is hashed. */
const sha256Ready = loadWasmSha256();

self.onmessage = async (e) => {
  await sha256Ready;
  const data = e.data;
  if ('range' in data) {
    const { file, start, end, lookFor } = data.range;
    void walkBlob(file, start, end, lookFor, (bytes) => self.postMessage({ type: 'read', bytes })).then((result) =>
      self.postMessage({ type: 'range', result }),
    );
    return;
  }
  check(data).catch((err: unknown) => self.postMessage({ type: 'report', ok: false, lines: [`the check failed: ${(err as Error).message}`], heads: [] }));
};
