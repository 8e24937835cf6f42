import type { Logger } from '../log.js';
import { checkLedgerFile, quickCheckInWorker } from './integrity.js';
import { Ledger } from './ledger.js';
import { PgLedger } from './postgres/pg-ledger.js';
import { PgStore } from './postgres/pg-store.js';
import { sqliteStore, type LedgerStore } from './store.js';

export type OpenOptions = {
  /** --new-ledger: make a new SQLite ledger where there is none or an empty file stands. */
  newLedger?: boolean;
  /** The receipt key file: there while a ledger was kept beside it. */
  keyFile?: string;
  /** The serving bot's PostgreSQL pool: every connection opened at start and kept (an admin command's opens what it uses). */
  keepOpen?: boolean;
};

/**
 * The configured ledger: PostgreSQL when DATABASE_URL is set (shared by every process), otherwise
 * the SQLite file, checked before anything is served from it (integrity.ts: missing where one was
 * kept, empty, not SQLite, damaged, or of a newer schema are refused with LedgerRefusedError). A
 * PostgreSQL server that cannot be reached yet is waited for (a bot starting during an outage, or
 * beside a database that starts more slowly), logging each wait; a connection it drops later fails
 * the work on it, never the process.
 */
export async function openStore(config: { databaseUrl: string | undefined; databasePath: string }, log?: Logger, o: OpenOptions = {}): Promise<LedgerStore> {
  if (!config.databaseUrl) {
    const file = config.databasePath;
    const { created } = checkLedgerFile(file, { newLedger: o.newLedger ?? false, keptBefore: o.keyFile });
    if (!created) await quickCheckInWorker(file);
    const ledger = Ledger.open(file, { checkpointInWorker: true });
    if (created) log?.info('created a new ledger', { file });
    return sqliteStore(ledger);
  }
  const ledger = await PgLedger.connectWhenUp(config.databaseUrl, {
    keepOpen: o.keepOpen ?? false,
    onConnectionError: (err) => log?.warn('the database dropped a connection; the work on it fails, the bot goes on', { reason: err.message }),
    waiting: (attempt, delayMs) => log?.warn('the database cannot be reached yet; waiting for it', { attempt, retry_in_ms: delayMs }),
  });
  return PgStore.over(ledger);
}
