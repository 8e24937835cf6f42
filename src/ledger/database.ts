import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export type Db = Database.Database;

/** A bound value compared by `=`, `==`, `IS` or `IS NOT` (`<=`, `>=` and `!=` end in `=` too): `= ?`, `IS :name`. */
const COMPARED_PARAMETER = /(=|\bIS(?:\s+NOT)?)\s*(\?\d*|[:@$][A-Za-z_]\w*)/gi;

/**
 * The statement with every parameter compared by equality written `+?` (outside string literals):
 * the same value, the same plan, but not a bare parameter. Where an equality on an indexed column
 * also orders, groups or takes a MIN or MAX, SQLite (built with STAT4, as better-sqlite3 is) marks a
 * bare parameter as one whose value may change the plan and prepares the statement again at every
 * run once a value is bound: a chain head's or a game roll's number cost 15–17 µs a roll instead
 * of 2 (docs/development.md). `+` on a value is a no-op in SQLite, and the planner uses the index
 * for `col = +?` as for `col = ?`.
 */
export function withStablePlan(sql: string): string {
  return sql
    .split("'")
    .map((part, i) => (i % 2 ? part : part.replace(COMPARED_PARAMETER, '$1 +$2')))
    .join("'");
}

/** Every statement this connection prepares, prepared as withStablePlan writes it. */
function stablePlans(db: Db): Db {
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => prepare(withStablePlan(sql))) as Db['prepare'];
  return db;
}

export const BUSY_TIMEOUT_MS = 5000;
/** The WAL's size kept on disk once it starts afresh: four times the worker's checkpoint size. */
export const WAL_KEPT_BYTES = 16 * 2 ** 20;

/** Opens (creating its folder on first run) a ledger file with the pragmas every connection needs. */
export function openDatabase(file: string, options: { busyTimeoutMs?: number; readonly?: boolean } = {}): Db {
  if (options.readonly) {
    // A reader beside the writer (an export's worker): the file and its WAL mode already exist.
    const db = stablePlans(new Database(file, { readonly: true, fileMustExist: true }));
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? BUSY_TIMEOUT_MS}`);
    return db;
  }
  // For ':memory:' this names the working folder, which exists. A new folder is the owner's alone.
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
  const db = stablePlans(new Database(file));
  ownerOnly(db);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL'); // WAL + NORMAL is durable across process crashes
  db.pragma('foreign_keys = ON');
  // A WAL started afresh is cut back to this (checkpointer.ts): a burst's WAL does not stay on disk.
  db.pragma(`journal_size_limit = ${WAL_KEPT_BYTES}`);
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? BUSY_TIMEOUT_MS}`);
  return db;
}

/** The size of a ledger file's WAL in bytes (0 when it has none yet). */
export function walBytes(file: string): number {
  try {
    return fs.statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}

/**
 * The ledger holds sealed results and players' names: owner-only (0600), whatever the umask, and an
 * older world-readable file is narrowed too. Set before WAL mode, since SQLite gives its -wal and
 * -shm files the database file's permissions.
 */
export function ownerOnly(db: Db): void {
  if (db.memory) return;
  try {
    fs.chmodSync(db.name, 0o600);
  } catch {
    // Not ours to change (a file another user owns, opened through a group's permission): leave it.
  }
}
