import { defineCommand } from '../src/core/command.js';
import { errorReply, resultMessage, rollAndRecord } from '../src/core/adjudicate.js';
import { boolean, type ParsedOptions } from '../src/core/options.js';
import { storedAslEmbed } from '../src/render/asl.js';
import { heatOfBattle, HOB_ORDER, hobDistribution, hobExemption, type HobInput } from '../src/rules/asl/hob.js';
import type { AslUnit } from '../src/rules/asl/parse-unit.js';
import { oddsOf } from '../src/rules/odds.js';
import { hobOptions, hobSituation, readCompanions, readUnit, unitChoices, unitOptions } from './asl-options.js';
import { REFUSE, refuseButtons, refuseHardening } from './asl-refuse.js';

export const options = {
  ...unitOptions,
  broken: boolean({ description: 'The unit was broken when the Original 2 was rolled (+1)', default: false }),
  ...hobOptions,
};

/** The rules' input from the options, or the sentence that refuses them (nothing is rolled). */
export function prepare(o: ParsedOptions<typeof options>): { input: HobInput; companions: { unit: AslUnit; broken: boolean }[] } | string {
  const unit = readUnit(o);
  if (typeof unit === 'string') return unit;
  const input: HobInput = { ...hobSituation(o), unit, broken: o.broken };
  const exempt = hobExemption(input);
  if (exempt) return `${unit.name}: no Heat of Battle DR — ${exempt} (A15.1). Nothing was rolled or recorded.`;
  const companions = readCompanions(o.companions, unit.nationality);
  if (typeof companions === 'string') return companions;
  return { input, companions };
}

export default defineCommand({
  name: 'hob',
  description: 'ASL: a Heat of Battle DR (A15) for a unit',
  system: 'asl',
  example: '/hob unit:"German 4-6-7" broken:true',
  options,
  run(ctx, o) {
    const prepared = prepare(o);
    if (typeof prepared === 'string') return errorReply(prepared);
    const { input, companions } = prepared;
    const unit = input.unit;
    const found = rollAndRecord(
      ctx,
      { command: 'hob', kind: 'roll', unit: unit.name, input: o },
      (dice) => heatOfBattle(input, dice, companions),
      (out) => oddsOf(hobDistribution(input), HOB_ORDER, out.result),
    );
    return resultMessage(found, storedAslEmbed(found.row), refuseButtons(found));
  },
  buttons: { [REFUSE]: refuseHardening },
  autocomplete: unitChoices,
});
