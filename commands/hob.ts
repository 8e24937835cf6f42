import { defineCommand, type Context } from '../src/core/command.js';
import { errorReply, rollAndRecord, rollMessage } from '../src/core/adjudicate.js';
import { boolean, type ParsedOptions } from '../src/core/options.js';
import { storedAslEmbed } from '../src/render/asl.js';
import { heatOfBattle, HOB_ORDER, hobDistribution, hobExemption, type HobInput } from '../src/rules/asl/hob.js';
import type { AslUnit } from '../src/rules/asl/parse-unit.js';
import { oddsOf } from '../src/rules/odds.js';
import { aslWriteBack, hobOptions, hobSituation, readCompanions, readUnit, rosterDefaults, unitChoices, unitOptions, type TrackedAsl } from './asl-options.js';
import { REFUSE, refuseButtons, refuseHardening } from './asl-refuse.js';

export const options = {
  ...unitOptions,
  broken: boolean({ description: 'The unit was broken when the Original 2 was rolled (+1)', default: false }),
  ...hobOptions,
  sealed: boolean({ description: 'Sealed: only GMs see the result until /reveal', default: false }),
};

/** The rules' input from the options, or the sentence that refuses them (nothing is rolled). */
export function prepare(
  ctx: Context,
  given: ParsedOptions<typeof options>,
  purpose: 'write' | 'read' = 'write',
): { input: HobInput; companions: { unit: AslUnit; broken: boolean }[]; tracked?: TrackedAsl; options: Record<string, unknown> } | string {
  const read = readUnit(ctx, given, purpose);
  if (typeof read === 'string') return read;
  const { unit, tracked } = read;
  const o = rosterDefaults(ctx, given, tracked);
  const input: HobInput = { ...hobSituation(o), unit, broken: o.broken, heroic: tracked?.fields.heroic ?? false };
  const exempt = hobExemption(input);
  if (exempt) return `${unit.name}: no Heat of Battle DR — ${exempt} (A15.1). Nothing was rolled or recorded.`;
  const companions = readCompanions(o.companions, unit.nationality);
  if (typeof companions === 'string') return companions;
  return { input, companions, ...(tracked ? { tracked } : {}), options: tracked ? { ...o, counter: tracked.fields.counter } : o };
}

export default defineCommand({
  name: 'hob',
  description: 'ASL: a Heat of Battle DR (A15) for a unit',
  system: 'asl',
  example: '/hob unit:"German 4-6-7" broken:true',
  options,
  run(ctx, o) {
    const prepared = prepare(ctx, o);
    if (typeof prepared === 'string') return errorReply(prepared);
    const { input, companions, tracked } = prepared;
    const found = rollAndRecord(
      ctx,
      { command: 'hob', system: 'asl', kind: 'roll', unit: tracked?.unit.name ?? input.unit.name, input: prepared.options },
      (dice) => heatOfBattle(input, dice, companions),
      {
        odds: (out) => oddsOf(hobDistribution(input), HOB_ORDER, out.result),
        after: (r) => aslWriteBack(ctx, tracked, r.outcome.steps, r.row.id, 'hob'),
      },
    );
    return rollMessage(ctx, o.sealed, found, storedAslEmbed(found.row), refuseButtons(found));
  },
  buttons: { [REFUSE]: refuseHardening },
  autocomplete: unitChoices,
  renderStored: (_ctx, row) => ({ embed: storedAslEmbed(row), buttons: refuseButtons({ row, outcome: row.outcome as { steps: { kind: string }[] } }) }),
});
