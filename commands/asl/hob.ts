import { EVERYONE } from '../../src/core/access.js';
import { defineCommand } from '../../src/core/command.js';
import { rollAndRecord } from '../../src/core/roll.js';
import { rollMessage } from '../../src/core/replies.js';
import { storedAslEmbed } from '../../src/render/asl.js';
import { heatOfBattle, HOB_ORDER, hobDistribution } from '../../src/rules/asl/hob.js';
import { oddsOf } from '../../src/rules/odds.js';
import { options, prepare } from './hob-input.js';
import { REFUSE, refuseButtons, refuseHardening } from './refuse.js';
import { aslEffects, unitChoices } from './unit-input.js';

export default defineCommand({
  name: 'hob',
  access: EVERYONE,
  description: 'ASL: a Heat of Battle DR (A15) for a unit',
  system: 'asl',
  example: '/hob unit:"German 4-6-7" broken:true',
  options,
  async run(ctx, o) {
    const found = await rollAndRecord(ctx, 'asl', async (at) => {
      // The roster unit is read in the roll's transaction: the unit it decides from is the one it writes.
      const prepared = await prepare(at, ctx, o);
      const { input, companions, tracked } = prepared;
      return {
        meta: { command: 'hob', kind: 'roll', unit: tracked?.unit.name ?? input.unit.name, input: prepared.options, sealed: o.sealed },
        rules: (dice) => heatOfBattle(input, dice, companions),
        odds: (out) => oddsOf(hobDistribution(input), HOB_ORDER, out.result),
        effects: (out) => aslEffects(tracked, out.steps),
      };
    });
    return await rollMessage(ctx, o.sealed, found, storedAslEmbed(found.row), refuseButtons(found));
  },
  buttons: { [REFUSE]: refuseHardening },
  autocomplete: unitChoices,
  renderStored: (_ctx, row) => ({ embed: storedAslEmbed(row), buttons: refuseButtons({ row, outcome: row.outcome as { steps: { kind: string }[] } }) }),
});
