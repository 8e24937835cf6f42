import type { BeaconChain } from '../beacon/chain.js';
import type { Db } from './database.js';

/** A game running (or run) in a channel. */
export type Game = {
  id: string;
  guild_id: string;
  channel_id: string;
  system: string;
  name: string;
  started_by: string;
  started_at: string;
  turn: number | null;
  phase: string | null;
  ended_at: string | null;
  /** Secret until the game ends. */
  server_seed: string | null;
  /** JSON array of the seeds players revealed, in the order they were committed: they feed the dice. */
  player_seeds: string;
  /** JSON array of SeedCommitment: the commit-then-reveal of player seeds. */
  seed_commitments: string;
  /** How the game's dice are drawn, kept from its start: 'player-v2' (or 'player-v1' before person fields were committed), 'beacon-v1', or null (by position, games started before per-player dice were introduced). */
  dice_scheme: string | null;
  /** JSON of GameOptions, or null before any was set. */
  options: string | null;
};

/** A game's options: ASL's Sniper Activation Numbers and booby-trap levels, and each player's side. */
export type GameOptions = {
  san?: { axis: number; allied: number };
  booby_traps?: { axis: string; allied: string };
  /** By user id: the side a player joined (or a GM moved them to), with their name then. */
  sides?: Record<string, { side: string; name: string }>;
  /** A beacon game's chain, as its first row committed to it: set once, at the start. */
  beacon?: BeaconChain;
  /** A tournament game: every roll must be a Discord-signed request (HTTP mode), kept as evidence. */
  fair?: 'tournament';
  /** A game whose dice were hand-fed (the console's --dice), as its first row says: verifiers check none of them. */
  dice?: 'scripted';
};

/** A server's games, newest first; the channel given twice (NULL: every channel). */
export const RECENT_GAMES_SQL = 'SELECT * FROM games WHERE guild_id = ? AND (? IS NULL OR channel_id = ?) ORDER BY started_at DESC LIMIT ?';

/** The game options an ASL game's starter or a GM sets. */
export type GameOptionKey = 'san' | 'booby_traps';

export const gameOptionsOf = (g: Pick<Game, 'options'>): GameOptions => (g.options ? (JSON.parse(g.options) as GameOptions) : {});

/** A unit on a game's roster; `fields` are the system's own. */
export type RosterUnit = {
  id: number;
  game_id: string;
  name: string;
  owner_id: string;
  owner_name: string;
  side: string | null;
  fields: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  removed_at: string | null;
};

/** A player's commitment to a seed (SHA-256 of it, as hex), and the seed once revealed. */
export type SeedCommitment = { user_id: string; user_name: string; commitment: string; seed: string | null };

/** Reads of games and rosters. */
export interface RosterReads {
  activeGame(guildId: string, channelId: string): Game | undefined;
  game(guildId: string, id: string): Game | undefined;
  unit(id: number): RosterUnit | undefined;
  unitByName(gameId: string, name: string): RosterUnit | undefined;
  units(gameId: string, limit: number, offset: number): RosterUnit[];
  /** Every unit the game ever had, removed ones included (a routed unit still counts for its brigade). */
  everyUnit(gameId: string): RosterUnit[];
  countUnits(gameId: string): number;
  unitNames(gameId: string, prefix: string, limit: number): string[];
  /** A server's games (one channel's, when given), newest first: for autocomplete. */
  recentGames(guildId: string, channelId: string | undefined, limit: number): Game[];
}

/** A new game, as /game start gives it. */
export type NewGame = Pick<Game, 'id' | 'guild_id' | 'channel_id' | 'system' | 'name' | 'started_by' | 'started_at' | 'server_seed'> & {
  dice_scheme?: string | null;
};
/** A new roster unit, as /unit add gives it. */
export type NewUnit = { game_id: string; name: string; owner_id: string; owner_name: string; side: string | null; fields: Record<string, unknown>; at: string };

/** Changes to games and rosters, inside a transaction with the rows that record them. */
export interface RosterWrites {
  startGame(g: NewGame): Game;
  /** Stores the commitments; the revealed seeds, in commitment order, become the game's player seeds. */
  setSeedCommitments(gameId: string, commitments: SeedCommitment[]): void;
  setTurn(gameId: string, turn: number, phase: string | null): void;
  /** One ASL setting of the game's options, patched in place (the rest of the options untouched). */
  setGameOption(gameId: string, key: GameOptionKey | 'beacon' | 'fair' | 'dice', value: GameOptions[GameOptionKey | 'beacon' | 'fair' | 'dice']): void;
  /** One player's side, patched in place (other players' sides untouched). */
  setPlayerSide(gameId: string, userId: string, side: { side: string; name: string }): void;
  endGame(gameId: string, at: string): void;
  addUnit(u: NewUnit): RosterUnit;
  /** Applies the patch to the unit as stored now: only the columns and fields it names change. */
  patchUnit(id: number, patch: UnitPatch, at: string): RosterUnit;
  removeUnit(id: number, at: string): void;
}

export class GameRunningError extends Error {
  constructor(readonly game: Game) {
    super(`a game is already running in this channel: ${game.name}`);
  }
}
export class DuplicateUnitError extends Error {}

/** A unit row as stored (its fields as JSON text), and as read; shared by both backends. */
export type RawUnit = Omit<RosterUnit, 'fields'> & { fields: string };
export const unitFromRow = (r: RawUnit): RosterUnit => ({ ...r, fields: JSON.parse(r.fields) });

/**
 * A change to some of a unit's columns and some of its fields; what it leaves out stays as stored.
 * Commands decide a patch from what they read in their transaction, and the store applies only it,
 * so two commands that change different fields of one unit both land.
 */
export type UnitPatch = { name?: string; owner_id?: string; owner_name?: string; side?: string | null; fields?: Record<string, unknown> };

/** The unit as it is once `patch` is applied: the same on both backends. */
export const patched = (u: RosterUnit, patch: UnitPatch): RosterUnit => ({
  ...u,
  ...(patch.name !== undefined ? { name: patch.name } : {}),
  ...(patch.owner_id !== undefined ? { owner_id: patch.owner_id } : {}),
  ...(patch.owner_name !== undefined ? { owner_name: patch.owner_name } : {}),
  ...(patch.side !== undefined ? { side: patch.side } : {}),
  fields: { ...u.fields, ...patch.fields },
});

/** The game's revealed player seeds, in commitment order, as stored (a JSON column). */
export const playerSeedsOf = (g: Pick<Game, 'player_seeds'>): string[] => JSON.parse(g.player_seeds) as string[];

/** The game's player seed commitments, as stored (a JSON column). */
export const commitmentsOf = (g: Pick<Game, 'seed_commitments'>): SeedCommitment[] => JSON.parse(g.seed_commitments ?? '[]') as SeedCommitment[];
/** A LIKE pattern matching names that start with `p`, its % and _ read literally (ESCAPE '\\'). */
export const likePrefix = (p: string) => `${p.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** A unit name as stored, and its key: names are unique per game ignoring case. */
export const unitNameAndKey = (name: string) => ({ name: name.trim(), name_key: name.trim().toLowerCase() });

/**
 * Games and rosters: the current state that commands read and change. Callers change it inside a
 * ledger transaction together with the ledger row that records the change.
 */
export class Roster implements RosterReads, RosterWrites {
  private readonly q;

  constructor(readonly db: Db) {
    this.q = {
      active: db.prepare('SELECT * FROM games WHERE guild_id = ? AND channel_id = ? AND ended_at IS NULL'),
      recentGames: db.prepare(RECENT_GAMES_SQL),
      game: db.prepare('SELECT * FROM games WHERE guild_id = ? AND id = ?'),
      insertGame: db.prepare(`INSERT INTO games (id, guild_id, channel_id, system, name, started_by, started_at, server_seed, dice_scheme)
        VALUES (@id, @guild_id, @channel_id, @system, @name, @started_by, @started_at, @server_seed, @dice_scheme)`),
      setSeeds: db.prepare('UPDATE games SET seed_commitments = ?, player_seeds = ? WHERE id = ?'),
      setTurn: db.prepare('UPDATE games SET turn = ?, phase = ? WHERE id = ?'),
      // Field patches of the options JSON: a write changes only the key it names.
      setOption: db.prepare("UPDATE games SET options = json_set(coalesce(options, '{}'), '$.' || ?, json(?)) WHERE id = ?"),
      setSide: db.prepare(`UPDATE games SET options = json_set(
          json_set(coalesce(options, '{}'), '$.sides', json(coalesce(json_extract(options, '$.sides'), '{}'))),
          '$.sides.' || json_quote(?), json(?)) WHERE id = ?`),
      end: db.prepare('UPDATE games SET ended_at = ? WHERE id = ? AND ended_at IS NULL'),
      unitByName: db.prepare('SELECT * FROM units WHERE game_id = ? AND name_key = ? AND removed_at IS NULL'),
      units: db.prepare('SELECT * FROM units WHERE game_id = ? AND removed_at IS NULL ORDER BY name_key LIMIT ? OFFSET ?'),
      everUnits: db.prepare('SELECT * FROM units WHERE game_id = ? ORDER BY id'),
      countUnits: db.prepare('SELECT COUNT(*) AS n FROM units WHERE game_id = ? AND removed_at IS NULL'),
      names: db.prepare(`SELECT name FROM units WHERE game_id = ? AND removed_at IS NULL AND name_key LIKE ? ESCAPE '\\'
        ORDER BY name_key LIMIT ?`),
      insertUnit: db.prepare(`INSERT INTO units (game_id, name, name_key, owner_id, owner_name, side, fields, created_at, updated_at)
        VALUES (@game_id, @name, @name_key, @owner_id, @owner_name, @side, @fields, @at, @at)`),
      updateUnit: db.prepare(`UPDATE units SET name = @name, name_key = @name_key, owner_id = @owner_id, owner_name = @owner_name,
        side = @side, fields = @fields, updated_at = @at WHERE id = @id`),
      removeUnit: db.prepare('UPDATE units SET removed_at = ? WHERE id = ?'),
      unitById: db.prepare('SELECT * FROM units WHERE id = ?'),
    };
  }

  /** The game running in this channel of this guild, if any. */
  recentGames(guildId: string, channelId: string | undefined, limit: number): Game[] {
    return this.q.recentGames.all(guildId, channelId ?? null, channelId ?? null, limit) as Game[];
  }

  activeGame(guildId: string, channelId: string): Game | undefined {
    return this.q.active.get(guildId, channelId) as Game | undefined;
  }

  game(guildId: string, id: string): Game | undefined {
    return this.q.game.get(guildId, id) as Game | undefined;
  }

  startGame(g: NewGame): Game {
    const running = this.activeGame(g.guild_id, g.channel_id);
    if (running) throw new GameRunningError(running);
    this.q.insertGame.run({ ...g, dice_scheme: g.dice_scheme ?? null });
    return this.game(g.guild_id, g.id)!;
  }

  setSeedCommitments(gameId: string, commitments: SeedCommitment[]): void {
    const revealed = commitments.filter((c) => c.seed !== null).map((c) => c.seed);
    this.q.setSeeds.run(JSON.stringify(commitments), JSON.stringify(revealed), gameId);
  }

  setTurn(gameId: string, turn: number, phase: string | null): void {
    this.q.setTurn.run(turn, phase, gameId);
  }

  setGameOption(gameId: string, key: GameOptionKey | 'beacon' | 'fair' | 'dice', value: GameOptions[GameOptionKey | 'beacon' | 'fair' | 'dice']): void {
    this.q.setOption.run(key, JSON.stringify(value), gameId);
  }

  setPlayerSide(gameId: string, userId: string, side: { side: string; name: string }): void {
    this.q.setSide.run(userId, JSON.stringify(side), gameId);
  }

  endGame(gameId: string, at: string): void {
    this.q.end.run(at, gameId);
  }

  unitByName(gameId: string, name: string): RosterUnit | undefined {
    const r = this.q.unitByName.get(gameId, unitNameAndKey(name).name_key) as RawUnit | undefined;
    return r && unitFromRow(r);
  }

  unit(id: number): RosterUnit | undefined {
    const r = this.q.unitById.get(id) as RawUnit | undefined;
    return r && unitFromRow(r);
  }

  units(gameId: string, limit: number, offset: number): RosterUnit[] {
    return (this.q.units.all(gameId, limit, offset) as RawUnit[]).map(unitFromRow);
  }

  everyUnit(gameId: string): RosterUnit[] {
    return (this.q.everUnits.all(gameId) as RawUnit[]).map(unitFromRow);
  }

  countUnits(gameId: string): number {
    return (this.q.countUnits.get(gameId) as { n: number }).n;
  }

  unitNames(gameId: string, prefix: string, limit: number): string[] {
    return (this.q.names.all(gameId, likePrefix(prefix.toLowerCase()), limit) as { name: string }[]).map((r) => r.name);
  }

  addUnit(u: NewUnit): RosterUnit {
    if (this.unitByName(u.game_id, u.name)) throw new DuplicateUnitError(`there is already a unit named ${u.name} in this game`);
    const info = this.q.insertUnit.run({ ...u, ...unitNameAndKey(u.name), fields: JSON.stringify(u.fields) });
    return this.unit(Number(info.lastInsertRowid))!;
  }

  /** Applies `patch` to the unit as stored now (read and written in the caller's transaction). */
  patchUnit(id: number, patch: UnitPatch, at: string): RosterUnit {
    const u = patched(this.unit(id)!, patch);
    const clash = patch.name === undefined ? undefined : this.unitByName(u.game_id, u.name);
    if (clash && clash.id !== u.id) throw new DuplicateUnitError(`there is already a unit named ${clash.name} in this game`);
    this.q.updateUnit.run({ ...u, ...unitNameAndKey(u.name), fields: JSON.stringify(u.fields), at });
    return this.unit(id)!;
  }

  removeUnit(id: number, at: string): void {
    this.q.removeUnit.run(at, id);
  }
}
