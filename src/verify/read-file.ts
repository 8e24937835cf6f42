import { Buffer, isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import os from 'node:os';
import { answerOf, besideModule, startWorker } from '../util/worker.js';
import { invalidRoundsInWorkers } from '../beacon/verify-pool.js';
import { invalidRounds } from '../beacon/verify-round.js';
import { precheckBeacons } from './beacon-precheck.js';
import { finishExport, RangeWalk, type ExportReport, type LookFor, type RangeResult } from './verify-export.js';

/**
 * npm run verify's door to the core: the file read from disk, never whole. A large file is cut into
 * ranges that start on a line (one per core, 2 to 4), each walked by a worker thread with the same
 * RangeWalk as one thread uses, and joined in order by finishExport: the report does not depend on
 * how many ranges there were.
 */

/** Files under this size are read by this thread alone: a worker's start costs more than it saves. */
export const PARALLEL_FROM_BYTES = 8 * 1024 * 1024;

/** Where each range starts: `parts` equal slices of the file, each moved on to the start of a line. */
async function rangeStarts(fd: fs.promises.FileHandle, size: number, parts: number): Promise<number[]> {
  const starts = [0];
  const window = Buffer.alloc(64 * 1024);
  for (let i = 1; i < parts; i++) {
    let at = Math.floor((size * i) / parts);
    for (;;) {
      const { bytesRead } = await fd.read(window, 0, window.length, at);
      if (!bytesRead) {
        at = size;
        break;
      }
      const lf = window.subarray(0, bytesRead).indexOf(0x0a);
      if (lf >= 0) {
        at += lf + 1;
        break;
      }
      at += bytesRead;
    }
    if (at > starts.at(-1)!) starts.push(at);
  }
  return starts;
}

/** Node's decoding: its strings split several times faster than TextDecoder's; isUtf8 refuses what TextDecoder would. */
const nodeUtf8 = (bytes: Uint8Array) => (isUtf8(bytes) ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') : undefined);

/** One range of the file through a RangeWalk, in this thread. */
export async function walkRange(file: string, start: number, end: number, lookFor: LookFor): Promise<RangeResult> {
  const walk = new RangeWalk(start === 0, lookFor, nodeUtf8);
  if (end > start) for await (const chunk of fs.createReadStream(file, { start, end: end - 1, highWaterMark: 1 << 20 })) walk.push(chunk as Buffer);
  return walk.finish();
}

/** Reads and verifies an export file: in ranges on worker threads when it is large, else here. */
export async function verifyFile(file: string, lookFor: LookFor = {}, threads = Math.min(4, Math.max(2, os.availableParallelism()))): Promise<ExportReport> {
  return finished(await readRanges(file, lookFor, threads), lookFor);
}

/** The file walked in ranges, not yet joined: what its signed requests name is known before the checks run (--discord-key fetch). */
export async function readRanges(file: string, lookFor: LookFor = {}, threads = Math.min(4, Math.max(2, os.availableParallelism()))): Promise<RangeResult[]> {
  const size = fs.statSync(file).size;
  if (size < PARALLEL_FROM_BYTES || threads < 2) return [await walkRange(file, 0, size, lookFor)];
  const fd = await fs.promises.open(file, 'r');
  let starts: number[];
  try {
    starts = await rangeStarts(fd, size, threads);
  } finally {
    await fd.close();
  }
  return Promise.all(
    starts.map((start, i) => {
      const end = starts[i + 1] ?? size;
      // A small young generation: a range's garbage is a line's strings, and the default let each thread's heap grow ~40 MiB more on 1 GB.
      const worker = startWorker(besideModule(import.meta.url, 'range-worker'), { file, start, end, lookFor }, { maxYoungGenerationSizeMb: 8 });
      return answerOf<RangeResult>(worker, 'a verifier thread').finally(() => void worker.terminate());
    }),
  );
}

/** The ranges joined, beacon games' rounds checked ahead on worker threads (the costly part of a beacon game). */
export async function finished(results: RangeResult[], lookFor: LookFor): Promise<ExportReport> {
  const beacons = await precheckBeacons(
    results.flatMap((r) => r.kept),
    invalidRoundsInWorkers,
    invalidRounds,
  );
  return finishExport(results, lookFor, beacons);
}
