import { parentPort, workerData } from 'node:worker_threads';
import { quickCheck } from './integrity.js';

/** integrity.ts's quick check off the thread that starts the bot: answers `{ result }`, or `{ error }` with the refusal. */
try {
  quickCheck((workerData as { file: string }).file);
  parentPort!.postMessage({ result: true });
} catch (err) {
  parentPort!.postMessage({ error: (err as Error).message });
}
