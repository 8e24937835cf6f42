import { EVERYONE } from '../../src/core/access.js';
import { defineCommand, type Context } from '../../src/core/command.js';
import { type RosterEffect, rollAndRecord } from '../../src/core/roll.js';
import { rollMessage } from '../../src/core/replies.js';
import type { LedgerRow } from '../../src/ledger/rows.js';
import type { Tracked } from '../../src/core/roster-unit.js';
import { unitChoicesFor } from '../../src/core/unit-option.js';
import { check, options, prepare, toInput, type LwFields, type Settled } from './morale-input.js';
import { moraleEmbed } from '../../src/render/lightning-war.js';
import { moraleRosterChange } from '../../src/rules/lightning-war/roster.js';
import { MORALE_ORDER, moraleCheck, moraleDistribution, type MoraleOutcome } from '../../src/rules/lightning-war/morale.js';
import { oddsOf } from '../../src/rules/odds.js';

/** A check's roster change (the rules decide it), for the roll's transaction; casualties count only when given. */
function moraleEffects(ctx: Context, tracked: Tracked | undefined, o: Settled, outcome: MoraleOutcome): RosterEffect[] {
  const reported = ctx.given.has('casualties') ? o.casualties?.lost : undefined;
  const change = tracked && moraleRosterChange(tracked.unit.fields as LwFields, outcome.result, reported);
  return tracked && change ? [{ tracked, change }] : [];
}

const storedMorale = (row: LedgerRow) => ({
  embed: moraleEmbed({
    unit: row.unit ?? undefined,
    userName: row.user_name,
    input: toInput(row.input as Settled),
    outcome: row.outcome as MoraleOutcome,
    row,
  }),
  buttons: [],
});

export default defineCommand({
  name: 'morale',
  access: EVERYONE,
  description: 'Lightning War: a morale check or rally (3d6 on the morale table)',
  system: 'lightning-war',
  example: '/morale morale:leery casualties:2/5 cover:soft',
  options,
  check,
  async run(ctx, given) {
    const found = await rollAndRecord(ctx, 'lightning-war', async (at) => {
      const { options: o, tracked } = await prepare(at, ctx, given);
      const input = toInput(o);
      return {
        meta: { command: 'morale', kind: 'roll', unit: o.unit, input: o, sealed: o.sealed },
        rules: (dice) => moraleCheck(input, dice),
        odds: (out) => oddsOf(moraleDistribution(input), MORALE_ORDER, out.result),
        effects: (out) => moraleEffects(ctx, tracked, o, out),
      };
    });
    return await rollMessage(ctx, given.sealed, found, storedMorale(found.row).embed);
  },
  autocomplete: unitChoicesFor('lightning-war'),
  renderStored: (_ctx, row) => storedMorale(row),
});
