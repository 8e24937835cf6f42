import type Database from 'better-sqlite3';
import type { Db } from './database.js';
import { parseRow, readColumn, withFullChained, type LedgerRow, type RawRow, type SealedPayload } from './rows.js';
import { ChunkSizer, type ChunkBudget, yieldToEventLoop } from '../util/yield.js';
import type {
  BeaconBinding,
  BeaconBindingReads,
  BeaconBindingWrites,
  BindingState,
  EvidenceReads,
  EvidenceWrites,
  KeptEvidence,
  LateDeliveryReads,
  LateDeliveryWrites,
  MessageLinks,
} from './contract.js';
import {
  BIND_BEACON_SQL,
  bindingOf,
  CLAIM_DELIVERY_SQL,
  KEEP_EVIDENCE_SQL,
  PENDING_BINDINGS_SQL,
  BINDING_PENDING_SQL,
  rolledCutoff,
  SETTLE_BINDING_SQL,
  SETTLE_DELIVERY_SQL,
  SETTLE_ROLLED_SQL,
  UNSHOWN_RECENT_ROWS,
  UNSHOWN_ROLLS_SQL,
  WAITING_BINDINGS_SQL,
} from './common-sql.js';
import { scopeWhere } from './common-sql.js';

/** What /history, /export and /stats filter on. Every query is confined to one guild. */
export type HistoryFilter = {
  guildId: string;
  /** Players see one channel; GMs may leave it out for the whole server. */
  channelId?: string | undefined;
  userId?: string | undefined;
  system?: string | undefined;
  command?: string | undefined;
  result?: string | undefined;
  gameId?: string | undefined;
  /** A /dr category: only /dr rows rolled for it. */
  category?: string | undefined;
  /** ISO timestamps, inclusive. */
  since?: string | undefined;
  until?: string | undefined;
  /** Which kinds of row: the rolls and rulings unless given; 'all' for every row. */
  kinds?: string[] | 'all';
  /**
   * The guild's erasure rows too, whatever else the filter says (an export): they say which rows'
   * signed requests went with a person's data, and a part of the chain is read against them.
   */
  erasures?: boolean;
};

export const ROLL_KINDS = ['roll', 'reroll', 'check'];

/** The most rows a history page counts (1,000 pages): older rows are reached by narrowing with until:. */
export const HISTORY_COUNT_CAP = 10_000;

/** How each backend reads a field of the input JSON. */
const INPUT_FIELD = { sqlite: (k: string) => `json_extract(input, '$.${k}')`, postgres: (k: string) => `(input::jsonb ->> '${k}')` } as const;

/** Builds the WHERE clause of a filter; parameters are always bound, never spliced. */
export function where(f: HistoryFilter, dialect: keyof typeof INPUT_FIELD = 'sqlite'): { sql: string; params: unknown[] } {
  const kinds = f.kinds ?? ROLL_KINDS;
  const w = scopeWhere(f)
    .eq('result', f.result)
    .when(`command = 'dr' AND ${INPUT_FIELD[dialect]('category')} = ?`, f.category)
    .when('created_at >= ?', f.since || undefined)
    .when('created_at <= ?', f.until || undefined);
  if (kinds !== 'all') w.when(`kind IN (${kinds.map(() => '?').join(', ')})`, ...kinds);
  if (f.erasures && w.sql !== 'guild_id = ?') return { sql: `((${w.sql}) OR (guild_id = ? AND kind = 'erasure'))`, params: [...w.params, f.guildId] };
  return { sql: w.sql, params: w.params };
}

export const PAGE_SQL = (where: string) => `SELECT * FROM rolls WHERE ${where} ORDER BY seq DESC LIMIT ? OFFSET ?`;
/** Keyset on seq: each chunk seeks past the last one instead of counting an offset. */
/** How many rows a filter matches, counted no further than the cap + 1 (the last param). */
export const COUNT_SQL = (where: string) => `SELECT COUNT(*) AS n FROM (SELECT 1 FROM rolls WHERE ${where} LIMIT ?) AS capped`;
/** A page's rows with its count, capped. */
export const cappedPage = (rows: LedgerRow[], n: number, countCap: number) => ({ rows, total: Math.min(n, countCap), capped: n > countCap });
/** A void row's reason, by the roll it voids. */
export const voidReasons = (rows: { parent_id: string; input: string }[]) =>
  new Map(rows.map((r) => [r.parent_id, String(readColumn('input', r.input)?.reason ?? '')]));
/** What a reveal row published, by the roll it reveals. */
export const revealedPayloadsOf = (rows: { parent_id: string; input: string }[]) =>
  new Map(rows.map((r) => [r.parent_id, readColumn('input', r.input)?.payload as SealedPayload]));

export const CHUNK_SQL = (where: string) => `SELECT * FROM rolls WHERE ${where} AND seq > ? ORDER BY seq LIMIT ?`;

/** Reads of the ledger for review: history pages, single rolls' relatives, exports, statistics. */
export class History implements MessageLinks, LateDeliveryReads, LateDeliveryWrites, BeaconBindingReads, BeaconBindingWrites, EvidenceReads, EvidenceWrites {
  private readonly q;
  constructor(private readonly db: Db) {
    this.q = {
      // By the parent index, never by the server (a big server's /history page scanned
      // every row); INDEXED BY makes SQLite refuse the statement if the index ever cannot serve it.
      voids: db.prepare(
        "SELECT parent_id, input FROM rolls INDEXED BY rolls_parent WHERE parent_id IN (SELECT value FROM json_each(?)) AND parent_id IS NOT NULL AND guild_id = ? AND kind = 'void'",
      ),
      reveals: db.prepare(
        "SELECT parent_id, input FROM rolls INDEXED BY rolls_parent WHERE parent_id IN (SELECT value FROM json_each(?)) AND parent_id IS NOT NULL AND guild_id = ? AND kind = 'reveal'",
      ),
      messages: db.prepare('SELECT roll_id, message_id FROM roll_messages WHERE roll_id IN (SELECT value FROM json_each(?))'),
      link: db.prepare('INSERT OR IGNORE INTO roll_messages (roll_id, message_id) VALUES (?, ?)'),
      unshown: db.prepare(UNSHOWN_ROLLS_SQL),
      undelivered: db.prepare("SELECT roll_id, outcome FROM roll_deliveries WHERE outcome <> 'posted' AND roll_id IN (SELECT value FROM json_each(?))"),
      claimDelivery: db.prepare(CLAIM_DELIVERY_SQL),
      settleDelivery: db.prepare(SETTLE_DELIVERY_SQL),
      bind: db.prepare(BIND_BEACON_SQL),
      settleBinding: db.prepare(SETTLE_BINDING_SQL),
      settleRolled: db.prepare(SETTLE_ROLLED_SQL),
      pendingBindings: db.prepare(PENDING_BINDINGS_SQL),
      bindingPending: db.prepare(BINDING_PENDING_SQL),
      waitingBindings: db.prepare(WAITING_BINDINGS_SQL),
      keepEvidence: db.prepare(KEEP_EVIDENCE_SQL),
      evidenceOf: db.prepare(`SELECT * FROM interaction_evidence WHERE interaction_id IN (SELECT value FROM json_each(?))`),
      saltsOf: db.prepare('SELECT salt_id, salt FROM people WHERE salt_id IN (SELECT value FROM json_each(?))'),
    };
  }

  /**
   * One page, newest first, and how many rows match, counted up to `countCap`: a count of every
   * row would grow with the server, so past the cap `capped` is set and `total` is the cap.
   */
  page(f: HistoryFilter, limit: number, offset: number, countCap = HISTORY_COUNT_CAP): { rows: LedgerRow[]; total: number; capped: boolean } {
    const w = where(f);
    const rows = limit ? (this.stmt(PAGE_SQL(w.sql)).all(...w.params, limit, offset) as RawRow[]).map(parseRow) : [];
    const n = (this.stmt(COUNT_SQL(w.sql)).get(...w.params, countCap + 1) as { n: number }).n;
    return cappedPage(rows, n, countCap);
  }

  /** How SQLite runs the lookups a history page makes for its rows (voids, reveals, message links). */
  lookupPlans(): Record<'voids' | 'reveals' | 'messages', string[]> {
    const plan = (sql: string, ...params: unknown[]) =>
      (this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
    // Stryker disable StringLiteral: a plan does not depend on the values bound.
    return {
      voids: plan(this.q.voids.source, '[]', ''),
      reveals: plan(this.q.reveals.source, '[]', ''),
      messages: plan(this.q.messages.source, '[]'),
    };
    // Stryker restore StringLiteral
  }

  /** How SQLite runs a history page (`page`) or one chunk of a walk (`chunk`): for the checks that an index serves it. */
  plan(f: HistoryFilter, shape: 'page' | 'chunk' = 'page'): string[] {
    const w = where(f);
    const sql = shape === 'page' ? PAGE_SQL(w.sql) : CHUNK_SQL(w.sql);
    const params = shape === 'page' ? [...w.params, 10, 0] : [...w.params, 0, 10];
    return (this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
  }

  /** Statements by their SQL, prepared once: filters give a handful of shapes. */
  private readonly prepared = new Map<string, Database.Statement<unknown[]>>();
  private stmt(sql: string): Database.Statement<unknown[]> {
    let s = this.prepared.get(sql);
    // Stryker disable next-line ConditionalExpression: preparing again gives the same answer, only slower.
    if (!s) {
      s = this.db.prepare(sql);
      this.prepared.set(sql, s);
    }
    return s;
  }

  /**
   * Every matching row, oldest first, in chunks (exports and statistics): one chunk in memory, and
   * the event loop given back between chunks, whatever the ledger's size. Each chunk is its own
   * query (keyset on seq), so no statement stays open across the awaits.
   */
  async *chunks(f: HistoryFilter, budget?: ChunkBudget): AsyncGenerator<LedgerRow[]> {
    for await (const chunk of this.rawChunks(f, budget)) yield chunk.map(parseRow);
  }

  /** As `chunks`, with the JSON columns left as their stored text (an export writes them as they are). */
  async *rawChunks(f: HistoryFilter, budget: ChunkBudget = {}): AsyncGenerator<RawRow[]> {
    const w = where(f);
    const next = this.stmt(CHUNK_SQL(w.sql));
    const sizer = new ChunkSizer(budget);
    for (let after = 0; ; ) {
      const started = performance.now();
      const chunk = (next.all(...w.params, after, sizer.size) as RawRow[]).map(withFullChained);
      if (!chunk.length) return;
      after = chunk[chunk.length - 1]!.seq;
      yield chunk;
      // The caller has handled the chunk: size the next one to the time budget, then give way.
      sizer.took(performance.now() - started);
      await yieldToEventLoop();
    }
  }

  /** The void reason of each voided roll among these. */
  voided(guildId: string, rollIds: string[]): Map<string, string> {
    const rows = this.q.voids.all(JSON.stringify(rollIds), guildId) as { parent_id: string; input: string }[];
    return voidReasons(rows);
  }

  revealed(guildId: string, rollIds: string[]): Set<string> {
    return new Set(this.revealedPayloads(guildId, rollIds).keys());
  }

  /** What each revealed sealed roll committed to, as its reveal row published it. */
  revealedPayloads(guildId: string, rollIds: string[]): Map<string, SealedPayload> {
    const rows = this.q.reveals.all(JSON.stringify(rollIds), guildId) as { parent_id: string; input: string }[];
    return revealedPayloadsOf(rows);
  }

  messages(rollIds: string[]): Map<string, string> {
    const rows = this.q.messages.all(JSON.stringify(rollIds)) as { roll_id: string; message_id: string }[];
    return new Map(rows.map((r) => [r.roll_id, r.message_id]));
  }

  /** Remembers which message showed a roll (first one wins). */
  linkMessage(rollId: string, messageId: string): void {
    this.q.link.run(rollId, messageId);
  }

  unshownRolls(since: string, before: string, limit: number): LedgerRow[] {
    return (this.q.unshown.all(UNSHOWN_RECENT_ROWS, since, before, limit) as RawRow[]).map(parseRow);
  }

  undelivered(rollIds: string[]): Map<string, string> {
    const rows = this.q.undelivered.all(JSON.stringify(rollIds)) as { roll_id: string; outcome: string }[];
    return new Map(rows.map((r) => [r.roll_id, r.outcome]));
  }

  claimDelivery(rollId: string, at: string): boolean {
    return this.q.claimDelivery.run(rollId, at).changes === 1;
  }

  settleDelivery(rollId: string, outcome: string): void {
    this.q.settleDelivery.run(outcome, rollId);
  }

  bindBeacon(b: BeaconBinding): void {
    this.q.bind.run(b.interaction_id, b.guild_id, b.channel_id, b.user_id, b.round, b.request, b.created_at, b.game_id ?? null, b.tournament ?? 0);
  }

  settleBinding(interactionId: string, state: BindingState, rollId: string | null, at: string): boolean {
    if (state === 'rolled') return this.q.settleRolled.run(rollId, at, interactionId, rolledCutoff(at)).changes === 1;
    return this.q.settleBinding.run(state, rollId, at, interactionId).changes === 1;
  }

  pendingBindings(limit: number): BeaconBinding[] {
    return (this.q.pendingBindings.all(limit) as Parameters<typeof bindingOf>[0][]).map(bindingOf);
  }

  bindingPending(interactionId: string): boolean {
    return this.q.bindingPending.get(interactionId) !== undefined;
  }

  waitingBindings(gameId: string, guildId: string, channelId: string): BeaconBinding[] {
    return (this.q.waitingBindings.all(gameId, guildId, channelId) as Parameters<typeof bindingOf>[0][]).map(bindingOf);
  }

  keepEvidence(e: KeptEvidence): void {
    this.q.keepEvidence.run(e.interaction_id, e.guild_id, e.timestamp, e.signature, e.body, e.created_at);
  }

  evidenceOf(interactionIds: string[]): Map<string, KeptEvidence> {
    const rows = this.q.evidenceOf.all(JSON.stringify(interactionIds)) as KeptEvidence[];
    return new Map(rows.map((r) => [r.interaction_id, r]));
  }

  saltsOf(saltIds: string[]): Map<string, string> {
    const rows = this.q.saltsOf.all(JSON.stringify(saltIds)) as { salt_id: string; salt: string }[];
    return new Map(rows.map((r) => [r.salt_id, r.salt]));
  }
}
