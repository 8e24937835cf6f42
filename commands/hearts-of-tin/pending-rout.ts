import type { LedgerRow } from '../../src/ledger/rows.js';
import type { LedgerTx } from '../../src/ledger/transaction.js';
import type { Game } from '../../src/ledger/roster.js';
import { noticeEmbed, userText } from '../../src/render/embed.js';
import type { Context, Reply } from '../../src/core/command.js';
import type { Reads } from '../../src/core/games.js';
import { turnLapse } from '../../src/core/offer-lapse.js';
import { writeBack, type Tracked } from '../../src/core/roster-unit.js';
import { PENDING_ROUT } from '../../src/rules/hearts-of-tin/roster.js';
import { said, type Said } from '../../src/i18n/said.js';
import { say } from '../../src/i18n/reader.js';

/**
 * Hearts of Tin: a first-roll rout that offers the commander re-roll is pending, not yet applied;
 * the unit keeps the roll's id in `pending_rout`. The offer lapses at the next /game turn, at
 * /game end, or at the unit's next roll; then the rout stands and is written back, recorded as a
 * change under the rout's own roll.
 */

export const pendingRoutOf = (t: Tracked | undefined): string | undefined => {
  const v = t?.unit.fields[PENDING_ROUT];
  return typeof v === 'string' ? v : undefined;
};

/** The rout stands: the unit leaves the field, recorded under the rout's roll; returns the reply's line. */
async function lapse(tx: LedgerTx, ctx: Context, t: Tracked, when: string, how: { asGame?: boolean }): Promise<string> {
  const rollId = pendingRoutOf(t)!;
  const why = `${when}: the commander re-roll offered on rally ${rollId} was not taken, so the rout stands and the unit leaves the field`;
  await writeBack(tx, ctx, t, { remove: true, why }, rollId, 'rally', how);
  return say('hot.lapsed', { unit: userText(t.unit.name), id: rollId });
}

/** Every pending rout of a Hearts of Tin game lapses (the turn moved on, or the game ended): one line each. */
export async function lapseAllRouts(tx: LedgerTx, ctx: Context, game: Game, when: string): Promise<string[]> {
  if (game.system !== 'hearts-of-tin') return [];
  const lines: string[] = [];
  for (const unit of await tx.roster.units(game.id, 10_000, 0)) {
    if (typeof unit.fields[PENDING_ROUT] === 'string') lines.push(await lapse(tx, ctx, { game, unit }, when, { asGame: true }));
  }
  return lines;
}

/**
 * A roll naming a unit whose rout is pending: the offer lapses first, in the roll's own unit of
 * work, and the unit has left the field, so nothing is rolled; the line says so. Undefined when
 * nothing is pending (then the roll goes on).
 */
export async function lapseInstead(tx: LedgerTx, ctx: Context, tracked: Tracked | undefined): Promise<string | undefined> {
  if (!pendingRoutOf(tracked)) return undefined;
  return lapse(tx, ctx, tracked!, `A later roll of ${tracked!.unit.name}`, {});
}

/** The reply when a pending rout stood instead of a roll. */
export const routStands = (unitName: string, line: string): Reply => ({
  type: 'message',
  ephemeral: false,
  embed: noticeEmbed(say('hot.routStandsTitle', { unit: userText(unitName) }), say('hot.routStands', { line })),
  buttons: [],
});

/**
 * Why a rally's commander re-roll can no longer be taken, or undefined while it can: the game
 * ended, the turn it was rolled in is over, or the rout already stood (its lapse is a removal row
 * under the rally, among `children`, the rally's linked rows the caller has read).
 */
export async function rerollLapsed(reads: Reads, first: LedgerRow, children: readonly LedgerRow[]): Promise<Said | undefined> {
  const lapsed = await turnLapse(reads, first, 'lapsedGameEnded');
  if (lapsed) return lapsed;
  if (children.some((r) => r.kind === 'unit' && (r.input as { removed?: boolean }).removed === true)) return said('lapsedUnitLeft');
  return undefined;
}
