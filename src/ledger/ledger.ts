import { personalData, sqliteSql } from './personal-data.js';
import os from 'node:os';
import { ChunkSizer, type ChunkBudget, yieldToEventLoop } from '../util/yield.js';
import type Database from 'better-sqlite3';
import { openDatabase, type Db } from './database.js';
import { migrate } from './migrate.js';
import { History } from './history.js';
import { Roster } from './roster.js';
import { SavedQueries } from './saved-queries.js';
import { Settings } from './settings.js';
import { Requests, type RequestReads, type RequestWrites, type ScheduleReads, type ScheduleWrites } from './requests.js';
import { SigningKeys, type KeyWrites } from './signing-keys.js';
import { purgeSteps, Retention, type GuildPurge, type PurgeCount, type RetentionWrites } from './retention.js';
import { nextRow, unitKey, type ChainHead } from './next-row.js';
import { parseRow, sealedRecords, type LedgerRow, type RawRow, type SealedRecord } from './rows.js';
import { promised, type LedgerTx } from './transaction.js';
import { GroupCommit, type BatchSql } from './group-commit.js';
import type {
  AppendAlso,
  BeaconBindingWrites,
  ChannelQuery,
  ChannelReads,
  ChannelState,
  EvidenceWrites,
  InteractionClaim,
  GameRowReads,
  LateDeliveryWrites,
  MessageLinks,
  OnceKeys,
  RowReads,
  RowWrites,
  StoreReads,
} from './contract.js';
import {
  CLAIM_INTERACTION_SQL,
  COUNT_PLAYER_ROLL_SQL,
  GONE_UNIT_SQL,
  INTERACTION_KEEP_MS,
  isPlayerRoll,
  PLAYER_ROLL_COUNT_SQL,
  PRUNE_EVERY,
  PERSON_INSERT_SQL,
  PRUNE_INTERACTIONS_SQL,
  SEAL_INSERT_SQL,
  UNREVEALED_SEALED_SQL,
} from './common-sql.js';
import { newSalt, type PersonSalt } from './people.js';
import { unitFromRow, unitNameAndKey, type RawUnit, type RosterReads, type RosterWrites } from './roster.js';
import type { SettingsWrites } from './settings.js';
import { GENESIS_HASH, type ChainReport } from './chain.js';
import { ChainReader, type WalkStart } from './chain-walk.js';
import { Checkpointer } from './checkpointer.js';
import { answerOf, besideModule, startWorker } from '../util/worker.js';
import {
  GUILD_TALLIES_SQL,
  needsParent,
  parseRecountRow,
  RECOUNT_SQL,
  tallyDelta,
  tallyParams,
  tallySumSql,
  UPSERT_TALLY_SQL,
  type ParentState,
  type RecountRow,
  type StoredTally,
  type TallyFilter,
  type TallyGroup,
  type TallySum,
} from './tally.js';

import type { NewEntry } from './rows.js';

import { AlreadyRecordedError, InteractionTakenError, LedgerWriteError } from './errors.js';

/**
 * `parallelVerifyFrom`: the chain length from which /verify walks in worker threads (tests lower it);
 * `checkpointInWorker`: WAL checkpoints in a worker thread (checkpointer.ts), as the bot runs;
 * `walCatchUpBytes`: the WAL's size at which the writer catches the worker up (tests lower it).
 */
export type LedgerOptions = { now?: () => Date; parallelVerifyFrom?: number; checkpointInWorker?: boolean; walCatchUpBytes?: number };

/**
 * The ledger on SQLite: the chained rows, with the roster, history, settings and saved queries
 * beside them (their SQL lives in those modules; the ledger directory is the only code that
 * writes SQL, and PostgreSQL's twin is postgres/).
 */
export class Ledger implements StoreReads, GameRowReads, RowWrites, OnceKeys, ChannelReads, GuildPurge {
  readonly db: Db;
  readonly roster: Roster;
  readonly history: History;
  readonly settings: Settings;
  readonly keys: SigningKeys;
  readonly queries: SavedQueries;
  readonly requests: Requests;
  readonly retention: Retention;
  private readonly now: () => Date;
  private readonly stmts;
  private readonly group: GroupCommit;
  private readonly reader: ChainReader;
  /** The worker that checkpoints the WAL, when the ledger was opened with one (it starts once the WAL is busy). */
  readonly checkpointer: Checkpointer | undefined;
  private readonly parallelVerifyFrom: number;

  constructor(db: Db, options: LedgerOptions = {}) {
    this.db = db;
    this.roster = new Roster(db);
    this.history = new History(db);
    this.settings = new Settings(db);
    this.keys = new SigningKeys(db);
    this.queries = new SavedQueries(db);
    this.requests = new Requests(db);
    this.retention = new Retention(db);
    this.now = options.now ?? (() => new Date());
    this.parallelVerifyFrom = options.parallelVerifyFrom ?? PARALLEL_VERIFY_FROM;
    this.reader = new ChainReader(db);
    this.checkpointer = options.checkpointInWorker && !db.memory ? new Checkpointer(db, options.walCatchUpBytes) : undefined;
    // The writer's savepoint journals (each unit of a group commit but the first has one) in memory,
    // not a temporary file: ~20 µs a roll in bursts. Set here, after the migrations, which keep
    // sorting a new index on disk; the big queries never sort into temporary tables (their plans
    // are tested), so nothing large is held for this.
    db.pragma('temp_store = MEMORY');
    // Prepared once: BEGIN and COMMIT as SQL text each time were a quarter of a roll's time.
    this.group = new GroupCommit(batchStatements(db), asWriteError, () => this.checkpointer?.committed());
    this.stmts = {
      head: db.prepare('SELECT guild_seq, hash FROM rolls WHERE guild_id = ? ORDER BY guild_seq DESC LIMIT 1'),
      insert: db.prepare(`INSERT INTO rolls
        (id, guild_id, guild_seq, channel_id, user_id, user_name, game_id, turn, phase, game_seq, command, system, kind, unit, input, dice,
         outcome, result, parent_id, once_key, created_at, prev_hash, hash, chained)
        VALUES (@id, @guild_id, @guild_seq, @channel_id, @user_id, @user_name, @game_id, @turn, @phase, @game_seq, @command, @system, @kind, @unit,
         @input, @dice, @outcome, @result, @parent_id, @once_key, @created_at, @prev_hash, @hash, @chained)`),
      saltOf: db.prepare('SELECT salt_id, user_id, salt FROM people WHERE guild_id = ? AND user_id = ?'),
      newPerson: db.prepare(PERSON_INSERT_SQL),
      byId: db.prepare('SELECT * FROM rolls WHERE guild_id = ? AND id = ?'),
      sealPayload: db.prepare(SEAL_INSERT_SQL),
      sealedPayloads: db.prepare(
        'SELECT roll_id, salt, payload, committed FROM sealed_payloads WHERE guild_id = ? AND roll_id IN (SELECT value FROM json_each(?))',
      ),
      children: db.prepare('SELECT * FROM rolls WHERE guild_id = ? AND parent_id = ? ORDER BY seq'),
      // The literal kind lets the partial index rolls_packs answer (migration 015).
      packIds: db.prepare("SELECT id FROM rolls WHERE guild_id = ? AND kind = 'pack' ORDER BY seq"),
      packRow: db.prepare('SELECT * FROM rolls WHERE guild_id = ? AND id = ?'),
      // The highest position that is a number (SQLite orders every number before any text).
      headSeq: db.prepare("SELECT MAX(guild_seq) AS n FROM rolls WHERE guild_id = ? AND guild_seq < ''"),
      count: db.prepare('SELECT COUNT(*) AS n FROM rolls WHERE guild_id = ?'),
      onceKey: db.prepare('SELECT 1 FROM rolls WHERE once_key = ?'),
      gameRolls: db.prepare("SELECT COUNT(*) AS n FROM rolls WHERE guild_id = ? AND game_id = ? AND kind IN ('roll', 'reroll')"),
      // seq is AUTOINCREMENT: its largest value is the number of rows, or more once a server's rows were purged (retention.ts).
      rowTotal: db.prepare('SELECT COALESCE(MAX(seq), 0) AS n FROM rolls'),
      gameRulings: db.prepare("SELECT COUNT(*) AS n FROM rolls WHERE guild_id = ? AND game_id = ? AND kind = 'check'"),
      gameSeq: db.prepare('SELECT MAX(game_seq) AS n FROM rolls WHERE game_id = ?'),
      playerRolls: db.prepare(PLAYER_ROLL_COUNT_SQL),
      countPlayerRoll: db.prepare(COUNT_PLAYER_ROLL_SQL),
      goneUnit: db.prepare(GONE_UNIT_SQL),
      unrevealed: db.prepare(UNREVEALED_SEALED_SQL),
      claim: db.prepare(CLAIM_INTERACTION_SQL),
      prune: db.prepare(PRUNE_INTERACTIONS_SQL),
      // From channel_units (one row per name), by prefix range on the lower-cased name.
      units: db.prepare(`SELECT unit FROM channel_units
        WHERE guild_id = ? AND channel_id = ? AND system = ? AND unit_key >= ? AND unit_key < ?
        ORDER BY last_seq DESC LIMIT ?`),
      // No prefix yet (the first keystroke): the newest names straight from the recency index, no sort.
      newestUnits: db.prepare(`SELECT unit FROM channel_units INDEXED BY channel_units_recent
        WHERE guild_id = ? AND channel_id = ? AND system = ? ORDER BY last_seq DESC LIMIT ?`),
      tally: db.prepare(UPSERT_TALLY_SQL),
      guildTallies: db.prepare(GUILD_TALLIES_SQL),
      recount: db.prepare(RECOUNT_SQL(true)),
      noteUnit: db.prepare(`INSERT INTO channel_units (guild_id, channel_id, system, unit_key, unit, last_seq) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (guild_id, channel_id, system, unit_key) DO UPDATE SET unit = excluded.unit, last_seq = excluded.last_seq`),
    };
  }

  /** Opens a ledger file and brings its schema up to date. */
  static open(file: string, options: LedgerOptions & { busyTimeoutMs?: number } = {}): Ledger {
    const db = openDatabase(file, options);
    try {
      migrate(db);
    } catch (err) {
      db.close();
      throw err;
    }
    return new Ledger(db, options);
  }

  /**
   * Appends one row to its guild's chain in a single IMMEDIATE transaction (the write lock is
   * taken before the chain head is read, so concurrent writers cannot fork the chain). Returns the
   * committed row; throws AlreadyRecordedError for a spent once-key and LedgerWriteError when
   * SQLite refuses (busy, disk full, …) — nothing is written in either case.
   */
  append(entry: NewEntry, also: AppendAlso = {}): LedgerRow {
    const write = (): LedgerRow => {
      if (also.evidence) this.history.keepEvidence(also.evidence);
      const head = this.stmts.head.get(entry.guildId) as ChainHead;
      const row = nextRow(entry, head, this.now().toISOString(), (userId) => this.stmts.saltOf.get(entry.guildId, userId) as PersonSalt | undefined);
      const tally = tallyDelta({ ...row.fields, input: entry.input }, needsParent(entry.kind) ? this.parentState(entry.guildId, entry.parentId) : undefined);
      for (const p of row.newPeople) this.stmts.newPerson.run(entry.guildId, p.user_id, p.salt_id, p.salt, row.fields.created_at);
      const info = this.stmts.insert.run({ ...row.stored, prev_hash: row.prev_hash, hash: row.hash });
      if (tally) this.stmts.tally.run(...tallyParams(tally.tally, tally.delta));
      if (row.sealed) this.stmts.sealPayload.run(row.fields.id, entry.guildId, row.sealed.salt, row.sealed.payload, row.sealed.committed);
      const seq = Number(info.lastInsertRowid);
      const unit = row.fields.unit;
      if (unit !== null) this.stmts.noteUnit.run(entry.guildId, entry.channelId, row.fields.system ?? '', unitKey(unit), unit, seq);
      if (isPlayerRoll(row.fields)) this.stmts.countPlayerRoll.run(entry.guildId, row.fields.game_id, row.fields.user_id);
      if (also.touchCard) this.requests.touchChannelCard(entry.guildId, entry.channelId, row.fields.created_at);
      return { ...row.fields, prev_hash: row.prev_hash, hash: row.hash, chained: row.chained, seq };
    };
    try {
      // Inside a caller's transaction there is no need for a savepoint: a failure undoes it all.
      return this.db.inTransaction ? write() : this.db.transaction(write).immediate();
    } catch (err) {
      // A spent once-key is refused by its unique index, so two racing writers cannot both spend it.
      if (isUniqueOnceKey(err)) throw new AlreadyRecordedError(`${entry.onceKey} was already recorded`);
      throw new LedgerWriteError(`the ledger could not record the roll: ${(err as Error).message}`, { cause: err });
    }
  }

  personKey(guildId: string, userId: string): string {
    const known = this.stmts.saltOf.get(guildId, userId) as PersonSalt | undefined;
    if (known) return known.salt_id;
    const drawn = newSalt(userId);
    this.stmts.newPerson.run(guildId, userId, drawn.salt_id, drawn.salt, this.now().toISOString());
    return drawn.salt_id;
  }

  /** The roll a reveal or void points at, as the dice report needs it (tally.ts). */
  private parentState(guildId: string, parentId: string | null | undefined): ParentState | undefined {
    const row = parentId ? this.get(guildId, parentId) : undefined;
    if (!row) return undefined;
    const children = this.children(guildId, row.id);
    const reveal = children.find((c) => c.kind === 'reveal');
    return { row, voided: children.some((c) => c.kind === 'void'), revealed: (reveal?.input as { payload?: ParentState['revealed'] } | undefined)?.payload };
  }

  /** Prepared once per shape of query (which filters, which grouping): a few hundred at most. */
  private readonly sumStatements = new Map<string, Database.Statement<unknown[]>>();
  /** Parsed pack rows by server and id, the oldest dropped first past PACK_ROWS_KEPT. */
  private readonly packRowCache = new Map<string, LedgerRow>();

  tallySums(f: TallyFilter, by: TallyGroup | undefined): TallySum[] {
    const q = tallySumSql(f, by);
    const stmt = this.sumStatements.get(q.sql) ?? this.db.prepare<unknown[]>(q.sql);
    this.sumStatements.set(q.sql, stmt);
    return stmt.all(...q.params) as TallySum[];
  }

  guildTallies(guildId: string): StoredTally[] {
    return this.stmts.guildTallies.all(guildId) as StoredTally[];
  }

  recountRows(guildId: string, afterSeq: number, limit: number): RecountRow[] {
    return (this.stmts.recount.all(guildId, afterSeq, limit) as Parameters<typeof parseRecountRow>[0][]).map(parseRecountRow);
  }

  /** A row of this guild by its id; another guild's row is invisible here. */
  get(guildId: string, id: string): LedgerRow | undefined {
    const r = this.stmts.byId.get(guildId, id) as RawRow | undefined;
    return r && parseRow(r);
  }

  /** Rows that point at a roll, oldest first: re-rolls, decisions, voids, notes, reveals, roster changes. */
  /**
   * A server's pack rows, read for every command (a pack adds its own): their ids from the index,
   * each row parsed once and kept (rows never change), so a roll does not parse every installed
   * pack's JSON again.
   */
  packRows(guildId: string): LedgerRow[] {
    return (this.stmts.packIds.all(guildId) as { id: string }[]).map(({ id }) => {
      const key = `${guildId}:${id}`;
      let row = this.packRowCache.get(key);
      if (!row) {
        row = parseRow(this.stmts.packRow.get(guildId, id) as RawRow);
        if (this.packRowCache.size >= PACK_ROWS_KEPT) this.packRowCache.delete(this.packRowCache.keys().next().value!);
        this.packRowCache.set(key, row);
      }
      return row;
    });
  }

  children(guildId: string, parentId: string): LedgerRow[] {
    return (this.stmts.children.all(guildId, parentId) as RawRow[]).map(parseRow);
  }

  /** What sealed rolls committed to, with their salts: for GMs and /reveal only (never shown to members). */
  sealedPayloads(guildId: string, rollIds: string[]): Map<string, SealedRecord> {
    const rows = this.stmts.sealedPayloads.all(guildId, JSON.stringify(rollIds)) as { roll_id: string; salt: string; payload: string }[];
    return sealedRecords(rows);
  }

  count(guildId: string): number {
    return (this.stmts.count.get(guildId) as { n: number }).n;
  }

  onceKeyTaken(key: string): boolean {
    return this.stmts.onceKey.get(key) !== undefined;
  }

  /** Dice rolls (not rulings or decisions) made in a game. */
  gameRollCount(guildId: string, gameId: string): number {
    return (this.stmts.gameRolls.get(guildId, gameId) as { n: number }).n;
  }

  rowTotal(): number {
    return (this.stmts.rowTotal.get() as { n: number }).n;
  }

  /** Rulings with no dice (/disorder, /brigade, /fatigue) made in a game. */
  gameRulingCount(guildId: string, gameId: string): number {
    return (this.stmts.gameRulings.get(guildId, gameId) as { n: number }).n;
  }

  /** The player's game rolls so far (kept as rows are appended: migration 021). Call inside the roll's transaction. */
  playerRollCount(gameId: string, userId: string): number {
    return (this.stmts.playerRolls.get(gameId, userId) as { n: number } | undefined)?.n ?? 0;
  }

  /** What a unit of work starts with (ChannelReads), read with the statements each read has on its own. */
  channelState(q: ChannelQuery): ChannelState {
    const game = this.roster.activeGame(q.guildId, q.channelId);
    const state: ChannelState = { game, settings: this.settings.get(q.guildId) };
    if (!game) return state;
    if (q.unit !== undefined) {
      const unit = this.roster.unitByName(game.id, q.unit);
      const gone = unit ? undefined : (this.stmts.goneUnit.get(game.id, unitNameAndKey(q.unit).name_key) as RawUnit | undefined);
      state.named = { name: q.unit, unit, gone: gone && unitFromRow(gone) };
    }
    if (q.roller !== undefined) state.numbers = { nextGameSeq: this.nextGameSeq(game.id), playerRollCount: this.playerRollCount(game.id, q.roller) };
    return state;
  }

  unrevealedSealed(guildId: string, gameId: string): LedgerRow[] {
    return (this.stmts.unrevealed.all(guildId, gameId) as RawRow[]).map(parseRow);
  }

  private claims = 0;

  claimInteraction(id: string, guildId: string, at: string): boolean {
    if (++this.claims % PRUNE_EVERY === 0) this.stmts.prune.run(new Date(Date.parse(at) - INTERACTION_KEEP_MS).toISOString());
    return this.stmts.claim.run(id, guildId, at).changes === 1;
  }

  nextGameSeq(gameId: string): number {
    return ((this.stmts.gameSeq.get(gameId) as { n: number | null }).n ?? 0) + 1;
  }

  /** The current time as the ledger writes it. */
  timestamp(): string {
    return this.now().toISOString();
  }

  /**
   * Runs `work` in one IMMEDIATE transaction with its own handle: the ledger rows and roster
   * changes it makes commit together or not at all. SQLite answers every call at once, so a
   * transaction never waits on I/O; units run one after another, so another request's work can
   * never slip into this one between two of its awaits, and units that queue meanwhile share the
   * next COMMIT (group-commit.ts). SQLite failures become LedgerWriteError; the caller's own errors
   * pass through after the rollback. No guild needs a lock here (one writer); `claim` is claimed first.
   */
  transaction<T>(work: (tx: LedgerTx) => Promise<T> | T, _guildId?: string, claim?: InteractionClaim): Promise<T> {
    return this.group.run(async () => {
      if (claim) this.claimFirst(claim);
      return work(this.tx());
    });
  }

  /** The claim a transaction makes before its work (InteractionClaim). */
  private claimFirst(claim: InteractionClaim): void {
    if (!this.claimInteraction(claim.id, claim.guildId, this.timestamp())) throw new InteractionTakenError(`interaction ${claim.id} was claimed before`);
    claim.claimed = true;
  }

  private handle: LedgerTx | undefined;

  /**
   * Deletes a server's data in one transaction (retention.ts): a chunk at a time, giving the event
   * loop back between chunks; units of work that queue meanwhile wait for its COMMIT (group commit).
   */
  purgeGuild(guildId: string, leftAt: string): Promise<PurgeCount | undefined> {
    return this.transaction(() => purgeSteps(this.retention.runner(yieldToEventLoop), guildId, leftAt));
  }

  /** Transactions committed and the units of work they held (group commit shares one among many). */
  get commits(): Readonly<{ commits: number; units: number }> {
    return this.group.counts;
  }

  private tx(): LedgerTx {
    this.handle ??= {
      ...promised<RowReads & GameRowReads & RowWrites & OnceKeys & ChannelReads>(this),
      timestamp: () => this.timestamp(),
      roster: promised<RosterReads & RosterWrites>(this.roster),
      settings: promised<SettingsWrites>(this.settings),
      keys: promised<KeyWrites>(this.keys),
      history: promised<MessageLinks & LateDeliveryWrites & BeaconBindingWrites & EvidenceWrites>(this.history),
      requests: promised<RequestReads & RequestWrites & ScheduleReads & ScheduleWrites>(this.requests),
      retention: promised<RetentionWrites>(this.retention),
      personal: personalData(sqliteSql(this.db)),
    };
    return this.handle;
  }

  /** Unit names used in a channel, most recent first, for autocomplete. */
  recentUnits(guildId: string, channelId: string, prefix: string, limit: number, system: string): string[] {
    const from = unitKey(prefix);
    const rows = from
      ? this.stmts.units.all(guildId, channelId, system, from, `${from}\u{10ffff}`, limit)
      : this.stmts.newestUnits.all(guildId, channelId, system, limit);
    return (rows as { unit: string }[]).map((r) => r.unit);
  }

  /**
   * How SQLite runs the autocomplete lookups, for the test that indexes serve them: with no prefix,
   * the recency index; with one, the key range of the names it starts (only those are sorted).
   */
  recentUnitsPlans(): { newest: string[]; prefix: string[] } {
    const plan = (sql: string, ...params: unknown[]) =>
      (this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
    // Stryker disable next-line StringLiteral: a plan does not depend on the values bound.
    return { newest: plan(this.stmts.newestUnits.source, 'g', 'c', 's', 25), prefix: plan(this.stmts.units.source, 'g', 'c', 's', 'a', 'b', 25) };
  }

  /** Recomputes a guild's hash chain from its first row (up to a position, when given). */
  verify(guildId: string, upToGuildSeq?: number): ChainReport {
    const upTo = upToGuildSeq ?? Number.MAX_SAFE_INTEGER;
    const walked = this.reader.strayFirst(guildId) ?? this.reader.walk(guildId, FROM_GENESIS, upTo);
    return upToGuildSeq === undefined ? this.reader.strayPast(guildId, upTo, walked) : walked;
  }

  /**
   * The check /verify runs, up to the chain's head when it starts (rows appended meanwhile are
   * left for the next check). A long chain in a file is walked by worker threads, one part each
   * (walkInThreads), and this thread stays free; a short one here, in chunks.
   */
  async verifyInChunks(guildId: string, upToGuildSeq?: number, budget?: ChunkBudget): Promise<ChainReport> {
    const head = (this.stmts.headSeq.get(guildId) as { n: number | null }).n ?? 0;
    const upTo = Math.min(upToGuildSeq ?? head, head);
    const first = this.reader.strayFirst(guildId);
    if (first) return first;
    const walked =
      this.db.memory || upTo < this.parallelVerifyFrom
        ? await this.walkInChunks(guildId, FROM_GENESIS, upTo, budget)
        : await this.walkInThreads(guildId, upTo, budget);
    // Past every number: rows appended while the walk ran are left for the next check, as above.
    return upToGuildSeq === undefined ? this.reader.strayPast(guildId, Number.POSITIVE_INFINITY, walked) : walked;
  }

  /**
   * The chain cut into parts, each walked by a worker on its own connection from the stored hash
   * where it begins. The reports join in order only where each part ended exactly where the next
   * began (its last position, its hash); anywhere else — a row deleted at a cut, a worker that
   * failed — the rest is walked here from the last join, so the report is the one a single walk gives.
   */
  private async walkInThreads(guildId: string, upTo: number, budget?: ChunkBudget): Promise<ChainReport> {
    const cuts = Array.from({ length: VERIFY_THREADS + 1 }, (_, i) => Math.floor((upTo * i) / VERIFY_THREADS));
    const starts = cuts.slice(0, -1).map((at): WalkStart => (at === 0 ? FROM_GENESIS : { prev: this.reader.storedHash(guildId, at) ?? '', count: at }));
    const worker = (from: WalkStart, i: number) =>
      answerOf<ChainReport>(
        startWorker(besideModule(import.meta.url, 'verify-worker'), { file: this.db.name, guildId, from, upTo: cuts[i + 1] }),
        'verify worker',
      );
    const reports = await Promise.all(starts.map((from, i) => worker(from, i).catch(() => undefined)));
    let joined = FROM_GENESIS;
    let erased = 0;
    const erasedSalts = new Set<string>();
    for (const [i, report] of reports.entries()) {
      if (!report || joined.count !== starts[i]!.count || joined.prev !== starts[i]!.prev) return this.walkInChunks(guildId, joined, upTo, budget);
      if (!report.ok) return report;
      joined = { prev: report.headHash, count: report.count };
      erased += report.erased ?? 0;
      for (const id of report.erasedSalts ?? []) erasedSalts.add(id);
    }
    return { ok: true, count: joined.count, headHash: joined.prev, ...(erased ? { erased, erasedSalts: [...erasedSalts] } : {}) };
  }

  /** The walk from `from` to `upTo` in chunks sized to a time budget (ChunkSizer), giving the event loop back between them. */
  private async walkInChunks(guildId: string, from: WalkStart, upTo: number, budget?: ChunkBudget): Promise<ChainReport> {
    const walker = this.reader.walker(guildId, from);
    const sizer = new ChunkSizer(budget);
    let after = from.count;
    // The query stops at upTo: an empty chunk is the end of the walk.
    for (;;) {
      const started = performance.now();
      const rows = this.reader.chunk(guildId, after, upTo, sizer.size);
      if (!rows.length) break;
      for (const row of rows) if (walker.feed(row)) return walker.report();
      after = rows[rows.length - 1]!.guild_seq;
      sizer.took(performance.now() - started);
      await yieldToEventLoop();
    }
    return walker.report();
  }

  close(): void {
    this.checkpointer?.stop();
    this.db.close(); // closing twice is harmless
  }
}

function batchStatements(db: Db): BatchSql {
  const [begin, commit, rollback, savepoint, release, rollbackTo] = [
    'BEGIN IMMEDIATE',
    'COMMIT',
    'ROLLBACK',
    'SAVEPOINT unit',
    'RELEASE unit',
    'ROLLBACK TO unit',
  ].map((sql) => db.prepare(sql));
  return {
    begin: () => begin!.run(),
    commit: () => commit!.run(),
    rollback: () => rollback!.run(),
    savepoint: () => savepoint!.run(),
    release: () => release!.run(),
    rollbackTo: () => rollbackTo!.run(),
    inTransaction: () => db.inTransaction,
  };
}

const FROM_GENESIS: WalkStart = { prev: GENESIS_HASH, count: 0 };
/** Pack rows kept parsed: a few packs in each of many servers. */
const PACK_ROWS_KEPT = 512;

/** Chains shorter than this are checked in this thread: a worker's start costs more than it saves. */
export const PARALLEL_VERIFY_FROM = 50_000;

/** Workers a long chain's check is shared among: one a core, two at least (this thread only waits), four at most. */
const VERIFY_THREADS = Math.min(4, Math.max(2, os.availableParallelism()));

/** SQLite's own failures (busy, disk full, …) as LedgerWriteError; anything else as it was. */
function asWriteError(err: unknown): unknown {
  if (err instanceof Error && 'code' in err && String((err as { code: unknown }).code).startsWith('SQLITE_')) {
    return new LedgerWriteError(`the ledger could not record the change: ${err.message}`, { cause: err });
  }
  return err;
}

function isUniqueOnceKey(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === 'SQLITE_CONSTRAINT_UNIQUE' && /once_key/.test(e.message ?? '');
}
