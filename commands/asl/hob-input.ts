import type { Context } from '../../src/core/command.js';
import type { Scope } from '../../src/core/games.js';
import { refuse } from '../../src/core/user-error.js';
import { boolean, type ParsedOptions, sealedOption } from '../../src/core/options.js';
import { hobExemption, type HobInput } from '../../src/rules/asl/hob.js';
import { woundedConflict } from '../../src/rules/asl/traits.js';
import type { AslUnit } from '../../src/rules/asl/parse-unit.js';
import { hobOptions, hobSituation, readCompanions, readUnit, rosterDefaults, unitOptions, type TrackedAsl } from './unit-input.js';
import { userText } from '../../src/render/embed.js';

export const options = {
  ...unitOptions,
  broken: boolean({ description: 'The unit was broken when the Original 2 was rolled (+1)', default: false }),
  wounded: boolean({ description: 'A wounded leader (A17.3)', default: false }),
  ...hobOptions,
  sealed: sealedOption(),
};

/** The rules' input from the options; what cannot be rolled is refused (nothing is rolled). */
export async function prepare(
  scope: Scope,
  ctx: Context,
  given: ParsedOptions<typeof options>,
  purpose: 'write' | 'read' = 'write',
): Promise<{ input: HobInput; companions: { unit: AslUnit; broken: boolean }[]; tracked?: TrackedAsl; options: Record<string, unknown> }> {
  const { unit, tracked } = await readUnit(scope, ctx, given, purpose);
  const o = rosterDefaults(ctx, given, tracked);
  const wounded = woundedConflict(unit, o.wounded);
  if (wounded) refuse('sentence', { what: wounded });
  const input: HobInput = { ...hobSituation(o), unit, broken: o.broken, heroic: tracked?.fields.heroic ?? false, wounded: o.wounded };
  const exempt = hobExemption(input);
  if (exempt) refuse('hobExempt', { unit: userText(unit.name), why: exempt });
  const companions = readCompanions(o.companions, unit.nationality);
  return { input, companions, ...(tracked ? { tracked } : {}), options: tracked ? { ...o, counter: tracked.fields.counter } : o };
}
