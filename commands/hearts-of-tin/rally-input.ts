import type { Context } from '../../src/core/command.js';
import type { Scope } from '../../src/core/games.js';
import { boolean, choice, integer, requiredMessage, sealedOption, type ParsedOptions } from '../../src/core/options.js';
import { preferGiven, trackedUnit, type Tracked } from '../../src/core/roster-unit.js';
import { unitOption } from '../../src/core/unit-option.js';
import { refuse } from '../../src/core/user-error.js';
import { MAX_DISORDER, MIN_DISORDER, QUALITIES, type RallyInput } from '../../src/rules/hearts-of-tin/rally.js';
import { said } from '../../src/i18n/said.js';
import { userText } from '../../src/render/embed.js';

export const options = {
  disorder: integer({
    description: 'Disorder markers on the unit (1–30; a roster unit: its own)',
    min: MIN_DISORDER,
    max: MAX_DISORDER,
    explain: (v) => (v === 0 ? NO_DISORDER : undefined),
  }),
  quality: choice({ description: "Troop quality (default regular, or the roster unit's)", choices: QUALITIES, default: 'regular' }),
  band: boolean({ description: 'A band has joined the unit (+1; not on top of elite)', default: false }),
  enemy_in_sight: boolean({
    description: 'An enemy is visible within 24" (default true; false gives +1)',
    default: true,
  }),
  commander_near: boolean({
    description: 'A commander within 12" may join and re-roll a failed rally',
    default: false,
  }),
  unit: unitOption(),
  sealed: sealedOption(),
};

type RallyOptions = ParsedOptions<typeof options>;
/** The options with `disorder` settled (given, or from the roster). */
export type Settled = RallyOptions & { disorder: number };

const NO_DISORDER = said('noDisorderNeedsNoRally');

/** Roster defaults (explicit options win); a missing or zero disorder count is refused. */
export async function prepare(
  scope: Scope,
  ctx: Context,
  o: RallyOptions,
  purpose: 'write' | 'read' = 'write',
): Promise<{ options: Settled; tracked?: Tracked }> {
  const tracked = await trackedUnit(scope, ctx, o.unit, purpose);
  const f = tracked?.unit.fields as { disorder: number; quality: RallyOptions['quality']; band: boolean } | undefined;
  const eff = preferGiven(ctx, o, f ? { disorder: f.disorder, quality: f.quality, band: f.band } : {});
  if (eff.disorder === 0)
    refuse(tracked ? said('noDisorderMarkers', { unit: userText(tracked.unit.name), why: NO_DISORDER }) : said('theUnitNoDisorder', { why: NO_DISORDER }));
  if (eff.disorder === undefined) refuse(requiredMessage('disorder', options.disorder));
  return { options: eff as Settled, ...(tracked ? { tracked } : {}) };
}

export const toInput = (o: Settled): RallyInput => ({
  disorder: o.disorder,
  quality: o.quality,
  band: o.band,
  enemyInSight: o.enemy_in_sight,
  commanderNear: o.commander_near,
});
