import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { yieldToEventLoop } from '../util/yield.js';
import type { RawRow } from './rows.js';
import { eraseCommitted, type ChainErasure } from './erase-committed.js';

/**
 * What the ledger keeps about one person, read and erased the same way on both backends: the SQL
 * is written once here and run through `Sql` (SQLite's statements, or a PostgreSQL connection).
 * The chained rows themselves are never changed here: their names are what their hashes cover.
 */

export { sqliteSql, type Sql } from './sql-runner.js';
import type { Sql } from './sql-runner.js';

/** A person's data in one table, counted. */
export type PersonalCounts = {
  /** Chained rows they made. */
  rows: number;
  /** Of those, the rows made before person fields were committed (chained NULL): their names stay, under their hashes. */
  legacyRows: number;
  units: number;
  requests: number;
  clockTurns: number;
  reminders: number;
  savedQueries: number;
  /** Discord-signed requests of their own rows, kept as evidence. */
  evidence: number;
  beaconBindings: number;
  /** Games they started, gave a seed to or joined a side of. */
  games: number;
};

export type PersonalSummary = { total: PersonalCounts; byGuild: { guildId: string; counts: PersonalCounts }[] };

/** The side tables' rows about a person, as /privacy export hands them over. */
export type PersonalSide = {
  units: Record<string, unknown>[];
  requests: Record<string, unknown>[];
  clockTurns: Record<string, unknown>[];
  reminders: Record<string, unknown>[];
  savedQueries: Record<string, unknown>[];
  evidence: { interaction_id: string; guild_id: string; timestamp: string; signature: string; body: string; created_at: string }[];
  beaconBindings: Record<string, unknown>[];
  games: Record<string, unknown>[];
};

/** What one guild's erasure removed: counts, the person's own requests and others' naming them. */
/** `chain`: the salts deleted and the committed rows blanked (erase-committed.ts). */
export type SideErasure = { counts: Omit<PersonalCounts, 'rows' | 'legacyRows'>; evidence: string[]; naming: string[]; chain: ChainErasure };

/** Why an erasure cannot run yet: a roll of theirs waits for its beacon round, or a game for their seed. */
export type ErasureBlock = { pendingBinding: { round: number } } | { unrevealedSeed: { game: string } } | { runningGame: { game: string } };

const EVIDENCE_OF = { sqlite: "json_extract(input, '$.evidence.interaction')", postgres: "(input::jsonb #>> '{evidence,interaction}')" } as const;

/** A user id as it appears in JSON text: a quoted string, never a part of a longer id. */
const quoted = (userId: string) => `%"${userId.replaceAll('%', '\\%').replaceAll('_', '\\_')}"%`;
const LIKE_ID = "LIKE ? ESCAPE '\\'";

const count = async (sql: Sql, text: string, params: unknown[]) => Number((await sql.rows<{ n: number | string }>(text, params))[0]?.n ?? 0);

/** The interactions of a person's own rows in a guild whose signed requests are kept (an indexed read). */
async function ownEvidence(sql: Sql, userId: string, guildId: string): Promise<string[]> {
  const own = await sql.rows<{ id: string | null }>(
    `SELECT ${EVIDENCE_OF[sql.dialect]} AS id FROM rolls WHERE guild_id = ? AND user_id = ? AND input LIKE '%"evidence":%'`,
    [guildId, userId],
  );
  const ids = [...new Set(own.map((r) => r.id).filter((id): id is string => typeof id === 'string'))];
  const kept: string[] = [];
  for (let i = 0; i < ids.length; i += EVIDENCE_PAGE) {
    const page = ids.slice(i, i + EVIDENCE_PAGE);
    const found = await sql.rows<{ interaction_id: string }>(
      `SELECT interaction_id FROM interaction_evidence WHERE interaction_id IN (${page.map(() => '?').join(', ')})`,
      page,
    );
    kept.push(...found.map((r) => r.interaction_id));
  }
  return kept;
}

/**
 * Others' kept requests in a guild whose bytes name the person (an /ask's player, a pressed
 * message's mentions): every body of the guild is read and inflated, a page at a time with a turn
 * of the event loop between pages, outside any transaction (an erasure reads this first).
 */
export async function evidenceNaming(sql: Sql, userId: string, guildId: string, own: ReadonlySet<string>): Promise<string[]> {
  const naming: string[] = [];
  const needle = `"${userId}"`;
  for (let after = ''; ; ) {
    const page = await sql.rows<{ interaction_id: string; body: Buffer }>(
      'SELECT interaction_id, body FROM interaction_evidence WHERE guild_id = ? AND interaction_id > ? ORDER BY interaction_id LIMIT ?',
      [guildId, after, EVIDENCE_PAGE],
    );
    for (const e of page) if (!own.has(e.interaction_id) && inflateRawSync(e.body).toString('utf8').includes(needle)) naming.push(e.interaction_id);
    if (page.length < EVIDENCE_PAGE) return naming;
    after = page[page.length - 1]!.interaction_id;
    await yieldToEventLoop();
  }
}

/** Kept requests read (and inflated) per query when an erasure looks for those that name a person. */
const EVIDENCE_PAGE = 200;

/** Each side table's rows about a person in a guild: the table and WHERE clause (indexed by the person, migration 020). */
const SIDE = {
  units: { table: 'units', where: 'owner_id = ? AND game_id IN (SELECT id FROM games WHERE guild_id = ?)', params: (u: string, g: string) => [u, g] },
  requests: { table: 'roll_requests', where: '(asker_id = ? OR player_id = ?) AND guild_id = ?', params: (u: string, g: string) => [u, u, g] },
  clockTurns: { table: 'game_clocks', where: 'turn_player_id = ? AND guild_id = ?', params: (u: string, g: string) => [u, g] },
  reminders: { table: 'schedules', where: 'user_id = ? AND guild_id = ?', params: (u: string, g: string) => [u, g] },
  savedQueries: { table: 'saved_queries', where: 'user_id = ? AND guild_id = ?', params: (u: string, g: string) => [u, g] },
  beaconBindings: { table: 'beacon_bindings', where: 'user_id = ? AND guild_id = ?', params: (u: string, g: string) => [u, g] },
} as const;
type Side = keyof typeof SIDE;
const SIDES = Object.keys(SIDE) as Side[];

type GameRow = {
  id: string;
  name: string;
  guild_id: string;
  started_by: string;
  player_seeds: string;
  seed_commitments: string;
  options: string | null;
  ended_at: string | null;
};
type Seat = { user_id?: string; user_name?: string; seed?: string | null };

/** A game's entries about the person: their seed commitments and their side. */
const seatsOf = (g: GameRow, userId: string) => ({
  seeds: (JSON.parse(g.seed_commitments || '[]') as Seat[]).filter((s) => s.user_id === userId),
  side: (JSON.parse(g.options || '{}') as { sides?: Record<string, unknown> }).sides?.[userId],
});

/** The guild's games that name the person (started, seeded, a side), read by a LIKE and kept only where they truly do. */
async function gamesOf(sql: Sql, userId: string, guildId?: string): Promise<GameRow[]> {
  const rows = await sql.rows<GameRow>(
    `SELECT id, name, guild_id, started_by, player_seeds, seed_commitments, options, ended_at FROM games
     WHERE (started_by = ? OR seed_commitments ${LIKE_ID} OR options ${LIKE_ID})${guildId ? ' AND guild_id = ?' : ''}`,
    [userId, quoted(userId), quoted(userId), ...(guildId ? [guildId] : [])],
  );
  return rows.filter((g) => {
    const seats = seatsOf(g, userId);
    return g.started_by === userId || seats.seeds.length > 0 || seats.side !== undefined;
  });
}

/**
 * The guilds where something of the person is kept, found from the person, not by reading every
 * guild: their rows (an index seek per guild on the chain's guild and user index), and each side
 * table's index on who it names.
 */
/** Servers looked at between two turns of the event loop. */
const GUILDS_PER_TURN = 200;

async function guildsOf(sql: Sql, userId: string): Promise<string[]> {
  const found = new Set<string>();
  for (let after = '', seen = 0; ; seen++) {
    // SQLite answers at once, so awaiting its answers alone never lets the event loop turn.
    if (seen % GUILDS_PER_TURN === GUILDS_PER_TURN - 1) await yieldToEventLoop();
    const next = await sql.rows<{ guild_id: string }>('SELECT guild_id FROM rolls WHERE guild_id > ? ORDER BY guild_id LIMIT 1', [after]);
    if (!next.length) break;
    after = next[0]!.guild_id;
    if ((await sql.rows('SELECT 1 AS x FROM rolls WHERE guild_id = ? AND user_id = ? LIMIT 1', [after, userId])).length) found.add(after);
  }
  const side = await sql.rows<{ guild_id: string }>(
    `SELECT guild_id FROM roll_requests WHERE asker_id = ? UNION SELECT guild_id FROM roll_requests WHERE player_id = ?
     UNION SELECT guild_id FROM game_clocks WHERE turn_player_id = ? UNION SELECT guild_id FROM schedules WHERE user_id = ?
     UNION SELECT guild_id FROM saved_queries WHERE user_id = ? UNION SELECT guild_id FROM beacon_bindings WHERE user_id = ?
     UNION SELECT g.guild_id FROM units u JOIN games g ON g.id = u.game_id WHERE u.owner_id = ?
     UNION SELECT guild_id FROM people WHERE user_id = ?`,
    [userId, userId, userId, userId, userId, userId, userId, userId],
  );
  for (const r of side) found.add(r.guild_id);
  for (const g of await gamesOf(sql, userId)) found.add(g.guild_id);
  return [...found].sort();
}

async function guildCounts(sql: Sql, userId: string, guildId: string): Promise<PersonalCounts> {
  const out = {
    rows: await count(sql, 'SELECT COUNT(*) AS n FROM rolls WHERE guild_id = ? AND user_id = ?', [guildId, userId]),
    legacyRows: await count(sql, 'SELECT COUNT(*) AS n FROM rolls WHERE guild_id = ? AND user_id = ? AND chained IS NULL', [guildId, userId]),
  } as PersonalCounts;
  for (const s of SIDES) out[s] = await count(sql, `SELECT COUNT(*) AS n FROM ${SIDE[s].table} WHERE ${SIDE[s].where}`, SIDE[s].params(userId, guildId));
  out.evidence = (await ownEvidence(sql, userId, guildId)).length;
  out.games = (await gamesOf(sql, userId, guildId)).length;
  return out;
}

const nothing = (c: PersonalCounts) => Object.values(c).every((n) => n === 0);

/** Every guild where the ledger keeps something about this person, with what it keeps. */
export async function personalSummary(sql: Sql, userId: string): Promise<PersonalSummary> {
  const byGuild: PersonalSummary['byGuild'] = [];
  for (const guildId of await guildsOf(sql, userId)) {
    const counts = await guildCounts(sql, userId, guildId);
    if (!nothing(counts)) byGuild.push({ guildId, counts });
  }
  const total = {} as PersonalCounts;
  for (const k of ['rows', 'legacyRows', 'evidence', 'games', ...SIDES] as (keyof PersonalCounts)[]) total[k] = byGuild.reduce((a, g) => a + g.counts[k], 0);
  return { total, byGuild };
}

/** Rows read per query when a person's rows are gathered. */
const ROW_CHUNK = 1000;

/** A person's own chained rows in a guild, oldest first, a chunk at a time (the export's reader). */
export async function* personalRows(sql: Sql, userId: string, guildId: string): AsyncGenerator<RawRow[]> {
  for (let after = 0; ; ) {
    const chunk = await sql.rows<RawRow>('SELECT * FROM rolls WHERE guild_id = ? AND user_id = ? AND seq > ? ORDER BY seq LIMIT ?', [
      guildId,
      userId,
      after,
      ROW_CHUNK,
    ]);
    if (chunk.length) yield chunk;
    if (chunk.length < ROW_CHUNK) return;
    after = Number(chunk[chunk.length - 1]!.seq);
    await yieldToEventLoop();
  }
}

/** The side tables' entries about a person in a guild: theirs alone (others' seats in a game, others' searches, stay out). */
export async function personalSide(sql: Sql, userId: string, guildId: string): Promise<PersonalSide> {
  const out = {} as PersonalSide;
  for (const s of SIDES)
    out[s] = await sql.rows<Record<string, unknown>>(`SELECT * FROM ${SIDE[s].table} WHERE ${SIDE[s].where}`, SIDE[s].params(userId, guildId));
  // A game's server seed is no person's data, nor are the other players' seats: only theirs.
  out.games = (await gamesOf(sql, userId, guildId)).map((g) => ({
    id: g.id,
    guild_id: g.guild_id,
    started_by_you: g.started_by === userId,
    ...seatsOf(g, userId),
  }));
  out.evidence = [];
  for (const id of await ownEvidence(sql, userId, guildId)) {
    const [e] = await sql.rows<{ interaction_id: string; guild_id: string; timestamp: string; signature: string; body: Buffer; created_at: string }>(
      'SELECT interaction_id, guild_id, timestamp, signature, body, created_at FROM interaction_evidence WHERE interaction_id = ?',
      [id],
    );
    if (e) out.evidence.push({ ...e, body: inflateRawSync(e.body).toString('base64') });
  }
  return out;
}

/** Why the person cannot be erased yet: a roll of theirs waits for its beacon round, or a running game for their seed. */
export async function erasureBlock(sql: Sql, userId: string): Promise<ErasureBlock | undefined> {
  const [b] = await sql.rows<{ round: number }>("SELECT round FROM beacon_bindings WHERE user_id = ? AND state = 'pending' LIMIT 1", [userId]);
  if (b) return { pendingBinding: { round: Number(b.round) } };
  for (const g of await gamesOf(sql, userId))
    if (!g.ended_at && seatsOf(g, userId).seeds.some((s) => s.seed === null)) return { unrevealedSeed: { game: g.name } };
  // A game's per-player dice follow each player's count of rolls: erased mid-game, they would start again at their first die.
  const [running] = await sql.rows<{ name: string }>(
    "SELECT g.name FROM player_roll_counts p JOIN games g ON g.id = p.game_id WHERE p.user_id = ? AND g.ended_at IS NULL AND g.dice_scheme = 'player-v1' LIMIT 1",
    [userId],
  );
  if (running) return { runningGame: { game: running.name } };
  return undefined;
}

/** The value an erased id or name is left as: never a Discord id, and shown as nothing. */
export const ERASED = '';

/** A game's seat lists with this person nameless: their seeds stay (every die of the game needs them), their side under a name of no one. */
function gameWithout(g: GameRow, userId: string): { started_by: string; seed_commitments: string; options: string | null } {
  const seeds = (JSON.parse(g.seed_commitments || '[]') as Seat[]).map((s) => (s.user_id === userId ? { ...s, user_id: ERASED, user_name: ERASED } : s));
  const options = g.options === null ? null : (JSON.parse(g.options) as { sides?: Record<string, { side: string; name: string }> });
  const side = options?.sides?.[userId];
  if (options?.sides && side) {
    delete options.sides[userId];
    options.sides[`erased-${randomBytes(6).toString('hex')}`] = { ...side, name: ERASED };
  }
  return {
    started_by: g.started_by === userId ? ERASED : g.started_by,
    seed_commitments: JSON.stringify(seeds),
    options: options ? JSON.stringify(options) : null,
  };
}

/**
 * Erases what the side tables keep of a person in one guild, inside the caller's transaction:
 * their kept requests and those `naming` them (found beforehand, outside it) are deleted, their
 * saved queries and reminders too; open requests they asked or were asked are cancelled; ids and
 * names elsewhere are blanked.
 */
export async function eraseSide(sql: Sql, userId: string, guildId: string, at: string, naming: readonly string[]): Promise<SideErasure> {
  // Their own requests are found by their rows' ids, before those are blanked.
  const evidence = await ownEvidence(sql, userId, guildId);
  // Before the side tables: it reads the units they own before those are made no one's below.
  const chain = await eraseCommitted(sql, userId, guildId);
  const gone = async (ids: readonly string[]) => {
    let n = 0;
    for (const id of ids) n += await sql.run('DELETE FROM interaction_evidence WHERE interaction_id = ?', [id]);
    return n;
  };
  const counts = {} as SideErasure['counts'];
  counts.evidence = await gone(evidence);
  const named = [];
  for (const id of naming) if (await gone([id])) named.push(id);
  counts.savedQueries = await sql.run(`DELETE FROM saved_queries WHERE ${SIDE.savedQueries.where}`, SIDE.savedQueries.params(userId, guildId));
  // Others' searches that filter on the person last 15 minutes; they go now.
  await sql.run(`DELETE FROM saved_queries WHERE guild_id = ? AND params ${LIKE_ID}`, [guildId, quoted(userId)]);
  counts.reminders = await sql.run(`DELETE FROM schedules WHERE ${SIDE.reminders.where}`, SIDE.reminders.params(userId, guildId));
  await sql.run(
    "UPDATE roll_requests SET state = 'cancelled', settled_at = ?, settled_by = ? WHERE guild_id = ? AND state = 'open' AND (asker_id = ? OR player_id = ?)",
    [at, ERASED, guildId, userId, userId],
  );
  // The roll text asked goes with either of them: it may name the player's units (the chain's request row blanks it too).
  counts.requests =
    (await sql.run("UPDATE roll_requests SET asker_id = ?, asker_name = ?, roll = '' WHERE asker_id = ? AND guild_id = ?", [ERASED, ERASED, userId, guildId])) +
    (await sql.run("UPDATE roll_requests SET player_id = ?, player_name = ?, roll = '' WHERE player_id = ? AND guild_id = ?", [
      ERASED,
      ERASED,
      userId,
      guildId,
    ]));
  await sql.run('UPDATE roll_requests SET settled_by = ? WHERE settled_by = ? AND guild_id = ?', [ERASED, userId, guildId]);
  counts.clockTurns = await sql.run('UPDATE game_clocks SET turn_player_id = NULL, turn_player_name = NULL WHERE turn_player_id = ? AND guild_id = ?', [
    userId,
    guildId,
  ]);
  counts.units = await sql.run(`UPDATE units SET owner_id = ?, owner_name = ? WHERE ${SIDE.units.where}`, [
    ERASED,
    ERASED,
    ...SIDE.units.params(userId, guildId),
  ]);
  counts.beaconBindings = await sql.run(`UPDATE beacon_bindings SET user_id = ?, request = '' WHERE ${SIDE.beaconBindings.where} AND state <> 'pending'`, [
    ERASED,
    ...SIDE.beaconBindings.params(userId, guildId),
  ]);
  const games = await gamesOf(sql, userId, guildId);
  for (const g of games) {
    const w = gameWithout(g, userId);
    await sql.run('UPDATE games SET started_by = ?, seed_commitments = ?, options = ? WHERE id = ?', [w.started_by, w.seed_commitments, w.options, g.id]);
  }
  counts.games = games.length;
  return { counts, evidence, naming: named, chain };
}

/** The personal-data methods a store offers (reads), and a transaction (the erasure of one guild too). */
export interface PersonalReads {
  summary(userId: string): Promise<PersonalSummary>;
  rows(userId: string, guildId: string): AsyncGenerator<RawRow[]>;
  side(userId: string, guildId: string): Promise<PersonalSide>;
  erasureBlock(userId: string): Promise<ErasureBlock | undefined>;
  /** Others' kept requests in a guild naming the person (read before the erasure's transaction). */
  naming(userId: string, guildId: string): Promise<string[]>;
}
export interface PersonalWrites {
  eraseSide(userId: string, guildId: string, at: string, naming: readonly string[]): Promise<SideErasure>;
}

export const personalData = (sql: Sql): PersonalReads & PersonalWrites => ({
  summary: (userId) => personalSummary(sql, userId),
  rows: (userId, guildId) => personalRows(sql, userId, guildId),
  side: (userId, guildId) => personalSide(sql, userId, guildId),
  erasureBlock: (userId) => erasureBlock(sql, userId),
  naming: async (userId, guildId) => evidenceNaming(sql, userId, guildId, new Set(await ownEvidence(sql, userId, guildId))),
  eraseSide: (userId, guildId, at, naming) => eraseSide(sql, userId, guildId, at, naming),
});
