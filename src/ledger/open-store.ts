import { Ledger } from './ledger.js';
import { PgStore } from './postgres/pg-store.js';
import { sqliteStore, type LedgerStore } from './store.js';

/** The configured ledger: PostgreSQL when DATABASE_URL is set (shared by every process), otherwise the SQLite file. */
export async function openStore(config: { databaseUrl: string | undefined; databasePath: string }): Promise<LedgerStore> {
  return config.databaseUrl ? PgStore.connect(config.databaseUrl) : sqliteStore(Ledger.open(config.databasePath, { checkpointInWorker: true }));
}
