import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../ledger/database.js';
import { History } from '../ledger/history.js';
import { type ExportJob, writeExport } from './export-files.js';

/** The export's thread (see exportLedger): its own read-only connection to the ledger file. */
const { file, job } = workerData as { file: string; job: ExportJob };
const db = openDatabase(file, { readonly: true });
writeExport(new History(db), job)
  .then((result) => parentPort!.postMessage({ result }))
  .catch((err: unknown) => parentPort!.postMessage({ error: err instanceof Error ? err.message : String(err) }))
  .finally(() => db.close());
