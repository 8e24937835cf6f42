import path from 'node:path';
import type pg from 'pg';
import { CHAINED_COLUMNS, ChainWalker, strayReport, type ChainReport } from '../chain.js';
import { MIGRATIONS_DIR, readMigrations, refuseNewer } from '../migrate.js';
import { namedIn, nextRow, unitKey, type ChainHead } from '../next-row.js';
import { newSalt, type PersonSalt } from '../people.js';
import { AlreadyRecordedError, LedgerWriteError } from '../errors.js';
import { needsParent, parseRecountRow, RECOUNT_SQL, recountTally, TallyCount, tallyDelta, tallyParams, UPSERT_TALLY_SQL, type ParentState } from '../tally.js';
import { columnsHash } from '../committed-walk.js';
import { parseRow, readColumn, type LedgerRow, type NewEntry, type RawRow } from '../rows.js';
import { COUNT_PLAYER_ROLL_SQL, isPlayerRoll, KEEP_EVIDENCE_SQL, SEAL_INSERT_SQL } from '../common-sql.js';
import { SCHEDULE_SQL } from '../requests.js';
import type { AppendAlso } from '../contract.js';

export type PgConnectOptions = {
  max?: number;
  now?: () => Date;
  /** Told of every connection the server drops (the process goes on; the work on it fails). */
  onConnectionError?: (err: Error) => void;
  /** The bot's own pool (open-store.ts): every connection opened at start and kept (openAll). */
  keepOpen?: boolean;
};

/** Errors that say the server cannot be reached now, as opposed to refusing us (SQLSTATE class 08, 57P0x: shutting down or starting up). */
export function isUnreachable(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  if (
    typeof e?.code === 'string' &&
    (/^(08|57P0)/.test(e.code) || /^E(CONNREFUSED|CONNRESET|HOSTUNREACH|NETUNREACH|TIMEDOUT|AI_AGAIN|NOTFOUND|PIPE)$/.test(e.code))
  )
    return true;
  return /Connection terminated|timeout expired|the database system is (starting up|shutting down)/i.test(e?.message ?? '');
}

/**
 * Opens the pool's connections before the first roll needs them (kept, as min = max), so the first
 * busy moment does not pay for them. One the server refuses (its max_connections reached) is
 * left for later: the pool opens it when it is needed, and says why then.
 */
async function openAll(pool: pg.Pool, n: number): Promise<void> {
  const opened = await Promise.allSettled(Array.from({ length: n }, () => pool.connect()));
  for (const o of opened) if (o.status === 'fulfilled') o.value.release();
}

/** SQLite's `?` placeholders as PostgreSQL's `$1, $2 …` (the shared SQL has no `?` inside strings). */
export const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};
const UPSERT_TALLY = numbered(UPSERT_TALLY_SQL);

/**
 * A statement the server parses and plans once per connection: node-postgres prepares it under its
 * name the first time a connection runs it, then only binds values. A name always carries one text.
 */
export const prepared =
  (name: string, text: string) =>
  (values: unknown[] = []) => ({ name, text, values });

const BEGIN = prepared('begin', 'BEGIN');
const COMMIT = prepared('commit', 'COMMIT');
const ROLLBACK = prepared('rollback', 'ROLLBACK');

export const PG_MIGRATIONS_DIR = path.join(MIGRATIONS_DIR, 'postgres');
/** Any fixed number: every process migrating this database takes the same advisory lock. */
const MIGRATION_LOCK = 7_246_310_511;

const ROLL_COLUMNS = [...CHAINED_COLUMNS, 'prev_hash', 'hash', 'chained'] as const;

/** A statement's `?`s numbered as its parts are added, each part's values bound in its order. */
class Bound {
  readonly values: unknown[] = [];
  part(sql: string, values: readonly unknown[]): string {
    let i = 0;
    return sql.replace(/\?/g, () => `$${this.values.push(values[i++])}`);
  }
}

/**
 * What goes with a row, each in its own data-modifying CTE of the row's statement, in this order: its
 * dice report tally, the salts of people it names first, its sealed payload, its unit name for autocomplete, its player's game roll
 * count, its interaction's signed request, its channel's status card (AppendAlso).
 */
const COMPANIONS = {
  tally: UPSERT_TALLY_SQL,
  people: 'INSERT INTO people (guild_id, user_id, salt_id, salt, created_at) SELECT ?, u, i, s, ? FROM unnest(?::text[], ?::text[], ?::text[]) AS t(u, i, s)',
  sealed: SEAL_INSERT_SQL,
  unit: `INSERT INTO channel_units (guild_id, channel_id, system, unit_key, unit, last_seq) VALUES (?, ?, ?, ?, ?, (SELECT seq FROM r))
    ON CONFLICT (guild_id, channel_id, system, unit_key) DO UPDATE SET unit = excluded.unit, last_seq = excluded.last_seq`,
  counted: COUNT_PLAYER_ROLL_SQL,
  evidence: KEEP_EVIDENCE_SQL,
  card: SCHEDULE_SQL.touchChannel,
} as const;
type Companions = { [K in keyof typeof COMPANIONS]?: readonly unknown[] };
const ROLL_INSERT = `INSERT INTO rolls (${ROLL_COLUMNS.join(', ')}) VALUES (${ROLL_COLUMNS.map(() => '?').join(', ')}) RETURNING seq`;
const HEAD_UPDATE = 'UPDATE chain_heads SET guild_seq = ?, hash = ? WHERE guild_id = ?';

/** One statement for the row, the chain head it moves and its companions: prepared once for each set of companions present. */
function appendStatement(row: readonly unknown[], head: readonly unknown[], with_: Companions) {
  const b = new Bound();
  const ctes = [`r AS (${b.part(ROLL_INSERT, row)})`, `h AS (${b.part(HEAD_UPDATE, head)})`];
  let name = 'append';
  for (const [k, sql] of Object.entries(COMPANIONS)) {
    const values = with_[k as keyof Companions];
    if (!values) continue;
    ctes.push(`${k} AS (${b.part(sql, values)})`);
    name += `_${k}`;
  }
  return { name, text: `WITH ${ctes.join(',\n')}\nSELECT seq FROM r`, values: b.values };
}
const STRAY_SELECT = 'SELECT id, guild_seq FROM rolls WHERE guild_id = $1 AND guild_seq < 1 ORDER BY guild_seq LIMIT 1';
const CHAIN_SELECT = `SELECT ${ROLL_COLUMNS.join(', ')} FROM rolls WHERE guild_id = $1 AND guild_seq > $2 AND guild_seq <= $3 ORDER BY guild_seq LIMIT $4`;

/**
 * The ledger's rolls on PostgreSQL: the same rows and hashes as the SQLite ledger, with
 * many writers on many machines. Each append locks its guild's chain head row (SELECT … FOR UPDATE)
 * for the length of its transaction, so a guild's rows are chained one at a time whatever process
 * writes them; different guilds never wait on each other. A once-key is spent by its unique index.
 */
export class PgLedger {
  private constructor(
    readonly pool: pg.Pool,
    private readonly now: () => Date,
    /** The most connections the pool holds. */
    private readonly size: number,
  ) {}

  static async connect(url: string, options: PgConnectOptions = {}): Promise<PgLedger> {
    // Loaded only here: a bot on its SQLite file never holds node-postgres (~40 modules) in memory.
    const { default: pgLib } = await import('pg');
    // BIGSERIAL columns (seq, units.id) come back as text; they stay far below 2^53.
    pgLib.types.setTypeParser(pgLib.types.builtins.INT8, (v) => Number(v));
    const max = options.max ?? 10;
    // The serving bot's pool keeps every connection (min = max): closed when idle for 10 s, as by
    // default, a turn that ended for 200 players at once after a quiet spell opened most of them again
    // in the middle of its rolls, each a TCP connect, a login and a new server process. TCP keepalive
    // (a first probe after 30 s of quiet) keeps a firewall or NAT from dropping an idle one, and finds
    // one whose server died without a word.
    const pool = new pgLib.Pool({ connectionString: url, max, min: options.keepOpen ? max : 0, keepAlive: true, keepAliveInitialDelayMillis: 30_000 });
    const lost = options.onConnectionError ?? (() => undefined);
    // A connection the server drops (a restart, a fast shutdown) emits 'error' on its client: idle in
    // the pool, or checked out for a transaction. Unheard, that error is an uncaught exception and
    // the process ends; heard for the client's whole life, the query in flight fails instead, and
    // its unit of work answers "could not be recorded". The client's listener reports it once; the
    // pool repeats an idle one's, and must be heard too (a restart with 10 idle connections said 20).
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', lost));
    const ledger = new PgLedger(pool, options.now ?? (() => new Date()), max);
    try {
      await ledger.migrate();
    } catch (err) {
      await pool.end();
      throw err;
    }
    if (options.keepOpen) await openAll(pool, max);
    return ledger;
  }

  /**
   * connect, retried while the server cannot be reached (down, restarting, starting up), waiting
   * twice as long each time up to `maxDelayMs`: a bot started during a database outage waits for it
   * instead of exiting. Anything else (a wrong password, a failed migration) is thrown at once.
   */
  static async connectWhenUp(
    url: string,
    options: PgConnectOptions & { waiting?: (attempt: number, delayMs: number, err: unknown) => void; maxDelayMs?: number; signal?: AbortSignal } = {},
  ): Promise<PgLedger> {
    for (let attempt = 1, delay = 500; ; attempt++, delay = Math.min(delay * 2, options.maxDelayMs ?? 30_000)) {
      try {
        return await PgLedger.connect(url, options);
      } catch (err) {
        if (!isUnreachable(err) || options.signal?.aborted) throw err;
        options.waiting?.(attempt, delay, err);
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  /** Applies the PostgreSQL migrations not yet recorded, each once, under an advisory lock. */
  async migrate(dir = PG_MIGRATIONS_DIR): Promise<number[]> {
    const files = readMigrations(dir);
    const applied: number[] = [];
    await this.inTransaction(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await c.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
      const done = new Set((await c.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
      refuseNewer(Math.max(0, ...done), files.length, 'on PostgreSQL (DATABASE_URL)');
      for (const m of files) {
        if (done.has(m.version)) continue;
        await c.query(m.sql);
        if (m.name === 'dice_report') await backfillTallies(c);
        await c.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [m.version, m.name, new Date().toISOString()]);
        applied.push(m.version);
      }
    });
    return applied;
  }

  /** Appends one row to its guild's chain; AlreadyRecordedError for a spent once-key, LedgerWriteError otherwise. */
  async append(entry: NewEntry): Promise<LedgerRow> {
    try {
      return await this.inTransaction((c) => this.appendOn(c, entry));
    } catch (err) {
      throw ledgerError(err, entry);
    }
  }

  /** A person's salt in a server, read once a transaction (or drawn and stored now, when they have none). */
  async personSaltOn(c: pg.PoolClient, guildId: string, userId: string, salts: SaltCache): Promise<PersonSalt> {
    const key = saltKey(guildId, userId);
    if (!salts.has(key)) salts.set(key, (await c.query<PersonSalt>(PEOPLE_OF([guildId, [userId]]))).rows[0] ?? null);
    const known = salts.get(key);
    if (known) return known;
    const drawn = newSalt(userId);
    await c.query('INSERT INTO people (guild_id, user_id, salt_id, salt, created_at) VALUES ($1, $2, $3, $4, $5)', [
      guildId,
      userId,
      drawn.salt_id,
      drawn.salt,
      this.now().toISOString(),
    ]);
    salts.set(key, drawn);
    return drawn;
  }

  /**
   * The append inside a caller's transaction (the caller maps errors with ledgerError), in one
   * statement with everything that goes with the row. `held`: the guild's chain head as this
   * transaction holds it locked already (read FOR UPDATE, or moved by its last append).
   */
  async appendOn(c: pg.PoolClient, entry: NewEntry, also: AppendAlso = {}, held?: NonNullable<ChainHead>, salts: SaltCache = new Map()): Promise<LedgerRow> {
    const head = held ?? (await lockHead(c, entry.guildId));
    await readSalts(c, entry, salts);
    const row = nextRow(entry, head, this.now().toISOString(), (userId) => salts.get(saltKey(entry.guildId, userId)) ?? undefined);
    for (const p of row.newPeople) salts.set(saltKey(entry.guildId, p.user_id), p);
    const fresh = row.newPeople;
    const f = row.fields;
    const tally = tallyDelta({ ...f, input: entry.input }, needsParent(entry.kind) ? await parentState(c, entry.guildId, entry.parentId) : undefined);
    const values = { ...row.stored, prev_hash: row.prev_hash, hash: row.hash } as Record<string, unknown>;
    const e = also.evidence;
    const statement = appendStatement(
      ROLL_COLUMNS.map((k) => values[k] ?? null),
      [f.guild_seq, row.hash, entry.guildId],
      {
        ...(tally ? { tally: tallyParams(tally.tally, tally.delta) } : {}),
        ...(fresh.length ? { people: [entry.guildId, f.created_at, fresh.map((p) => p.user_id), fresh.map((p) => p.salt_id), fresh.map((p) => p.salt)] } : {}),
        ...(row.sealed ? { sealed: [f.id, entry.guildId, row.sealed.salt, row.sealed.payload, row.sealed.committed] } : {}),
        ...(f.unit !== null ? { unit: [entry.guildId, entry.channelId, f.system ?? '', unitKey(f.unit), f.unit] } : {}),
        ...(isPlayerRoll(f) ? { counted: [entry.guildId, f.game_id, f.user_id] } : {}),
        ...(e ? { evidence: [e.interaction_id, e.guild_id, e.timestamp, e.signature, e.body, e.created_at] } : {}),
        ...(also.touchCard ? { card: [f.created_at, entry.guildId, entry.channelId, f.created_at] } : {}),
      },
    );
    const seq = (await c.query<{ seq: number }>(statement)).rows[0]!.seq;
    return { ...f, prev_hash: row.prev_hash, hash: row.hash, chained: row.chained, seq };
  }

  async count(guildId: string): Promise<number> {
    const r = await this.pool.query<{ n: number }>('SELECT guild_seq AS n FROM chain_heads WHERE guild_id = $1', [guildId]);
    return r.rows[0]?.n ?? 0;
  }

  /** The time the ledger writes (the same clock as the rows). */
  timestamp(): string {
    return this.now().toISOString();
  }

  /** Recomputes a guild's chain from its first row (up to a position), a chunk at a time: one chunk in memory. */
  async verify(guildId: string, upToGuildSeq = 2 ** 31 - 1, chunk = 2_000): Promise<ChainReport> {
    const people = await this.pool.query<{ salt_id: string; salt: string }>('SELECT salt_id, salt FROM people WHERE guild_id = $1', [guildId]);
    const salts = new Map(people.rows.map((p) => [p.salt_id, p.salt]));
    // A row below position 1 (only an edit makes one) comes before every row the walk reads: the chain breaks there first.
    const [stray] = (await this.pool.query<{ id: string; guild_seq: number }>(STRAY_SELECT, [guildId])).rows;
    if (stray) return strayReport(stray, 0);
    const walker = new ChainWalker<RawRow & { chained: string | null }>(columnsHash(salts));
    for (let after = 0; ; ) {
      const rows = (await this.pool.query<RawRow & { chained: string | null }>(CHAIN_SELECT, [guildId, after, upToGuildSeq, chunk])).rows;
      if (!rows.length) break;
      for (const row of rows) if (walker.feed(row)) return walker.report();
      after = rows[rows.length - 1]!.guild_seq;
    }
    return walker.report();
  }

  /**
   * Runs `work` on one connection in one transaction: committed if it resolves, rolled back if it
   * throws. A connection that cannot even roll back is broken (the server went away): it is
   * destroyed, not handed to the next transaction.
   */
  async inTransaction<T>(work: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await this.begun();
    let broken = false;
    try {
      const out = await work(c);
      await c.query(COMMIT());
      return out;
    } catch (err) {
      await c.query(ROLLBACK()).catch(() => {
        broken = true;
      });
      throw err;
    } finally {
      c.release(broken);
    }
  }

  /**
   * A connection with its transaction begun. When the server restarts, the pool drops each idle
   * connection as its error arrives; a roll that takes one first (the full suite caught one right
   * after the server was back), or one whose server vanished without a word, finds it dead at BEGIN:
   * it is dropped and the next taken (nothing ran on it), once for each connection the pool may hold.
   */
  private async begun(): Promise<pg.PoolClient> {
    for (let tries = 0; ; tries++) {
      const c = await this.pool.connect();
      try {
        await c.query(BEGIN());
        return c;
      } catch (err) {
        c.release(true);
        if (!isUnreachable(err) || tries >= this.size) throw err;
      }
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** Fills the dice report's aggregates from the rows already on record (migration dice_report), in its transaction. */
async function backfillTallies(c: pg.PoolClient): Promise<void> {
  const count = new TallyCount();
  const read = numbered(RECOUNT_SQL(false));
  for (let after = 0; ; ) {
    const rows = (await c.query<Parameters<typeof parseRecountRow>[0]>(read, [after, 5_000])).rows.map(parseRecountRow);
    if (!rows.length) break;
    for (const r of rows) count.add(recountTally(r));
    after = rows[rows.length - 1]!.seq;
  }
  for (const t of count.entries()) await c.query(UPSERT_TALLY, tallyParams(t, t.n));
}

const PARENT_ROW = prepared('parent_row', 'SELECT * FROM rolls WHERE guild_id = $1 AND id = $2');
const PARENT_CHILDREN = prepared('parent_children', 'SELECT kind, input FROM rolls WHERE guild_id = $1 AND parent_id = $2');

/** The roll a reveal or void points at, as the dice report needs it (tally.ts). */
async function parentState(c: pg.PoolClient, guildId: string, parentId: string | null | undefined): Promise<ParentState | undefined> {
  if (!parentId) return undefined;
  const found = (await c.query<RawRow>(PARENT_ROW([guildId, parentId]))).rows[0];
  if (!found) return undefined;
  const children = (await c.query<{ kind: string; input: string }>(PARENT_CHILDREN([guildId, parentId]))).rows;
  const reveal = children.find((r) => r.kind === 'reveal');
  return {
    row: parseRow(found),
    voided: children.some((r) => r.kind === 'void'),
    revealed: reveal ? (readColumn('input', reveal.input)?.payload as ParentState['revealed']) : undefined,
  };
}

/** The guild's chain head, locked until the transaction ends (created at the genesis for a new guild). */
const HEAD_GENESIS = prepared('head_genesis', "INSERT INTO chain_heads (guild_id, guild_seq, hash) VALUES ($1, 0, '') ON CONFLICT (guild_id) DO NOTHING");
const HEAD_LOCK = prepared('head_lock', 'SELECT guild_seq, hash FROM chain_heads WHERE guild_id = $1 FOR UPDATE');

/** People's salts a transaction has read or drawn, by server and person (null: they have none yet). */
export type SaltCache = Map<string, PersonSalt | null>;
export const saltKey = (guildId: string, userId: string) => `${guildId}\u0000${userId}`;
const PEOPLE_OF = prepared('people_of', 'SELECT salt_id, user_id, salt FROM people WHERE guild_id = $1 AND user_id = ANY($2::text[])');

/** The salts of the people a row names that the transaction does not hold yet, in one read (none for a roller whose salt came with the channel). */
async function readSalts(c: pg.PoolClient, entry: NewEntry, salts: SaltCache): Promise<void> {
  const missing = namedIn(entry)
    .map((n) => n.userId)
    .filter((id) => !salts.has(saltKey(entry.guildId, id)));
  if (!missing.length) return;
  const found = (await c.query<PersonSalt>(PEOPLE_OF([entry.guildId, missing]))).rows;
  for (const id of missing) salts.set(saltKey(entry.guildId, id), found.find((p) => p.user_id === id) ?? null);
}

async function lockHead(c: pg.PoolClient, guildId: string): Promise<ChainHead> {
  await c.query(HEAD_GENESIS([guildId]));
  const head = (await c.query<{ guild_seq: number; hash: string }>(HEAD_LOCK([guildId]))).rows[0]!;
  return head.guild_seq === 0 ? undefined : head;
}

/**
 * A PostgreSQL failure as the ledger's errors: a spent once-key (its unique index) is
 * AlreadyRecordedError; the server's own failures (constraint, connection, …) LedgerWriteError;
 * anything else (the caller's own errors) as it was.
 */
export function ledgerError(err: unknown, entry?: NewEntry): unknown {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e?.code === '23505' && e.constraint === 'rolls_once_key') return new AlreadyRecordedError(`${entry?.onceKey ?? 'that'} was already recorded`);
  if (err instanceof AlreadyRecordedError || err instanceof LedgerWriteError) return err;
  if (typeof e?.code === 'string' || (err instanceof Error && /ECONNREFUSED|ECONNRESET|terminat|Connection/i.test(err.message))) {
    return new LedgerWriteError(`the ledger could not record the change: ${e.message ?? String(err)}`, { cause: err });
  }
  return err;
}
