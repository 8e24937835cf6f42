import fs from 'node:fs';
import { answerOf, besideModule, startWorker } from '../util/worker.js';
import { openDatabase } from './database.js';
import { LedgerRefusedError } from './errors.js';

/**
 * What the bot checks of its SQLite ledger before it serves from it: a damaged file was
 * served and appended to, and an empty one silently began a new chain at position 1. Each refusal
 * names the file and what to do; `--new-ledger` makes a new ledger on purpose.
 */

/** The 16 bytes every SQLite database file starts with. */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

export type FileCheck = {
  /** --new-ledger: create a ledger where there is none, or where an empty file stands. */
  newLedger: boolean;
  /** A file that exists only where a ledger was kept before (the receipt key file beside it). */
  keptBefore?: string | undefined;
};

/** Refuses a ledger file that is missing where one was kept, empty, or not SQLite; returns whether a new one will be made. */
export function checkLedgerFile(file: string, o: FileCheck): { created: boolean } {
  const size = sizeOf(file);
  if (size === undefined) {
    if (o.keptBefore && fs.existsSync(o.keptBefore) && !o.newLedger)
      throw new LedgerRefusedError(
        `there is no ledger at ${file}, but one was kept here: its receipt key file ${o.keptBefore} is still there. Restore the ledger from your backup (npm run backup made it), or start a new ledger on purpose with --new-ledger.`,
      );
    return { created: true };
  }
  if (size === 0) {
    if (!o.newLedger)
      throw new LedgerRefusedError(
        `the ledger ${file} is an empty file (0 bytes): opened, it would start a new chain at position 1 as if nothing had ever been recorded. Restore it from your backup, or start a new ledger on purpose with --new-ledger.`,
      );
    fs.rmSync(file);
    return { created: true };
  }
  if (o.newLedger)
    throw new LedgerRefusedError(
      `--new-ledger never replaces a ledger that holds data: ${file} is ${size} bytes. Move it away first if you mean to start afresh.`,
    );
  const head = Buffer.alloc(SQLITE_HEADER.length);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (!head.equals(SQLITE_HEADER))
    throw new LedgerRefusedError(`${file} is not a SQLite database (it does not start with SQLite's header): restore the ledger from your backup.`);
  return { created: false };
}

function sizeOf(file: string): number | undefined {
  try {
    return fs.statSync(file).size;
  } catch {
    return undefined;
  }
}

/** How many of SQLite's own findings a refusal quotes. */
const QUOTED = 3;

/**
 * SQLite's quick_check over the whole file (every page of every table and index, without comparing
 * indexes to their tables row by row), on a read-only connection of its own: run in a worker thread
 * at start-up (integrity-worker.ts) beside the rest of the start. Throws a refusal quoting what
 * SQLite found.
 */
export function quickCheck(file: string): void {
  let findings: string[];
  try {
    const db = openDatabase(file, { readonly: true });
    try {
      findings = (db.pragma(`quick_check(${QUOTED})`) as { quick_check: string }[]).map((r) => r.quick_check.replace(/\s*\n\s*/g, ' '));
    } finally {
      db.close();
    }
  } catch (err) {
    findings = [(err as Error).message];
  }
  if (findings.length === 1 && findings[0] === 'ok') return;
  throw new LedgerRefusedError(
    `the ledger ${file} is damaged (SQLite's check found: ${findings.join('; ')}). The bot will not write to it. Stop it, restore the ledger from your backup, and check the disk; .recover in the sqlite3 shell can save what is readable into a new file.`,
  );
}

/** quickCheck in a worker thread: the event loop stays free while a big file is read. */
export async function quickCheckInWorker(file: string): Promise<void> {
  try {
    await answerOf<true>(startWorker(besideModule(import.meta.url, 'integrity-worker'), { file }), 'the ledger check');
  } catch (err) {
    // The worker's refusal comes back as its message, prefixed with the worker's name.
    const message = (err as Error).message.replace(/^the ledger check: /, '');
    throw new LedgerRefusedError(message);
  }
}
