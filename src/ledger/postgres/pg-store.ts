import type pg from 'pg';
import type { ChainReport } from '../chain.js';
import { CHUNK_SQL, COUNT_SQL, cappedPage, HISTORY_COUNT_CAP, PAGE_SQL, revealedPayloadsOf, voidReasons, where, type HistoryFilter } from '../history.js';
import { unitKey } from '../next-row.js';
import {
  DuplicateUnitError,
  GameRunningError,
  likePrefix,
  patched,
  unitFromRow,
  unitNameAndKey,
  type Game,
  type RawUnit,
  type SeedCommitment,
} from '../roster.js';
import { parseRow, sealedRecords, withFullChained, type LedgerRow, type RawRow, type SealedRecord } from '../rows.js';
import { savedQueryAsOf, savedQueryCutoff, type SavedQuery } from '../saved-queries.js';
import { NO_SETTINGS, SET_LOG_CHANNEL_SQL, SETTINGS_SELECT, type GuildSettings } from '../settings.js';
import type { HistoryPage, LedgerStore } from '../store.js';
import type { Async, LedgerTx } from '../transaction.js';
import { KEY_SQL, type KeyRecord } from '../signing-keys.js';
import {
  BIND_BEACON_SQL,
  bindingOf,
  CLAIM_DELIVERY_SQL,
  PENDING_BINDINGS_SQL,
  BINDING_PENDING_SQL,
  rolledCutoff,
  SETTLE_BINDING_SQL,
  SETTLE_ROLLED_SQL,
  WAITING_BINDINGS_SQL,
  KEEP_EVIDENCE_SQL,
  CLAIM_INTERACTION_SQL,
  INTERACTION_KEEP_MS,
  PLAYER_ROLL_COUNT_SQL,
  PRUNE_EVERY,
  PRUNE_INTERACTIONS_SQL,
  SETTLE_DELIVERY_SQL,
  UNREVEALED_SEALED_SQL,
  UNSHOWN_RECENT_ROWS,
  UNSHOWN_ROLLS_SQL,
} from '../common-sql.js';
import type { RosterWrites } from '../roster.js';
import type { InteractionClaim, KeptEvidence } from '../contract.js';
import type { ChainHead } from '../next-row.js';
import { channelStateOn, GUILD_LOCK, lockAndClaim } from './pg-unit-of-work.js';
import { ledgerError, numbered, PgLedger, saltKey, type PgConnectOptions, type SaltCache } from './pg-ledger.js';
import { pgRequests } from './pg-requests.js';
import { pgPurge, pgRetention } from './pg-retention.js';
import type { PurgeCount } from '../retention.js';
import { pgSql } from './pg-personal-data.js';
import { personalData } from '../personal-data.js';
import { GUILD_TALLIES_SQL, parseRecountRow, RECOUNT_SQL, tallySumSql, type StoredTally, type TallyFilter, type TallyGroup, type TallySum } from '../tally.js';

type Q = Pick<pg.PoolClient, 'query'>;
const all = async <T>(q: Q, sql: string, params: unknown[] = []) => (await q.query(sql, params)).rows as T[];
const one = async <T>(q: Q, sql: string, params: unknown[] = []) => (await all<T>(q, sql, params))[0];
type RawBinding = Parameters<typeof bindingOf>[0];

/** Reads any connection can make: the pool's, or a transaction's. */
function reads(q: Q) {
  return {
    get: async (guildId: string, id: string) => {
      const r = await one<RawRow>(q, 'SELECT * FROM rolls WHERE guild_id = $1 AND id = $2', [guildId, id]);
      return r && parseRow(r);
    },
    packRows: async (guildId: string) =>
      (await all<RawRow>(q, "SELECT * FROM rolls WHERE guild_id = $1 AND kind = 'pack' ORDER BY seq", [guildId])).map(parseRow),
    children: async (guildId: string, parentId: string) =>
      (await all<RawRow>(q, 'SELECT * FROM rolls WHERE guild_id = $1 AND parent_id = $2 ORDER BY seq', [guildId, parentId])).map(parseRow),
    gameRollCount: async (guildId: string, gameId: string) =>
      (await one<{ n: number }>(q, "SELECT count(*)::int AS n FROM rolls WHERE guild_id = $1 AND game_id = $2 AND kind IN ('roll', 'reroll')", [
        guildId,
        gameId,
      ]))!.n,
    playerRollCount: async (gameId: string, userId: string) => (await one<{ n: number }>(q, numbered(PLAYER_ROLL_COUNT_SQL), [gameId, userId]))?.n ?? 0,
    unrevealedSealed: async (guildId: string, gameId: string) => (await all<RawRow>(q, numbered(UNREVEALED_SEALED_SQL), [guildId, gameId])).map(parseRow),
    sealedPayloads: async (guildId: string, rollIds: string[]) =>
      sealedRecords(
        await all<{ roll_id: string; salt: string; payload: string }>(
          q,
          'SELECT roll_id, salt, payload, committed FROM sealed_payloads WHERE guild_id = $1 AND roll_id = ANY($2::text[])',
          [guildId, rollIds],
        ),
      ),
    roster: {
      activeGame: (guildId: string, channelId: string) =>
        one<Game>(q, 'SELECT * FROM games WHERE guild_id = $1 AND channel_id = $2 AND ended_at IS NULL', [guildId, channelId]),
      game: (guildId: string, id: string) => one<Game>(q, 'SELECT * FROM games WHERE guild_id = $1 AND id = $2', [guildId, id]),
      unit: async (id: number) => {
        const r = await one<RawUnit>(q, 'SELECT * FROM units WHERE id = $1', [id]);
        return r && unitFromRow(r);
      },
      unitByName: async (gameId: string, name: string) => {
        const r = await one<RawUnit>(q, 'SELECT * FROM units WHERE game_id = $1 AND name_key = $2 AND removed_at IS NULL', [
          gameId,
          unitNameAndKey(name).name_key,
        ]);
        return r && unitFromRow(r);
      },
      units: async (gameId: string, limit: number, offset: number) =>
        (
          await all<RawUnit>(q, 'SELECT * FROM units WHERE game_id = $1 AND removed_at IS NULL ORDER BY name_key LIMIT $2 OFFSET $3', [gameId, limit, offset])
        ).map(unitFromRow),
      recentGames: (guildId: string, channelId: string | undefined, limit: number) =>
        all<Game>(q, 'SELECT * FROM games WHERE guild_id = $1 AND ($2::text IS NULL OR channel_id = $2) ORDER BY started_at DESC LIMIT $3', [
          guildId,
          channelId ?? null,
          limit,
        ]),
      everyUnit: async (gameId: string) => (await all<RawUnit>(q, 'SELECT * FROM units WHERE game_id = $1 ORDER BY id', [gameId])).map(unitFromRow),
      countUnits: async (gameId: string) =>
        (await one<{ n: number }>(q, 'SELECT count(*)::int AS n FROM units WHERE game_id = $1 AND removed_at IS NULL', [gameId]))!.n,
      unitNames: async (gameId: string, prefix: string, limit: number) =>
        (
          await all<{ name: string }>(
            q,
            "SELECT name FROM units WHERE game_id = $1 AND removed_at IS NULL AND name_key LIKE $2 ESCAPE '\\' ORDER BY name_key LIMIT $3",
            [gameId, likePrefix(prefix.toLowerCase()), limit],
          )
        ).map((r) => r.name),
    },
  };
}

/** The roster's writes on a transaction's connection (`r`: its reads). */
function rosterWrites(c: Q, r: ReturnType<typeof reads>): Async<RosterWrites> {
  return {
    startGame: async (g) => {
      const running = await r.roster.activeGame(g.guild_id, g.channel_id);
      if (running) throw new GameRunningError(running);
      await c.query(
        'INSERT INTO games (id, guild_id, channel_id, system, name, started_by, started_at, server_seed, dice_scheme) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
        [g.id, g.guild_id, g.channel_id, g.system, g.name, g.started_by, g.started_at, g.server_seed, g.dice_scheme ?? null],
      );
      return (await r.roster.game(g.guild_id, g.id))!;
    },
    setSeedCommitments: async (gameId, commitments: SeedCommitment[]) => {
      const revealed = commitments.filter((x) => x.seed !== null).map((x) => x.seed);
      await c.query('UPDATE games SET seed_commitments = $1, player_seeds = $2 WHERE id = $3', [JSON.stringify(commitments), JSON.stringify(revealed), gameId]);
    },
    setTurn: async (gameId, turn, phase) => {
      await c.query('UPDATE games SET turn = $1, phase = $2 WHERE id = $3', [turn, phase, gameId]);
    },
    setGameOption: async (gameId, key, value) => {
      await c.query("UPDATE games SET options = jsonb_set(coalesce(options, '{}')::jsonb, ARRAY[$1], $2::jsonb)::text WHERE id = $3", [
        key,
        JSON.stringify(value),
        gameId,
      ]);
    },
    setPlayerSide: async (gameId, userId, side) => {
      await c.query(
        `UPDATE games SET options = jsonb_set(jsonb_set(coalesce(options, '{}')::jsonb, '{sides}', coalesce(options::jsonb -> 'sides', '{}'::jsonb)),
           ARRAY['sides', $1], $2::jsonb)::text WHERE id = $3`,
        [userId, JSON.stringify(side), gameId],
      );
    },
    endGame: async (gameId, at) => {
      await c.query('UPDATE games SET ended_at = $1 WHERE id = $2 AND ended_at IS NULL', [at, gameId]);
    },
    addUnit: async (u) => {
      if (await r.roster.unitByName(u.game_id, u.name)) throw new DuplicateUnitError(`there is already a unit named ${u.name} in this game`);
      const { name, name_key } = unitNameAndKey(u.name);
      const { id } = (await one<{ id: number }>(
        c,
        `INSERT INTO units (game_id, name, name_key, owner_id, owner_name, side, fields, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING id`,
        [u.game_id, name, name_key, u.owner_id, u.owner_name, u.side, JSON.stringify(u.fields), u.at],
      ))!;
      return (await r.roster.unit(id))!;
    },
    patchUnit: async (id, patch, at) => {
      // The row is locked as it is read: its patch applies to what is stored now.
      const row = await one<RawUnit>(c, 'SELECT * FROM units WHERE id = $1 FOR UPDATE', [id]);
      const u = patched(unitFromRow(row!), patch);
      const clash = patch.name === undefined ? undefined : await r.roster.unitByName(u.game_id, u.name);
      if (clash && clash.id !== u.id) throw new DuplicateUnitError(`there is already a unit named ${clash.name} in this game`);
      const { name, name_key } = unitNameAndKey(u.name);
      await c.query('UPDATE units SET name = $1, name_key = $2, owner_id = $3, owner_name = $4, side = $5, fields = $6, updated_at = $7 WHERE id = $8', [
        name,
        name_key,
        u.owner_id,
        u.owner_name,
        u.side,
        JSON.stringify(u.fields),
        at,
        u.id,
      ]);
      return (await r.roster.unit(u.id))!;
    },
    removeUnit: async (id, at) => {
      await c.query('UPDATE units SET removed_at = $1 WHERE id = $2', [at, id]);
    },
  };
}

/**
 * A transaction's appends and the read its unit of work starts with. The guild's chain head, once
 * the transaction holds it locked (read FOR UPDATE with the channel, or moved by an append), is
 * not read again.
 */
function chained(ledger: PgLedger, c: pg.PoolClient): Pick<LedgerTx, 'append' | 'channelState' | 'personKey'> {
  let held: { guildId: string; head: NonNullable<ChainHead> } | undefined;
  const salts: SaltCache = new Map();
  return {
    append: async (entry, also) => {
      try {
        const row = await ledger.appendOn(c, entry, also, held?.guildId === entry.guildId ? held.head : undefined, salts);
        held = { guildId: entry.guildId, head: { guild_seq: row.guild_seq, hash: row.hash } };
        return row;
      } catch (err) {
        throw ledgerError(err, entry);
      }
    },
    // The roller's salt came with the channel's state: a first roll in the server draws one here, which its append then uses.
    personKey: async (guildId, userId) => (await ledger.personSaltOn(c, guildId, userId, salts)).salt_id,
    channelState: async (q) => {
      const { state, head, salt } = await channelStateOn(c, q);
      if (head) held = { guildId: q.guildId, head };
      if (q.roller !== undefined) salts.set(saltKey(q.guildId, q.roller), salt);
      return state;
    },
  };
}

/**
 * The ledger on PostgreSQL as the bot's store: the same reads and transactions as the
 * SQLite ledger, for any number of processes on any number of machines. A transaction of a guild
 * first takes that guild's advisory lock, so its reads and writes (a roster unit read, changed and
 * written back) never interleave with another process's; appends also lock the chain head row.
 */
export class PgStore implements LedgerStore {
  readonly backend = 'postgres' as const;
  readonly sqliteFile = undefined;
  private claims = 0;
  private readonly r;

  private constructor(readonly ledger: PgLedger) {
    this.r = reads(ledger.pool);
    this.roster = this.r.roster;
  }

  static async connect(url: string, options: PgConnectOptions = {}): Promise<PgStore> {
    return new PgStore(await PgLedger.connect(url, options));
  }

  /** The store over a ledger already connected (PgLedger.connectWhenUp, at start-up). */
  static over(ledger: PgLedger): PgStore {
    return new PgStore(ledger);
  }

  private get pool() {
    return this.ledger.pool;
  }

  timestamp(): string {
    return this.ledger.timestamp();
  }

  get(guildId: string, id: string) {
    return this.r.get(guildId, id);
  }

  children(guildId: string, parentId: string) {
    return this.r.children(guildId, parentId);
  }

  packRows(guildId: string) {
    return this.r.packRows(guildId);
  }

  gameRollCount(guildId: string, gameId: string) {
    return this.r.gameRollCount(guildId, gameId);
  }

  async gameRulingCount(guildId: string, gameId: string): Promise<number> {
    return (await one<{ n: number }>(this.pool, "SELECT count(*)::int AS n FROM rolls WHERE guild_id = $1 AND game_id = $2 AND kind = 'check'", [
      guildId,
      gameId,
    ]))!.n;
  }

  /** Each guild's head holds its row count (a sequence would over-count: it skips on rollback). */
  async rowTotal(): Promise<number> {
    return Number((await one<{ n: string }>(this.pool, 'SELECT COALESCE(SUM(guild_seq), 0) AS n FROM chain_heads', []))!.n);
  }

  async tallySums(f: TallyFilter, by: TallyGroup | undefined): Promise<TallySum[]> {
    const q = tallySumSql(f, by);
    return all<TallySum>(this.pool, numbered(q.sql), q.params);
  }

  guildTallies(guildId: string): Promise<StoredTally[]> {
    return all<StoredTally>(this.pool, numbered(GUILD_TALLIES_SQL), [guildId]);
  }

  async recountRows(guildId: string, afterSeq: number, limit: number) {
    return (await all<Parameters<typeof parseRecountRow>[0]>(this.pool, numbered(RECOUNT_SQL(true)), [guildId, afterSeq, limit])).map(parseRecountRow);
  }

  sealedPayloads(guildId: string, rollIds: string[]): Promise<Map<string, SealedRecord>> {
    return this.r.sealedPayloads(guildId, rollIds);
  }

  async recentUnits(guildId: string, channelId: string, prefix: string, limit: number, system: string): Promise<string[]> {
    const key = unitKey(prefix);
    const rows = await all<{ unit: string }>(
      this.pool,
      `SELECT unit FROM channel_units WHERE guild_id = $1 AND channel_id = $2 AND system = $3 ${key ? 'AND starts_with(unit_key, $5)' : ''}
       ORDER BY last_seq DESC LIMIT $4`,
      key ? [guildId, channelId, system, limit, key] : [guildId, channelId, system, limit],
    );
    return rows.map((r) => r.unit);
  }

  verifyInChunks(guildId: string, upToGuildSeq?: number): Promise<ChainReport> {
    return this.ledger.verify(guildId, upToGuildSeq);
  }

  /** A transaction that takes a transaction id commits: the server wrote and flushed its log. */
  async probeWrite(): Promise<void> {
    try {
      await this.ledger.inTransaction((c) => c.query('SELECT pg_current_xact_id()'));
    } catch (err) {
      throw ledgerError(err);
    }
  }

  /** `work` in one transaction; with `guildId`, after that guild's lock (see the class), and `claim` claimed with it. */
  async transaction<T>(work: (tx: LedgerTx) => Promise<T> | T, guildId?: string, claim?: InteractionClaim): Promise<T> {
    try {
      return await this.ledger.inTransaction(async (c) => {
        await lockAndClaim(c, guildId, claim, this.timestamp(), claim !== undefined && ++this.claims % PRUNE_EVERY === 0);
        return work(this.tx(c));
      });
    } catch (err) {
      throw ledgerError(err);
    }
  }

  private tx(c: pg.PoolClient): LedgerTx {
    const r = reads(c);
    return {
      ...chained(this.ledger, c),
      nextGameSeq: async (gameId) => ((await one<{ n: number | null }>(c, 'SELECT max(game_seq) AS n FROM rolls WHERE game_id = $1', [gameId]))!.n ?? 0) + 1,
      get: r.get,
      children: r.children,
      packRows: r.packRows,
      gameRollCount: r.gameRollCount,
      sealedPayloads: r.sealedPayloads,
      playerRollCount: r.playerRollCount,
      onceKeyTaken: async (key) => (await c.query('SELECT 1 FROM rolls WHERE once_key = $1', [key])).rowCount === 1,
      unrevealedSealed: r.unrevealedSealed,
      claimInteraction: async (id, guildId, at) => {
        if (++this.claims % PRUNE_EVERY === 0) await c.query(numbered(PRUNE_INTERACTIONS_SQL), [new Date(Date.parse(at) - INTERACTION_KEEP_MS).toISOString()]);
        return (await c.query(numbered(CLAIM_INTERACTION_SQL), [id, guildId, at])).rowCount === 1;
      },
      timestamp: () => this.timestamp(),
      roster: { ...r.roster, ...rosterWrites(c, r) },
      settings: {
        setGmRole: async (guildId, roleId) => {
          await c.query(
            'INSERT INTO guild_config (guild_id, gm_role_id) VALUES ($1, $2) ON CONFLICT (guild_id) DO UPDATE SET gm_role_id = excluded.gm_role_id',
            [guildId, roleId],
          );
        },
        setLogChannel: async (guildId, channelId) => {
          await c.query(numbered(SET_LOG_CHANNEL_SQL), [guildId, channelId]);
        },
        setGmChannel: async (guildId, channelId) => {
          await c.query(
            'INSERT INTO guild_config (guild_id, gm_channel_id) VALUES ($1, $2) ON CONFLICT (guild_id) DO UPDATE SET gm_channel_id = excluded.gm_channel_id',
            [guildId, channelId],
          );
        },
      },
      keys: {
        register: async (k) => {
          await c.query(numbered(KEY_SQL.register), [k.fingerprint, k.public_key, k.valid_from, k.valid_until]);
        },
        retire: async (fingerprint, at) => {
          await c.query(numbered(KEY_SQL.retire), [at, fingerprint]);
        },
      },
      history: {
        linkMessage: async (rollId, messageId) => {
          await c.query('INSERT INTO roll_messages (roll_id, message_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [rollId, messageId]);
        },
        claimDelivery: async (rollId, at) => ((await c.query(numbered(CLAIM_DELIVERY_SQL), [rollId, at])).rowCount ?? 0) === 1,
        settleDelivery: async (rollId, outcome) => {
          await c.query(numbered(SETTLE_DELIVERY_SQL), [outcome, rollId]);
        },
        bindBeacon: async (b) => {
          const values = [b.interaction_id, b.guild_id, b.channel_id, b.user_id, b.round, b.request, b.created_at, b.game_id ?? null, b.tournament ?? 0];
          await c.query(numbered(BIND_BEACON_SQL), values);
        },
        settleBinding: async (id, state, rollId, at) => {
          const settled =
            state === 'rolled'
              ? await c.query(numbered(SETTLE_ROLLED_SQL), [rollId, at, id, rolledCutoff(at)])
              : await c.query(numbered(SETTLE_BINDING_SQL), [state, rollId, at, id]);
          return (settled.rowCount ?? 0) === 1;
        },
        waitingBindings: async (gameId, guildId, channelId) =>
          (await all<RawBinding>(c, numbered(WAITING_BINDINGS_SQL), [gameId, guildId, channelId])).map(bindingOf),
        keepEvidence: async (e) => {
          await c.query(numbered(KEEP_EVIDENCE_SQL), [e.interaction_id, e.guild_id, e.timestamp, e.signature, e.body, e.created_at]);
        },
      },
      requests: pgRequests(c),
      retention: pgRetention(c),
      personal: personalData(pgSql(c)),
    };
  }

  readonly roster: LedgerStore['roster'];

  get requests(): LedgerStore['requests'] {
    return pgRequests(this.pool);
  }

  get retention(): LedgerStore['retention'] {
    return pgRetention(this.pool);
  }

  /** A server's data deleted in one transaction, under the server's lock: no roll of it interleaves (retention.ts). */
  async purgeGuild(guildId: string, leftAt: string): Promise<PurgeCount | undefined> {
    try {
      return await this.ledger.inTransaction(async (c) => {
        await c.query(GUILD_LOCK([guildId]));
        return pgPurge(c, guildId, leftAt);
      });
    } catch (err) {
      throw ledgerError(err);
    }
  }

  get personal(): LedgerStore['personal'] {
    return personalData(pgSql(this.pool));
  }

  readonly keys = { list: async (): Promise<KeyRecord[]> => all<KeyRecord>(this.ledger.pool, KEY_SQL.list, []) };

  readonly settings = {
    get: async (guildId: string): Promise<GuildSettings> =>
      (await one<GuildSettings>(this.ledger.pool, numbered(SETTINGS_SELECT), [guildId])) ?? { ...NO_SETTINGS },
  };

  readonly queries = {
    save: async (q: Omit<SavedQuery, 'params'> & { params: Record<string, unknown> }) => {
      await this.pool.query('DELETE FROM saved_queries WHERE created_at < $1', [savedQueryCutoff(q.created_at)]);
      await this.pool.query('INSERT INTO saved_queries (id, guild_id, channel_id, user_id, params, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
        q.id,
        q.guild_id,
        q.channel_id,
        q.user_id,
        JSON.stringify(q.params),
        q.created_at,
      ]);
    },
    get: async (guildId: string, id: string, now: string): Promise<SavedQuery | 'expired' | undefined> => {
      const r = await one<Omit<SavedQuery, 'params'> & { params: string }>(this.pool, 'SELECT * FROM saved_queries WHERE guild_id = $1 AND id = $2', [
        guildId,
        id,
      ]);
      return savedQueryAsOf(r, now);
    },
  };

  readonly history = {
    page: async (f: HistoryFilter, limit: number, offset: number, countCap = HISTORY_COUNT_CAP): Promise<HistoryPage> => {
      const w = where(f, 'postgres');
      const rows = limit ? (await all<RawRow>(this.pool, numbered(PAGE_SQL(w.sql)), [...w.params, limit, offset])).map(parseRow) : [];
      const counted = await one<{ n: number }>(this.pool, numbered(COUNT_SQL(w.sql)), [...w.params, countCap + 1]);
      return cappedPage(rows, counted!.n, countCap);
    },
    voided: async (guildId: string, rollIds: string[]) => {
      const rows = await this.childInputs(guildId, rollIds, 'void');
      return voidReasons(rows);
    },
    revealedPayloads: async (guildId: string, rollIds: string[]) => {
      const rows = await this.childInputs(guildId, rollIds, 'reveal');
      return revealedPayloadsOf(rows);
    },
    messages: async (rollIds: string[]) => {
      const rows = await all<{ roll_id: string; message_id: string }>(
        this.pool,
        'SELECT roll_id, message_id FROM roll_messages WHERE roll_id = ANY($1::text[])',
        [rollIds],
      );
      return new Map(rows.map((r) => [r.roll_id, r.message_id]));
    },
    unshownRolls: async (since: string, before: string, limit: number) =>
      (await all<RawRow>(this.pool, numbered(UNSHOWN_ROLLS_SQL), [UNSHOWN_RECENT_ROWS, since, before, limit])).map(parseRow),
    pendingBindings: async (limit: number) => (await all<RawBinding>(this.pool, numbered(PENDING_BINDINGS_SQL), [limit])).map(bindingOf),
    bindingPending: async (interactionId: string) => (await this.pool.query(numbered(BINDING_PENDING_SQL), [interactionId])).rowCount === 1,
    saltsOf: async (ids: string[]) => {
      const rows = await all<{ salt_id: string; salt: string }>(this.pool, 'SELECT salt_id, salt FROM people WHERE salt_id = ANY($1::text[])', [ids]);
      return new Map(rows.map((r) => [r.salt_id, r.salt]));
    },
    evidenceOf: async (ids: string[]) => {
      const rows = await all<KeptEvidence>(this.pool, 'SELECT * FROM interaction_evidence WHERE interaction_id = ANY($1::text[])', [ids]);
      return new Map(rows.map((r) => [r.interaction_id, r]));
    },
    undelivered: async (rollIds: string[]) => {
      const rows = await all<{ roll_id: string; outcome: string }>(
        this.pool,
        "SELECT roll_id, outcome FROM roll_deliveries WHERE outcome <> 'posted' AND roll_id = ANY($1::text[])",
        [rollIds],
      );
      return new Map(rows.map((r) => [r.roll_id, r.outcome]));
    },
    chunks: (f: HistoryFilter) => this.chunks(f),
    rawChunks: (f: HistoryFilter) => this.rawChunks(f),
  };

  private childInputs(guildId: string, rollIds: string[], kind: string) {
    return all<{ parent_id: string; input: string }>(
      this.pool,
      'SELECT parent_id, input FROM rolls WHERE parent_id = ANY($1::text[]) AND guild_id = $2 AND kind = $3',
      [rollIds, guildId, kind],
    );
  }

  /** Every matching row, oldest first, 1,000 at a time (keyset on seq): one chunk in memory. */
  private async *rawChunks(f: HistoryFilter): AsyncGenerator<RawRow[]> {
    const w = where(f, 'postgres');
    const sql = numbered(CHUNK_SQL(w.sql));
    for (let after = 0; ; ) {
      const chunk = (await all<RawRow>(this.pool, sql, [...w.params, after, 1_000])).map(withFullChained);
      if (!chunk.length) return;
      after = chunk[chunk.length - 1]!.seq;
      yield chunk;
    }
  }

  private async *chunks(f: HistoryFilter): AsyncGenerator<LedgerRow[]> {
    for await (const chunk of this.rawChunks(f)) yield chunk.map(parseRow);
  }

  close(): Promise<void> {
    return this.ledger.close();
  }
}
