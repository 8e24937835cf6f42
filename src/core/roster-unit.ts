import type { NamedUnit } from '../ledger/contract.js';
import type { LedgerTx } from '../ledger/transaction.js';
import type { Game, RosterUnit } from '../ledger/roster.js';
import type { Finding, Outcome, SystemId } from '../rules/types.js';
import type { Scope } from './games.js';
import { record } from './record.js';
import type { Context } from './command.js';
import { assertOwnerOrGm, isOwnerOrGm } from './access.js';
import { refuse } from './user-error.js';
import { userText } from '../render/embed.js';
import { command, option, said, type Said } from '../i18n/said.js';

export type Tracked = { game: Game; unit: RosterUnit };

/**
 * The roster unit a rolling command names, when the channel runs a game of the command's system
 * (the scope's game). Naming a unit means writing the result back to it, so only its owner or a GM
 * may (anyone may still roll without naming it): the one permission check, before any die is
 * rolled. A command that writes reads it in its transaction (`scope.reads`), so the unit it
 * decides from is the unit its patch applies to.
 */
export async function trackedUnit(scope: Scope, ctx: Context, name: string | undefined, purpose: 'write' | 'read' = 'write'): Promise<Tracked | undefined> {
  if (!name) return undefined;
  const { game } = scope;
  if (!game) return undefined;
  // Read with the game when the unit of work was told the name (unitOfWork's `unit`).
  const named = scope.named?.name === name ? scope.named : undefined;
  const unit = named ? named.unit : await scope.reads.roster.unitByName(game.id, name);
  if (!unit) return refuseIfGone(scope, game, name, named);
  if (purpose === 'write') assertMayChange(ctx, { game, unit }, { hint: true });
  return { game, unit };
}

/**
 * A name no unit of the roster has now: a plain label, unless a unit of that name left the roster
 * (routed, eliminated, removed) — then rolling it as a fresh unit would silently forget its state.
 */
async function refuseIfGone(scope: Scope, game: Game, name: string, named: NamedUnit | undefined): Promise<undefined> {
  const key = name.trim().toLowerCase();
  const gone = named ? named.gone : (await scope.reads.roster.everyUnit(game.id)).find((u) => u.removed_at !== null && u.name.toLowerCase() === key);
  if (gone)
    refuse('leftRoster', {
      unit: userText(gone.name),
      game: userText(game.name),
      at: gone.removed_at!.slice(0, 16).replace('T', ' '),
      unitOption: option('unit'),
      add: command('unit add'),
    });
  return undefined;
}

/**
 * The one check that guards every write to a roster unit, whatever command makes it: its owner or a
 * GM; `asGame` writes (the end of a turn) are the game's own, allowed to whoever may manage the game.
 */
export function assertMayChange(ctx: Context, t: Tracked, how: { asGame?: boolean; verb?: Said; hint?: boolean } = {}): void {
  if (how.asGame && isOwnerOrGm(ctx, t.game.started_by)) return;
  const who = { owner: userText(t.unit.owner_name), unit: userText(t.unit.name), what: how.verb ?? said('changeIt') };
  assertOwnerOrGm(ctx, t.unit.owner_id, how.hint ? said('onlyOwnerOrGmHint', { ...who, hint: said('rollWithoutRoster') }) : said('onlyOwnerOrGm', who));
}

/** An option the user gave wins; otherwise the roster's value; otherwise the option's default. */
export function preferGiven<T extends Record<string, unknown>>(ctx: Context, options: T, fromRoster: Partial<T>): T {
  const out: Record<string, unknown> = { ...options };
  for (const [k, v] of Object.entries(fromRoster)) if (!ctx.given.has(k) && v !== undefined && v !== null) out[k] = v;
  return out as T;
}

/** The outcome of a change that is not a roll (roster, game, setting, GM mark): its row says what and why. */
export function changeOutcome(system: string, result: string, label: string, effect: string): Outcome {
  const f: Finding = { kind: 'unit', result, label, effect, tone: 'neutral', ref: '' };
  return { system: system as SystemId, steps: [f], result, tone: 'neutral' };
}

/** A write to a roster unit: new fields (and what refusing a hardening puts back), or removal, and why. */
export type RosterWrite = { fields?: Record<string, unknown>; remove?: boolean; why: string; undo?: Record<string, unknown> };

/**
 * Writes a change to a roster unit (new fields, or removal) and records it as its own ledger row
 * linked to what caused it, in the caller's transaction, after the one permission check.
 */
export async function writeBack(
  tx: LedgerTx,
  ctx: Context,
  t: Tracked,
  change: RosterWrite,
  parentId: string,
  command: string,
  how: { asGame?: boolean; authorised?: boolean } = {},
): Promise<string> {
  // `authorised`: a sealed roll's change, checked when the roll was made and applied at its reveal.
  if (!how.authorised) assertMayChange(ctx, t, how);
  const at = tx.timestamp();
  // Only the fields the change names are written: the rest stay as stored.
  if (change.remove) await tx.roster.removeUnit(t.unit.id, at);
  else if (change.fields) await tx.roster.patchUnit(t.unit.id, { fields: change.fields }, at);
  else return change.why;
  await record(
    tx,
    ctx,
    {
      command,
      kind: 'unit',
      unit: t.unit.name,
      input: { unit: t.unit.name, ...(change.remove ? { removed: true } : { fields: change.fields }), ...(change.undo ? { undo: change.undo } : {}) },
      parentId,
      // The unit's owner is named by its change, whoever makes it (a GM revealing their roll): erased with them too.
      named: [{ userId: t.unit.owner_id, values: [t.unit.name] }],
    },
    changeOutcome(t.game.system, change.remove ? 'unit_removed' : 'unit_updated', change.remove ? 'Unit removed' : 'Unit updated', change.why),
  );
  return change.why;
}
