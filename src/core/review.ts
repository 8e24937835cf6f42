import type { LedgerRow } from '../ledger/rows.js';
import { withPayload, type SealedPayload } from '../ledger/rows.js';
import { isSealed } from '../render/review.js';
import type { Context } from './command.js';
import type { Reads } from './games.js';
import { refuse } from './user-error.js';
import { quoted } from '../render/embed.js';

/** A roll of this server by id, or the error; another server's roll is "not found", never shown. */
export async function findRoll(reads: Pick<Reads, 'get'>, ctx: Context, id: string): Promise<LedgerRow> {
  return (await reads.get(ctx.actor.guildId, id.trim().toLowerCase())) ?? refuse('noRollHere', { id: quoted(id) });
}

/** The roll a button acts on and its linked rows (re-roll, decision, void, reveal, roster changes). */
export type ButtonParent = { roll: LedgerRow; children: LedgerRow[]; voided?: string };

/**
 * The roll a button acts on, read in the button's transaction with its linked rows, or undefined
 * when it is not on record in this server. A sealed roll is the button's only once revealed (the
 * rules' choices are offered with the reveal, whose row publishes the payload); `voided` is the
 * reason a GM gave, when one voided it (a voided roll offers no choice).
 */
export async function buttonParent(reads: Pick<Reads, 'get' | 'children'>, ctx: Context, rollId: string): Promise<ButtonParent | undefined> {
  const stored = await reads.get(ctx.actor.guildId, rollId);
  if (!stored) return undefined;
  const children = await reads.children(ctx.actor.guildId, stored.id);
  const reveal = children.find((r) => r.kind === 'reveal');
  if (isSealed(stored) && !reveal) return undefined;
  const payload = reveal && (reveal.input as { payload?: SealedPayload }).payload;
  const roll = payload ? withPayload(stored, payload) : stored;
  const v = children.find((r) => r.kind === 'void');
  return { roll, children, ...(v ? { voided: String((v.input as { reason?: string }).reason ?? '') } : {}) };
}

/** A row as this viewer may see it: `hidden` when sealed and unrevealed and the viewer is not a GM. */
export type View = { row: LedgerRow; hidden: boolean; revealed: boolean };

/**
 * The rows as this viewer may see them. A sealed roll's result shows once revealed (from the reveal
 * row), and to GMs before that (from the sealed payload); to anyone else, the roller included, it
 * stays hidden: the chained row holds only a commitment.
 */
export async function viewsFor(ctx: Context, rows: LedgerRow[]): Promise<View[]> {
  const sealed = rows.filter(isSealed).map((r) => r.id);
  if (!sealed.length) return rows.map((row) => ({ row, hidden: false, revealed: false }));
  const { ledger } = ctx.services;
  const revealed = await ledger.history.revealedPayloads(ctx.actor.guildId, sealed);
  const forGm = ctx.actor.isGm ? await ledger.sealedPayloads(ctx.actor.guildId, sealed) : new Map();
  return rows.map((row) => {
    if (!isSealed(row)) return { row, hidden: false, revealed: false };
    const reveal = revealed.get(row.id);
    // A reveal from before sealed payloads existed carries none: that row kept its result itself.
    if (revealed.has(row.id)) return { row: reveal ? withPayload(row, reveal) : row, hidden: false, revealed: true };
    const kept = forGm.get(row.id);
    return kept ? { row: withPayload(row, kept.payload), hidden: false, revealed: false } : { row, hidden: true, revealed: false };
  });
}

export const viewFor = async (ctx: Context, row: LedgerRow): Promise<View> => (await viewsFor(ctx, [row]))[0]!;
