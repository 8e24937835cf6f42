import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { BUSY_TIMEOUT_MS } from './database.js';

/**
 * The ledger's checkpoints, off the thread that serves (checkpointer.ts): its own connection copies
 * the WAL back into the database file whenever the WAL has grown past `walBytes`, looking every
 * `everyMs`. PASSIVE never waits on the writer, and the writer starts the WAL afresh after it.
 */
const { file, walBytes, everyMs } = workerData as { file: string; walBytes: number; everyMs: number };
const db = new Database(file, { fileMustExist: true });
db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
db.pragma('wal_autocheckpoint = 0');
const walSize = () => {
  try {
    return fs.statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
};
const timer = setInterval(() => {
  try {
    if (walSize() > walBytes) parentPort!.postMessage({ checkpoint: db.pragma('wal_checkpoint(PASSIVE)', { simple: false }) });
  } catch (err) {
    parentPort!.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
}, everyMs);
parentPort!.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort!.close();
});
