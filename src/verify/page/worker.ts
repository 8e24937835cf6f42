import { checkReceipt, type TrustedKey } from '../receipt.js';
import { ExportReader } from '../verify-export.js';
import { pageEd25519 } from './ed25519.js';

/**
 * verify.html's worker: the same checks as `npm run verify` (one source, bundled by esbuild), off
 * the page's thread so a large export never freezes it. The dropped file is streamed a chunk at a
 * time, its lines fed to the same reader the Node verifier uses; progress goes back as it reads.
 */
export type CheckRequest = { file?: Blob; head?: string; receipt?: string; key?: string };
export type WorkerMessage =
  | { type: 'progress'; read: number; total: number }
  | { type: 'report'; ok: boolean; lines: string[]; heads: string[] }
  | { type: 'receipt'; ok: boolean; lines: string[] }
  | { type: 'done'; ms: number };

declare const self: { onmessage: ((e: { data: CheckRequest }) => void) | null; postMessage(m: WorkerMessage): void };

/** Every line of the file through the reader, reporting progress about every 1%. */
async function readLines(file: Blob, reader: ExportReader): Promise<void> {
  const stream = file.stream().getReader();
  const decoder = new TextDecoder();
  let rest = '';
  let read = 0;
  let told = 0;
  for (;;) {
    const { done, value } = await stream.read();
    if (done) break;
    read += value.byteLength;
    const text = rest + decoder.decode(value, { stream: true });
    const lines = text.split('\n');
    rest = lines.pop()!;
    for (const line of lines) reader.push(line);
    if (read - told >= file.size / 100) {
      told = read;
      self.postMessage({ type: 'progress', read, total: file.size });
    }
  }
  reader.push(rest + decoder.decode());
  self.postMessage({ type: 'progress', read, total: file.size });
}

/** The keys a receipt is checked against: the one pasted, else the export's list. */
function trustedKeys(key: string | undefined, fromExport: TrustedKey[]): TrustedKey[] {
  const pasted = key?.trim();
  return pasted ? [{ public_key: pasted }] : fromExport;
}

async function check(req: CheckRequest): Promise<void> {
  const started = performance.now();
  const reader = new ExportReader();
  if (req.file) {
    await readLines(req.file, reader);
    const report = reader.finish(req.head?.trim() ? { head: req.head.trim() } : {});
    const heads = report.chains.flatMap((c) => (c.report.ok ? [`${c.guildId} ${c.report.headHash}`] : []));
    self.postMessage({ type: 'report', ok: report.ok, lines: [...report.lines, report.ok ? 'verified: all holds' : 'NOT verified: see above'], heads });
  }
  if (req.receipt?.trim()) {
    const keys = trustedKeys(req.key, reader.keys);
    const verdict = keys.length
      ? await checkReceipt(req.receipt, keys, pageEd25519)
      : { ok: false, lines: ["receipt NOT CHECKED: paste the bot's public key (/verify key:true), or load an export that lists it"] };
    self.postMessage({ type: 'receipt', ok: verdict.ok, lines: verdict.lines });
  }
  self.postMessage({ type: 'done', ms: Math.round(performance.now() - started) });
}

self.onmessage = (e) => {
  check(e.data).catch((err: unknown) => self.postMessage({ type: 'report', ok: false, lines: [`the check failed: ${(err as Error).message}`], heads: [] }));
};
