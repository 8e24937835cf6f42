import { parentPort, workerData } from 'node:worker_threads';
import { ChainReader, type WalkStart } from './chain-walk.js';
import { openDatabase } from './database.js';

/** The second half of a long chain's check (parallel-verify.ts): its own read-only connection, one walk. */
const { file, guildId, from, upTo } = workerData as { file: string; guildId: string; from: WalkStart; upTo: number };
const db = openDatabase(file, { readonly: true });
try {
  parentPort!.postMessage({ result: new ChainReader(db).walk(guildId, from, upTo) });
} catch (err) {
  parentPort!.postMessage({ error: err instanceof Error ? err.message : String(err) });
} finally {
  db.close();
}
