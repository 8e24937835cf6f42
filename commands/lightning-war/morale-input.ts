import { articleOf } from '../../src/util/text.js';
import { userText } from '../../src/render/embed.js';
import type { Context } from '../../src/core/command.js';
import type { Scope } from '../../src/core/games.js';
import { boolean, choice, parsedText, requiredMessage, sealedOption, type ParsedOptions } from '../../src/core/options.js';
import { preferGiven, trackedUnit, type Tracked } from '../../src/core/roster-unit.js';
import { unitOption } from '../../src/core/unit-option.js';
import { refuse } from '../../src/core/user-error.js';
import { CHECK_REASON_CODES, COVERS, MORALE_LEVELS, REASON_FITS, UNIT_TYPES, type LwState } from '../../src/rules/lightning-war/morale-table.js';
import { parseCasualties, type MoraleInput } from '../../src/rules/lightning-war/morale.js';
import { option, said } from '../../src/i18n/said.js';

export const options = {
  morale: choice({ description: "The unit's base morale level (a roster unit: its own)", choices: MORALE_LEVELS }),
  casualties: parsedText({
    description: 'Casualties as lost/original, e.g. 2/5 (omit for none)',
    maxLength: 20,
    allowed: said('allowedCasualties'),
    parse: parseCasualties,
  }),
  cover: choice({ description: 'Cover the unit is under (default none)', choices: COVERS, default: 'none' }),
  unit_type: choice({ description: 'Infantry or vehicle (default infantry)', choices: UNIT_TYPES, default: 'infantry' }),
  immobilized: boolean({ description: 'The unit is immobilized (−2)', default: false }),
  near_kill: boolean({ description: 'Near Kill this turn (−3)', default: false }),
  reserve_move: boolean({ description: 'Using reserve movement (−2)', default: false }),
  commander: boolean({
    description: 'Company+ commander within 100 m (vehicles 250 m): +2',
    default: false,
  }),
  rally: boolean({ description: 'A rally attempt (+2; only firm rallies)', default: false }),
  enemy_within_100m: boolean({ description: 'Visible enemy within 100 m: a rout becomes a surrender', default: false }),
  reason: choice({ description: 'What caused the check (recorded, no modifier)', choices: CHECK_REASON_CODES }),
  state: choice({
    description: "Retreating or routing now (default: the roster's; a rally's else retreating)",
    choices: ['retreating', 'routing'] as const,
  }),
  unit: unitOption(),
  sealed: sealedOption(),
};

export type Settled = ParsedOptions<typeof options> & { morale: MoraleInput['morale'] };

export type LwFields = { morale: Settled['morale']; casualties: number; original: number; unit_type: Settled['unit_type']; state?: LwState };

/** Roster defaults (explicit options win); what cannot be checked is refused before any die. */
export async function prepare(
  scope: Scope,
  ctx: Context,
  o: ParsedOptions<typeof options>,
  purpose: 'write' | 'read' = 'write',
): Promise<{ options: Settled; tracked?: Tracked }> {
  const tracked = await trackedUnit(scope, ctx, o.unit, purpose);
  const f = tracked?.unit.fields as LwFields | undefined;
  if (f && o.casualties && o.casualties.original !== f.original) {
    refuse('casualtiesOverRoster', {
      casualties: option('casualties'),
      lost: o.casualties.lost,
      original: o.casualties.original,
      unit: userText(tracked!.unit.name),
      of: f.original,
    });
  }
  const rosterState = f?.state && f.state !== 'steady' ? f.state : undefined;
  const eff = preferGiven(
    ctx,
    o,
    f ? { morale: f.morale, casualties: { lost: f.casualties, original: f.original }, unit_type: f.unit_type, state: rosterState } : {},
  );
  if (eff.morale === undefined) refuse(requiredMessage('morale', options.morale));
  if (eff.rally) {
    // Rallies are for infantry that is retreating or routing.
    if (eff.unit_type !== 'infantry') refuse('onlyInfantryRallies', { article: articleOf(eff.unit_type), type: eff.unit_type });
    if (f && !eff.state) refuse('steadyNoRally', { unit: userText(tracked!.unit.name) });
  }
  const fits = eff.reason ? REASON_FITS[eff.reason] : undefined;
  if (fits && !fits.types.includes(eff.unit_type)) {
    const type = eff.unit_type.replace('_', ' ');
    refuse('reasonDoesNotFit', {
      reason: option('reason'),
      given: eff.reason!,
      what: fits.what,
      article: eff.unit_type === 'infantry' ? '' : articleOf(type),
      // The code: each language words the unit type itself.
      type: eff.unit_type,
    });
  }
  return { options: { ...eff, ...(eff.rally ? { state: eff.state ?? 'retreating' } : {}) } as Settled, ...(tracked ? { tracked } : {}) };
}

export const toInput = (o: Settled): MoraleInput => ({
  morale: o.morale,
  casualties: o.casualties,
  cover: o.cover,
  unitType: o.unit_type,
  immobilized: o.immobilized,
  nearKill: o.near_kill,
  reserveMove: o.reserve_move,
  commander: o.commander,
  rally: o.rally,
  enemyWithin100m: o.enemy_within_100m,
  reason: o.reason,
  // A check takes the state too: a new result never improves a retreating or routing unit.
  ...(o.state ? { state: o.state } : {}),
});

export const check = (o: ParsedOptions<typeof options>) =>
  o.rally && o.reason ? said('rallyNotReason', { rally: option('rally'), reason: option('reason') }) : undefined;
