import { BINDING_WINDOW_MS } from '../beacon/chain.js';
import type { BeaconBinding } from './rows.js';

/**
 * Statements both backends run as written (SQLite's `?` placeholders; PostgreSQL numbers them).
 * An index serves each: rolls_game_user (game_id, user_id, kind), rolls_game, rolls_parent, interactions' key and `at`.
 */

/** A player's game rolls so far: the k of their next roll is this plus one. What player_roll_counts keeps (migration 021). */
export const PLAYER_ROLLS_SQL = "SELECT COUNT(*) AS n FROM rolls WHERE game_id = ? AND user_id = ? AND kind IN ('roll', 'reroll')";
/** The same count, as kept: one row read (none: no roll yet). */
export const PLAYER_ROLL_COUNT_SQL = 'SELECT n FROM player_roll_counts WHERE game_id = ? AND user_id = ?';
/** A row PLAYER_ROLLS_SQL counts adds one, in the transaction that appends it: `?` its guild, game and player. */
export const COUNT_PLAYER_ROLL_SQL = `INSERT INTO player_roll_counts (guild_id, game_id, user_id, n) VALUES (?, ?, ?, 1)
  ON CONFLICT (game_id, user_id) DO UPDATE SET n = player_roll_counts.n + 1`;
/** Whether a row is one PLAYER_ROLLS_SQL counts: a roll or re-roll of a game. */
export const isPlayerRoll = (row: { game_id: string | null; kind: string }): boolean => row.game_id !== null && (row.kind === 'roll' || row.kind === 'reroll');
/** A unit of the game that left its roster under this name (its key, lower-cased), the first to: trackedUnit's refusal names it. */
export const GONE_UNIT_SQL = 'SELECT * FROM units WHERE game_id = ? AND name_key = ? AND removed_at IS NOT NULL ORDER BY id LIMIT 1';

/** A game's sealed rolls with no reveal row under them, voided ones included, in chain order. */
export const UNREVEALED_SEALED_SQL = `SELECT r.* FROM rolls r JOIN sealed_payloads s ON s.roll_id = r.id
  WHERE r.guild_id = ? AND r.game_id = ?
    AND NOT EXISTS (SELECT 1 FROM rolls v WHERE v.parent_id = r.id AND v.kind = 'reveal')
  ORDER BY r.seq`;

/**
 * Rolls committed in [since, before) that no message showed and no late delivery took,
 * oldest first; read from the newest RECENT_ROWS rows only (the primary key serves it), so the
 * start-up's look costs the same whatever the ledger's size.
 */
export const UNSHOWN_ROLLS_SQL = `SELECT * FROM rolls
  WHERE seq > (SELECT COALESCE(MAX(seq), 0) FROM rolls) - ? AND created_at >= ? AND created_at < ? AND kind IN ('roll', 'reroll')
    AND NOT EXISTS (SELECT 1 FROM roll_messages m WHERE m.roll_id = rolls.id)
    AND NOT EXISTS (SELECT 1 FROM roll_deliveries d WHERE d.roll_id = rolls.id)
  ORDER BY seq LIMIT ?`;
/** How far back the look for unshown rolls reaches, in rows. */
export const UNSHOWN_RECENT_ROWS = 100_000;
/** A late delivery, claimed by one process (one row changed) or already another's (none). */
export const CLAIM_DELIVERY_SQL =
  "INSERT INTO roll_deliveries (roll_id, outcome, at) VALUES (?, 'not delivered: the bot stopped while posting it', ?) ON CONFLICT (roll_id) DO NOTHING";
export const SETTLE_DELIVERY_SQL = 'UPDATE roll_deliveries SET outcome = ? WHERE roll_id = ?';

/** Beacon bindings: written when a roll binds, settled once. */
export const BIND_BEACON_SQL = `INSERT INTO beacon_bindings (interaction_id, guild_id, channel_id, user_id, round, request, created_at, game_id, tournament)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`;
export const SETTLE_BINDING_SQL = "UPDATE beacon_bindings SET state = ?, roll_id = ?, settled_at = ? WHERE interaction_id = ? AND state = 'pending'";
/** A roll settles its binding only inside the window (made after the cutoff), or in a tournament game. */
export const SETTLE_ROLLED_SQL = `UPDATE beacon_bindings SET state = 'rolled', roll_id = ?, settled_at = ?
  WHERE interaction_id = ? AND state = 'pending' AND (tournament = 1 OR created_at > ?)`;
const BINDING_COLUMNS = 'interaction_id, guild_id, channel_id, user_id, round, request, created_at, game_id, tournament';
export const PENDING_BINDINGS_SQL = `SELECT ${BINDING_COLUMNS} FROM beacon_bindings WHERE state = 'pending' ORDER BY created_at LIMIT ?`;
export const BINDING_PENDING_SQL = "SELECT 1 FROM beacon_bindings WHERE interaction_id = ? AND state = 'pending'";
/** A game's waiting bindings; one made before bindings kept their game is the channel's. */
export const WAITING_BINDINGS_SQL = `SELECT ${BINDING_COLUMNS} FROM beacon_bindings
  WHERE state = 'pending' AND (game_id = ? OR (game_id IS NULL AND guild_id = ? AND channel_id = ?)) ORDER BY created_at`;

/** A binding as read back: the game and the tournament mark only when it has them (as it was written). */
export function bindingOf(r: Omit<BeaconBinding, 'game_id' | 'tournament'> & { game_id: string | null; tournament: number }): BeaconBinding {
  const { game_id, tournament, ...b } = r;
  return { ...b, ...(game_id ? { game_id } : {}), ...(tournament ? { tournament: 1 as const } : {}) };
}

/** The cutoff SETTLE_ROLLED_SQL compares a binding's time with: `at` less the binding window. */
export const rolledCutoff = (at: string) => new Date(Date.parse(at) - BINDING_WINDOW_MS).toISOString();

/** Discord-signed requests: kept once per interaction, whichever of its rows comes first. */
export const KEEP_EVIDENCE_SQL = `INSERT INTO interaction_evidence (interaction_id, guild_id, timestamp, signature, body, created_at)
  VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (interaction_id) DO NOTHING`;

/** Claims an interaction id: one row changed when it is new, none when it was claimed before. */
export const CLAIM_INTERACTION_SQL = 'INSERT INTO interactions (id, guild_id, at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING';

/** Interaction ids kept: an hour is four times a Discord token's life and twelve times a signature's window. */
export const INTERACTION_KEEP_MS = 60 * 60 * 1000;
export const PRUNE_INTERACTIONS_SQL = 'DELETE FROM interactions WHERE at < ?';
/** Claims between two prunes: pruning is cheap, but not every time. */
export const PRUNE_EVERY = 500;

/** A WHERE clause of bound conditions (`?` placeholders, values never spliced); an undefined value adds nothing. */
export class Where {
  private readonly parts: string[] = [];
  readonly params: unknown[] = [];

  /** `sql` with its `?`s bound to `values`, unless the first value is undefined. */
  when(sql: string, ...values: unknown[]): this {
    if (values[0] === undefined) return this;
    this.parts.push(sql);
    this.params.push(...values);
    return this;
  }

  eq(column: string, value: unknown): this {
    return this.when(`${column} = ?`, value);
  }

  get sql(): string {
    return this.parts.join(' AND ');
  }
}

/** The filters the history and the dice report share: the server, then channel, player, system, command and game when given. */
export type ScopeFilter = {
  guildId: string;
  channelId?: string | undefined;
  userId?: string | undefined;
  system?: string | undefined;
  command?: string | undefined;
  gameId?: string | undefined;
};

export const scopeWhere = (f: ScopeFilter): Where =>
  new Where()
    .eq('guild_id', f.guildId)
    .eq('channel_id', f.channelId)
    .eq('user_id', f.userId)
    .eq('system', f.system)
    .eq('command', f.command)
    .eq('game_id', f.gameId);

/** A person's salt in a server, drawn with the first row that names them there (people.ts). */
export const PERSON_INSERT_SQL = 'INSERT INTO people (guild_id, user_id, salt_id, salt, created_at) VALUES (?, ?, ?, ?, ?)';
/** A sealed roll's payload, and the same with people committed (what its commitment covers). */
export const SEAL_INSERT_SQL = 'INSERT INTO sealed_payloads (roll_id, guild_id, salt, payload, committed) VALUES (?, ?, ?, ?, ?)';
