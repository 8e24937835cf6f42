import { customId, defineCommand } from '../src/core/command.js';
import { errorReply, resultMessage, rollAndRecord } from '../src/core/adjudicate.js';
import { boolean } from '../src/core/options.js';
import { storedAslEmbed } from '../src/render/asl.js';
import { heatOfBattle, hobExemption } from '../src/rules/asl/hob.js';
import { hobOptions, hobSituation, readCompanions, readUnit, unitChoices, unitOptions } from './asl-options.js';
import { REFUSE, refuseHardening } from './asl-refuse.js';

export const REFUSE_LABEL = 'Refuse battle hardening';

export default defineCommand({
  name: 'hob',
  description: 'ASL: a Heat of Battle DR (A15) for a unit',
  system: 'asl',
  example: '/hob unit:"German 4-6-7" broken:true',
  options: {
    ...unitOptions,
    broken: boolean({ description: 'The unit was broken when the Original 2 was rolled (+1)', default: false }),
    ...hobOptions,
  },
  run(ctx, o) {
    const unit = readUnit(o);
    if (typeof unit === 'string') return errorReply(unit);
    const input = { ...hobSituation(o), unit, broken: o.broken };
    const exempt = hobExemption(input);
    if (exempt) return errorReply(`${unit.name}: no Heat of Battle DR — ${exempt} (A15.1). Nothing was rolled or recorded.`);
    const companions = readCompanions(o.companions, unit.nationality);
    if (typeof companions === 'string') return errorReply(companions);
    const found = rollAndRecord(ctx, { command: 'hob', kind: 'roll', unit: unit.name, input: o }, (dice) => heatOfBattle(input, dice, companions));
    const refusable = found.outcome.steps.some((s) => s.kind === 'hob' && s.refusable);
    const buttons = refusable ? [{ custom_id: customId(REFUSE, found.row.id), label: REFUSE_LABEL, style: 'secondary' as const }] : [];
    return resultMessage(found, storedAslEmbed(found.row), buttons);
  },
  buttons: { [REFUSE]: refuseHardening },
  autocomplete: unitChoices,
});
