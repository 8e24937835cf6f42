import { EVERYONE } from '../../src/core/access.js';
import { defineCommand } from '../../src/core/command.js';
import { rollAndRecord } from '../../src/core/roll.js';
import { rollMessage } from '../../src/core/replies.js';
import { storedAslEmbed } from '../../src/render/asl.js';
import { checkDistribution, checkOrder, moraleCheck } from '../../src/rules/asl/mc.js';
import { oddsOf } from '../../src/rules/odds.js';
import { check, options, prepare } from './mc-input.js';
import { refuseButtons } from './refuse.js';
import { aslEffects, unitChoices } from './unit-input.js';

export default defineCommand({
  name: 'mc',
  access: EVERYONE,
  description: 'ASL: a Morale Check or Rally DR, with Heat of Battle on an Original 2',
  system: 'asl',
  example: '/mc unit:"Russian 4-4-7" number:2 leader_drm:-1',
  options,
  check,
  async run(ctx, o) {
    const found = await rollAndRecord(ctx, 'asl', async (at) => {
      // The roster unit is read in the roll's transaction: the unit it decides from is the one it writes.
      const prepared = await prepare(at, ctx, o);
      const { input, tracked } = prepared;
      return {
        meta: { command: 'mc', kind: 'roll', unit: tracked?.unit.name ?? input.unit.name, input: prepared.options, sealed: o.sealed },
        rules: (dice) => moraleCheck(input, dice),
        odds: (out) => oddsOf(checkDistribution(input), checkOrder(input), out.result),
        effects: (out) => aslEffects(tracked, out.steps),
      };
    });
    return await rollMessage(ctx, o.sealed, found, storedAslEmbed(found.row), refuseButtons(found));
  },
  autocomplete: unitChoices,
  renderStored: (_ctx, row) => ({ embed: storedAslEmbed(row), buttons: refuseButtons({ row, outcome: row.outcome as { steps: { kind: string }[] } }) }),
});
