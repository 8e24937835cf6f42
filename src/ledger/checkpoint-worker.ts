import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase, walBytes } from './database.js';

/**
 * The ledger's checkpoints, off the thread that serves (checkpointer.ts): its own connection copies
 * the WAL back into the database file whenever the WAL has grown past `maxWalBytes`, looking every
 * `everyMs`. PASSIVE never waits on the writer, and the writer starts the WAL afresh after it.
 */
const { file, maxWalBytes, everyMs } = workerData as { file: string; maxWalBytes: number; everyMs: number };
const db = openDatabase(file);
db.pragma('wal_autocheckpoint = 0');
const timer = setInterval(() => {
  try {
    if (walBytes(file) > maxWalBytes) parentPort!.postMessage({ checkpoint: db.pragma('wal_checkpoint(PASSIVE)', { simple: false }) });
  } catch (err) {
    parentPort!.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
}, everyMs);
parentPort!.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort!.close();
});
