import { parentPort, workerData } from 'node:worker_threads';
import { walkRange } from './read-file.js';
import type { LookFor } from './verify-export.js';

/** One range of an export walked off the main thread (read-file.ts); answers `{ result }` or `{ error }`. */
const { file, start, end, lookFor } = workerData as { file: string; start: number; end: number; lookFor: LookFor };
walkRange(file, start, end, lookFor).then(
  (result) => parentPort!.postMessage({ result }),
  (err: unknown) => parentPort!.postMessage({ error: (err as Error).message }),
);
