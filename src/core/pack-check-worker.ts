import { parentPort } from 'node:worker_threads';
import { loadPack } from '../rules/packs/load.js';

/**
 * load.ts's loadPack off the thread that serves every server, kept warm between installs: each
 * message `{ id, text, commands }` is answered `{ id, result }` (the load, sound or not) or `{ id, error }`.
 */
parentPort!.on('message', ({ id, text, commands }: { id: number; text: string; commands: [string, string][] }) => {
  try {
    parentPort!.postMessage({ id, result: loadPack(text, new Map(commands)) });
  } catch (err) {
    parentPort!.postMessage({ id, error: (err as Error).message });
  }
});
