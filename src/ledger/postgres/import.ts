import type { Db } from '../database.js';
import type { Ledger } from '../ledger.js';
import type { PgLedger } from './pg-ledger.js';

export class ImportRefused extends Error {}

export type ImportReport = { guilds: { guildId: string; rows: number; headHash: string }[]; tables: Record<string, number> };

/**
 * The tables that move: every table of the SQLite ledger but its migration record, read from its
 * schema (a list written by hand once left the dice report's tallies and the receipt keys behind),
 * each after the tables its foreign keys name. Each row moves as it is: ids, positions, hashes and
 * timestamps unchanged, so every hash a player was shown still verifies. channel_units keeps its
 * positions because rolls keep their seq.
 */
export function tablesToCopy(db: Db): string[] {
  const names = (
    db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> 'schema_migrations' ORDER BY name")
      .all() as {
      name: string;
    }[]
  ).map((r) => r.name);
  const refersTo = (table: string) =>
    (db.prepare('SELECT DISTINCT "table" AS t FROM pragma_foreign_key_list(?)').all(table) as { t: string }[]).map((r) => r.t).filter((t) => t !== table);
  const ordered: string[] = [];
  const visit = (table: string) => {
    if (ordered.includes(table)) return;
    for (const parent of refersTo(table)) visit(parent);
    ordered.push(table);
  };
  for (const n of names) visit(n);
  return ordered;
}
/** Rows per INSERT: well under PostgreSQL's 65,535 parameters for the widest table (rolls, 27 columns). */
export const IMPORT_BATCH = 500;

/**
 * Copies a SQLite ledger into an empty PostgreSQL one (`npm run migrate-ledger`). Every guild's chain
 * is verified at the source first (a broken chain is refused: nothing is copied), everything is
 * copied in one PostgreSQL transaction (all or nothing), and every chain is verified again on
 * arrival, its length and head hash compared with the source's.
 */
export async function importLedger(source: Ledger, target: PgLedger, progress: (line: string) => void = () => undefined): Promise<ImportReport> {
  const db = source.db;
  const guildIds = (db.prepare('SELECT DISTINCT guild_id FROM rolls ORDER BY guild_id').all() as { guild_id: string }[]).map((r) => r.guild_id);
  const heads: ImportReport['guilds'] = [];
  for (const guildId of guildIds) {
    const report = source.verify(guildId);
    if (!report.ok) {
      throw new ImportRefused(
        `guild ${guildId}: the chain is broken at position ${report.broken.guildSeq} (row ${report.broken.id}: ${report.broken.reason}); nothing was copied`,
      );
    }
    heads.push({ guildId, rows: report.count, headHash: report.headHash });
  }
  progress(`source: ${guildIds.length} guilds, every chain verified`);

  const tables: Record<string, number> = {};
  await target.inTransaction(async (c) => {
    const existing = (await c.query<{ n: number }>('SELECT count(*)::int AS n FROM rolls')).rows[0]!.n;
    if (existing) throw new ImportRefused(`the PostgreSQL ledger already holds ${existing} rows: migrate into an empty database`);
    for (const table of tablesToCopy(db)) {
      const columns = columnsOf(db, table);
      let n = 0;
      for (const batch of batches(db, table, columns)) {
        const params: unknown[] = [];
        const tuples = batch.map((row) => `(${columns.map((col) => `$${params.push(row[col] ?? null)}`).join(', ')})`);
        await c.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, params);
        n += batch.length;
      }
      tables[table] = n;
      progress(`copied ${n} rows of ${table}`);
    }
    for (const h of heads) {
      await c.query('INSERT INTO chain_heads (guild_id, guild_seq, hash) VALUES ($1, $2, $3)', [h.guildId, h.rows, h.headHash]);
    }
    // Rows kept their ids: later appends continue after them.
    await c.query("SELECT setval('rolls_seq_seq', GREATEST((SELECT max(seq) FROM rolls), 1))");
    await c.query("SELECT setval('units_id_seq', GREATEST((SELECT max(id) FROM units), 1))");
  });

  for (const h of heads) {
    const arrived = await target.verify(h.guildId);
    // Stryker disable next-line ConditionalExpression,LogicalOperator: a copy that verifies with another length or head cannot be made without forging SHA-256; the check stays as the promise it makes.
    if (!arrived.ok || arrived.count !== h.rows || arrived.headHash !== h.headHash) {
      throw new ImportRefused(`guild ${h.guildId}: the copy does not verify as the source did (${JSON.stringify(arrived)})`);
    }
  }
  progress(`target: every chain verified, ${heads.reduce((a, h) => a + h.rows, 0)} rows in ${heads.length} guilds`);
  return { guilds: heads, tables };
}

/** The table's columns in the SQLite ledger (the PostgreSQL schema has the same names). */
function columnsOf(db: Db, table: string): string[] {
  return (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).map((r) => r.name);
}

/** The table's rows, a batch at a time: one batch in memory. */
function* batches(db: Db, table: string, columns: string[]): Generator<Record<string, unknown>[]> {
  // Rolls in append order (a re-roll after its roll); the other tables' rows refer only to tables copied before them.
  // Stryker disable next-line all: SQLite happens to scan rolls in seq (rowid) order too; the ORDER BY makes it a promise.
  const order = table === 'rolls' ? ' ORDER BY seq' : '';
  let batch: Record<string, unknown>[] = [];
  for (const row of db.prepare(`SELECT ${columns.join(', ')} FROM ${table}${order}`).iterate() as IterableIterator<Record<string, unknown>>) {
    batch.push(row);
    if (batch.length === IMPORT_BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}
