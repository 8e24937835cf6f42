import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './database.js';
import { LedgerRefusedError } from './errors.js';
import { parseRecountRow, RECOUNT_SQL, recountTally, TallyCount, tallyParams, UPSERT_TALLY_SQL } from './tally.js';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');

const FILE = /^(\d{3})_([a-z0-9_]+)\.sql$/;

export type Migration = { version: number; name: string; sql: string };

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  const found = fs
    .readdirSync(dir)
    .map((f) => ({ f, m: FILE.exec(f) }))
    .filter((x) => x.m)
    .map(({ f, m }) => ({ version: Number(m![1]), name: m![2]!, sql: fs.readFileSync(path.join(dir, f), 'utf8') }))
    .sort((a, b) => a.version - b.version);
  found.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migrations must be numbered 001, 002, … without gaps (found ${m.version})`);
  });
  return found;
}

/**
 * Applies the migrations not yet recorded, in order, each in its own transaction together with its
 * version row: a failed migration leaves the schema as it was. Returns the versions applied.
 */
export function migrate(db: Db, migrations: Migration[] = readMigrations()): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  refuseNewer(schemaVersion(db), migrations.length, db.name);
  const isDone = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?');
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const applied: number[] = [];
  for (const m of migrations) {
    // Checked under the write lock: shard processes opening a new ledger together apply each migration once.
    const ran = db
      .transaction(() => {
        if (isDone.get(m.version)) return false;
        db.exec(m.sql);
        AFTER[m.name]?.(db);
        record.run(m.version, m.name, new Date().toISOString());
        return true;
      })
      .immediate();
    if (ran) applied.push(m.version);
  }
  return applied;
}

/** Fills the dice report's aggregates from the rows already on record (migration dice_report), in its transaction. */
export function backfillTallies(db: Db): void {
  const count = new TallyCount();
  const read = db.prepare(RECOUNT_SQL(false));
  for (let after = 0; ; ) {
    const rows = (read.all(after, 5_000) as Parameters<typeof parseRecountRow>[0][]).map(parseRecountRow);
    if (!rows.length) break;
    for (const r of rows) count.add(recountTally(r));
    after = rows[rows.length - 1]!.seq;
  }
  const write = db.prepare(UPSERT_TALLY_SQL);
  for (const t of count.entries()) write.run(...tallyParams(t, t.n));
}

/** Work a migration needs beyond its SQL, run in its transaction: by the migration's name (both backends name it alike). */
const AFTER: Record<string, (db: Db) => void> = { dice_report: backfillTallies };

/**
 * A ledger whose schema a newer version of the bot moved on: this one would write rows the newer
 * one's tables and checks do not expect, and say nothing. Refused, naming both versions.
 */
export function refuseNewer(found: number, known: number, where: string): void {
  if (found <= known) return;
  throw new LedgerRefusedError(
    `the ledger ${where} has schema version ${found}, written by a newer Morale Officer; this one knows versions up to ${known}. Run the newer version (or restore a backup made by this one): this version will not write to it.`,
  );
}

export function schemaVersion(db: Db): number {
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
  return row.v ?? 0;
}
