import type pg from 'pg';
import { INTERACTION_KEEP_MS } from '../common-sql.js';
import type { ChannelQuery, ChannelState, InteractionClaim } from '../contract.js';
import { InteractionTakenError } from '../errors.js';
import type { ChainHead } from '../next-row.js';
import { unitFromRow, unitNameAndKey, type Game, type RawUnit } from '../roster.js';
import { NO_SETTINGS, type GuildSettings } from '../settings.js';
import { prepared } from './pg-ledger.js';
import type { PersonSalt } from '../people.js';

/**
 * The first two statements of a unit of work on PostgreSQL (a roll's whole transaction is BEGIN,
 * these two, the append's one statement and COMMIT). The guild's lock must be a statement of its
 * own: a statement reads the snapshot taken when it starts, so reads in the statement that waited
 * for the lock would not see what the transaction that held it committed.
 */

const LOCK = "SELECT pg_advisory_xact_lock(hashtext('guild:' || $1::text))";

/** Every transaction of one guild takes this lock first: they run one at a time, on any process. */
export const GUILD_LOCK = prepared('guild_lock', LOCK);

/**
 * The claim of an interaction id ($1, its guild $2, at $3): under that guild's lock, and after
 * deleting claims older than $4 when due. The insert reads the CTEs (`lock`, `pruned`), so they run
 * first: without that, the order of a statement's parts is the server's to choose.
 */
function claimStatement(locked: boolean, prune: boolean) {
  const ctes = [
    ...(locked ? [`lock AS (${LOCK.replace('$1', '$2')})`] : []),
    ...(prune ? ['pruned AS (DELETE FROM interactions WHERE at < $4 RETURNING 1)'] : []),
  ];
  const from = [...(locked ? ['lock'] : []), ...(prune ? ['(SELECT count(*) FROM pruned) AS p'] : [])];
  const insert = `INSERT INTO interactions (id, guild_id, at) SELECT $1, $2, $3${from.length ? ` FROM ${from.join(', ')}` : ''} ON CONFLICT (id) DO NOTHING`;
  return prepared(`claim${locked ? '_locked' : ''}${prune ? '_pruned' : ''}`, `${ctes.length ? `WITH ${ctes.join(', ')} ` : ''}${insert}`);
}
const CLAIM = { plain: claimStatement(false, false), pruned: claimStatement(false, true) };
const CLAIM_LOCKED = { plain: claimStatement(true, false), pruned: claimStatement(true, true) };

/**
 * The guild's lock (with `guildId`) and the interaction's claim (with `claim`), in one statement
 * when both are of one guild; a claim made before throws InteractionTakenError. `prune`: claims
 * older than INTERACTION_KEEP_MS go with it.
 */
export async function lockAndClaim(c: pg.PoolClient, guildId: string | undefined, claim: InteractionClaim | undefined, at: string, prune: boolean) {
  const together = claim !== undefined && guildId === claim.guildId;
  if (guildId && !together) await c.query(GUILD_LOCK([guildId]));
  if (!claim) return;
  const values = [claim.id, claim.guildId, at, ...(prune ? [new Date(Date.parse(at) - INTERACTION_KEEP_MS).toISOString()] : [])];
  const claimed = await c.query((together ? CLAIM_LOCKED : CLAIM)[prune ? 'pruned' : 'plain'](values));
  if (claimed.rowCount !== 1) throw new InteractionTakenError(`interaction ${claim.id} was claimed before`);
  claim.claimed = true;
}

/**
 * ChannelReads in one statement: the channel's game, the server's settings, the named unit (and,
 * only when it is not on the roster, the first of its name to leave it), the game's last roll
 * number and the roller's count — and the guild's chain head, locked for the append to come.
 */
const CHANNEL_STATE = prepared(
  'channel_state',
  `WITH g AS (SELECT * FROM games WHERE guild_id = $1 AND channel_id = $2 AND ended_at IS NULL),
  h AS (SELECT guild_seq, hash FROM chain_heads WHERE guild_id = $1 FOR UPDATE)
SELECT (SELECT row_to_json(g) FROM g) AS game,
  (SELECT row_to_json(s) FROM (SELECT gm_role_id, gm_channel_id, log_channel_id FROM guild_config WHERE guild_id = $1) s) AS settings,
  (SELECT row_to_json(h) FROM h) AS head,
  (SELECT row_to_json(u) FROM units u WHERE u.game_id = (SELECT id FROM g) AND u.name_key = $3 AND u.removed_at IS NULL) AS unit,
  CASE WHEN NOT EXISTS (SELECT 1 FROM units u WHERE u.game_id = (SELECT id FROM g) AND u.name_key = $3 AND u.removed_at IS NULL)
    THEN (SELECT row_to_json(u) FROM units u WHERE u.game_id = (SELECT id FROM g) AND u.name_key = $3 AND u.removed_at IS NOT NULL ORDER BY u.id LIMIT 1)
  END AS gone,
  CASE WHEN $4::text IS NOT NULL THEN (SELECT max(game_seq) FROM rolls WHERE game_id = (SELECT id FROM g)) END AS last_seq,
  (SELECT n FROM player_roll_counts WHERE game_id = (SELECT id FROM g) AND user_id = $4) AS player_rolls,
  (SELECT row_to_json(p) FROM (SELECT salt_id, user_id, salt FROM people WHERE guild_id = $1 AND user_id = $4) p) AS salt`,
);

type ChannelRow = {
  game: Game | null;
  settings: GuildSettings | null;
  head: NonNullable<ChainHead> | null;
  unit: RawUnit | null;
  gone: RawUnit | null;
  last_seq: number | null;
  player_rolls: number | null;
  /** The roller's salt in the server (people.ts), read here so their roll's append reads nothing more. */
  salt: PersonSalt | null;
};

/** The channel's state (ChannelReads), and the guild's chain head this transaction now holds locked (none before its first row). */
export async function channelStateOn(
  c: pg.PoolClient,
  q: ChannelQuery,
): Promise<{ state: ChannelState; head: NonNullable<ChainHead> | undefined; salt: PersonSalt | null }> {
  const key = q.unit === undefined ? null : unitNameAndKey(q.unit).name_key;
  const r = (await c.query<ChannelRow>(CHANNEL_STATE([q.guildId, q.channelId, key, q.roller ?? null]))).rows[0]!;
  const game = r.game ?? undefined;
  const state: ChannelState = { game, settings: r.settings ?? { ...NO_SETTINGS } };
  if (game && q.unit !== undefined) {
    const unit = r.unit ? unitFromRow(r.unit) : undefined;
    state.named = { name: q.unit, unit, gone: !unit && r.gone ? unitFromRow(r.gone) : undefined };
  }
  if (game && q.roller !== undefined) state.numbers = { nextGameSeq: (r.last_seq ?? 0) + 1, playerRollCount: r.player_rolls ?? 0 };
  return { state, head: r.head ?? undefined, salt: r.salt };
}
