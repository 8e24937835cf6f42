import { gameOptionsOf, type Game } from '../ledger/roster.js';
import type { RollRequest } from '../ledger/requests.js';
import type { LedgerTx } from '../ledger/transaction.js';
import { said, type Said } from '../i18n/said.js';
import { say } from '../i18n/reader.js';
import type { Context } from './command.js';
import type { TxScope } from './unit-of-work.js';
import { refuse } from './user-error.js';
import { cardTouch, planSettle } from './clock.js';

/**
 * Requested rolls (/ask): one player asks another for a roll, and the asked player's own press
 * makes it. The request is a chained row (who asked whom for what, when); the answer is the roll's
 * own row, its parent the request's, so the chain says who asked, when, and how long it took.
 */

/** Why this player cannot answer this request now (unknown, settled, or someone else's); undefined: they can. */
export function answerRefusal(r: RollRequest | undefined, id: string, userId: string): Said | undefined {
  if (!r) return said('askUnknown', { id: `\`${id}\`` });
  if (r.state === 'answered') return said('askAnswered', { roll: r.answer_id ?? '?' });
  if (r.state === 'cancelled') return said('askCancelled');
  if (r.player_id !== userId) return said('askNotYours', { player: r.player_id });
  return undefined;
}

/**
 * In a roll's transaction: when the roll answers a request, takes the request (open, this player's,
 * in the game it was asked in) and returns its id for the roll's row to name as its parent. The
 * conditional update lets one answer through whatever the races: a second press, a cancel, two processes.
 */
export async function answerIn(at: Pick<TxScope, 'tx' | 'channelGame'>, ctx: Context, kind: string, rollId: string): Promise<string | undefined> {
  const a = ctx.answering;
  if (!a || kind !== 'roll') return undefined;
  const { tx } = at;
  if (at.channelGame?.id !== a.gameId) refuse('askGameOver');
  if (!(await tx.requests.answerRequest(a.requestId, ctx.actor.userId, rollId, tx.timestamp()))) {
    const r = await tx.requests.request(ctx.actor.guildId, a.requestId);
    refuse(answerRefusal(r, a.requestId, ctx.actor.userId) ?? said('alreadyDone'));
  }
  const r = await tx.requests.request(ctx.actor.guildId, a.requestId);
  if (r) await planSettle(tx, r);
  await cardTouch(tx, at.channelGame);
  return a.requestId;
}

/**
 * A player of the game: its starter, a player on a side, the owner of one of its units, or one who
 * rolled in it (read in the transaction that acts on it).
 */
export async function isPlayerOf(tx: LedgerTx, g: Game, userId: string): Promise<boolean> {
  if (g.started_by === userId || gameOptionsOf(g).sides?.[userId]) return true;
  if ((await tx.roster.everyUnit(g.id)).some((u) => u.owner_id === userId)) return true;
  return (await tx.playerRollCount(g.id, userId)) > 0;
}

/** A wait in the reader's words, to the minute (seconds under one): "2 d 3 h", "3 h 12 min", "45 s". */
export function waitedText(fromIso: string, toIso: string): string {
  const s = Math.max(0, Math.round((Date.parse(toIso) - Date.parse(fromIso)) / 1000));
  const m = Math.floor(s / 60);
  const h = Math.floor(m / 60);
  const d = Math.floor(h / 24);
  if (d) return say('time.days', { d, h: h % 24 });
  if (h) return say('time.hours', { h, m: m % 60 });
  if (m) return say('time.minutes', { m });
  return say('time.seconds', { s });
}
