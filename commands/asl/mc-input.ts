import type { Context } from '../../src/core/command.js';
import type { Scope } from '../../src/core/games.js';
import { refuse } from '../../src/core/user-error.js';
import { boolean, choice, integer, type ParsedOptions, sealedOption } from '../../src/core/options.js';
import { checkConflict, COMMISSAR_ROLES, TERRAINS, type CheckInput } from '../../src/rules/asl/mc.js';
import { hobOptions, hobSituation, readCompanions, readUnit, rosterDefaults, unitOptions, type TrackedAsl } from './unit-input.js';
import { option, said } from '../../src/i18n/said.js';
import { userText } from '../../src/render/embed.js';

/** `first`: the player's first MMC Self-Rally attempt of his RPh (A18.11); `later`: any other. */
const SELF_RALLY = ['no', 'first', 'later'] as const;

const { with_leader: _withLeader, ...mcHobOptions } = hobOptions;

export const options = {
  ...unitOptions,
  check: choice({ description: 'Morale Check or Rally (default mc)', choices: ['mc', 'rally'] as const, default: 'mc' }),
  number: integer({ description: 'The #MC (0 is a NMC; default 0)', min: 0, max: 4, default: 0 }),
  ml: integer({ description: "Override the unit's Morale Level", min: 1, max: 10 }),
  leader_drm: integer({ description: 'DRM of an unbroken (or the rallying) leader', min: -3, max: 1 }),
  elr: integer({ description: "ELR (default: the unit's own, else 3)", min: 0, max: 6 }),
  ift: boolean({ description: 'Caused by the IFT: Final = ML pins (default true)', default: true }),
  broken: boolean({ description: 'Broken (an MC uses the broken-side ML)', default: false }),
  terrain: choice({ description: 'Rally: terrain that gives −1', choices: TERRAINS, default: 'none' }),
  desperation: boolean({ description: 'Rally: under Desperation Morale (+4)', default: false }),
  self_rally: choice({
    description: 'Rally: Self-Rally (+1); first = your first MMC rally this RPh',
    choices: SELF_RALLY,
    default: 'no',
  }),
  commissar: choice({
    description: 'Commissar in the Location (+1 ML), or leading the rally',
    choices: COMMISSAR_ROLES,
    default: 'none',
  }),
  wounded: boolean({ description: 'A wounded leader or hero (A17)', default: false }),
  // A leader's presence is told by leader_drm here (Discord allows 25 options a command).
  ...mcHobOptions,
  sealed: sealedOption(),
};

export const check = (o: ParsedOptions<typeof options>) => {
  if (o.check === 'rally' && o.number) return said('numberIsMc', { number: option('number') });
  if (o.check === 'mc' && (o.self_rally !== 'no' || o.desperation || o.terrain !== 'none')) {
    return said('rallyOnly', { self_rally: option('self_rally'), desperation: option('desperation'), terrain: option('terrain'), check: option('check') });
  }
  if (o.self_rally !== 'no' && o.leader_drm !== undefined) return said('selfRallyNoLeader', { leader_drm: option('leader_drm') });
  return undefined;
};

/** The rules' input from the options; what cannot be rolled is refused (nothing is rolled). */
export async function prepare(
  scope: Scope,
  ctx: Context,
  given: ParsedOptions<typeof options>,
  purpose: 'write' | 'read' = 'write',
): Promise<{ input: CheckInput; tracked?: TrackedAsl; options: Record<string, unknown> }> {
  const { unit, tracked } = await readUnit(scope, ctx, given, purpose);
  const o = rosterDefaults(ctx, given, tracked);
  if (o.self_rally !== 'no' && tracked?.fields.disrupted) refuse('disruptedSelfRally', { unit: userText(tracked.unit.name) });
  const companions = readCompanions(o.companions, unit.nationality);
  const input: CheckInput = {
    unit,
    check: o.check,
    number: o.number,
    ml: o.ml,
    leaderDrm: o.leader_drm,
    elr: o.elr,
    ift: o.ift,
    broken: o.broken,
    wounded: o.wounded,
    terrain: o.terrain,
    desperation: o.desperation,
    selfRally: o.self_rally !== 'no',
    firstRally: o.self_rally === 'first',
    commissar: o.commissar,
    hob: { ...hobSituation(o), heroic: tracked?.fields.heroic ?? false },
    companions,
  };
  const conflict = checkConflict(input);
  if (conflict) refuse('sentenceNothingRolled', { what: conflict });
  if (o.ml === undefined && o.status !== 'berserk' && (o.check === 'rally' || o.broken ? unit.brokenMl : unit.ml) === undefined) {
    refuse('noMorale', { unit: userText(unit.name), ml: option('ml') });
  }

  return { input, ...(tracked ? { tracked } : {}), options: tracked ? { ...o, counter: tracked.fields.counter } : o };
}
