import { defineCommand, type Context } from '../src/core/command.js';
import { errorReply, rollAndRecord, rollMessage } from '../src/core/adjudicate.js';
import type { LedgerRow } from '../src/ledger/ledger.js';
import { boolean, choice, parsedText, requiredMessage, type ParsedOptions } from '../src/core/options.js';
import { preferGiven, trackedUnit, writeBack, type Tracked } from '../src/core/roster-unit.js';
import { recentUnitChoices, unitOption } from '../src/core/unit-option.js';
import { moraleEmbed } from '../src/render/lightning-war.js';
import { CHECK_REASON_CODES, COVERS, MORALE_LEVELS, UNIT_TYPES } from '../src/rules/lightning-war/morale-table.js';
import { MORALE_ORDER, moraleCheck, moraleDistribution, parseCasualties, type MoraleInput, type MoraleOutcome } from '../src/rules/lightning-war/morale.js';
import { oddsOf } from '../src/rules/odds.js';

export const options = {
  morale: choice({ description: "The unit's base morale level (a roster unit: its own)", choices: MORALE_LEVELS }),
  casualties: parsedText({
    description: 'Casualties as lost/original, e.g. 2/5 (omit for none)',
    maxLength: 20,
    allowed: 'lost/original with 0 ≤ lost ≤ original and original ≥ 1, like 2/5',
    parse: parseCasualties,
  }),
  cover: choice({ description: 'Cover the unit is under (default none)', choices: COVERS, default: 'none' }),
  unit_type: choice({ description: 'Infantry or vehicle (default infantry)', choices: UNIT_TYPES, default: 'infantry' }),
  immobilized: boolean({ description: 'The unit is immobilized (−2)', default: false }),
  near_kill: boolean({ description: 'It suffered a Near Kill this turn (−3)', default: false }),
  reserve_move: boolean({ description: 'It is using reserve movement (−2)', default: false }),
  commander: boolean({
    description: 'Company+ commander visible within 100 m (250 m for vehicles): +2',
    default: false,
  }),
  rally: boolean({ description: 'This is a rally attempt (+2; only a firm result rallies)', default: false }),
  enemy_within_100m: boolean({ description: 'Visible enemy within 100 m: a rout becomes a surrender', default: false }),
  reason: choice({ description: 'What caused the check (recorded, no modifier)', choices: CHECK_REASON_CODES }),
  unit: unitOption(),
  sealed: boolean({ description: 'Sealed: only GMs see the result until /reveal', default: false }),
};

type Settled = ParsedOptions<typeof options> & { morale: MoraleInput['morale'] };

/** Roster defaults (explicit options win), or the error when the morale level is missing. */
export function settle(ctx: Context, o: ParsedOptions<typeof options>): { options: Settled; tracked?: Tracked } | string {
  const tracked = trackedUnit(ctx, 'lightning-war', o.unit);
  const f = tracked?.unit.fields as { morale: Settled['morale']; casualties: number; original: number; unit_type: Settled['unit_type'] } | undefined;
  const eff = preferGiven(ctx, o, f ? { morale: f.morale, casualties: { lost: f.casualties, original: f.original }, unit_type: f.unit_type } : {});
  if (eff.morale === undefined) return requiredMessage('morale', options.morale);
  return { options: eff as Settled, ...(tracked ? { tracked } : {}) };
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
});

export const check = (o: ParsedOptions<typeof options>) =>
  o.rally && o.reason ? '`rally` and `reason` do not go together: a rally attempt is not a morale check caused by an event.' : undefined;

const storedMorale = (row: LedgerRow) => ({
  embed: moraleEmbed({ unit: row.unit ?? undefined, userName: row.user_name, input: toInput(row.input as Settled), outcome: row.outcome as MoraleOutcome, row }),
  buttons: [],
});

export default defineCommand({
  name: 'morale',
  description: 'Lightning War: a morale check or rally (3d6 on the morale table)',
  system: 'lightning-war',
  example: '/morale morale:leery casualties:2/5 cover:soft',
  options,
  check,
  run(ctx, given) {
    const settled = settle(ctx, given);
    if (typeof settled === 'string') return errorReply(settled);
    const { options: o, tracked } = settled;
    const input = toInput(o);
    const found = rollAndRecord(
      ctx,
      { command: 'morale', system: 'lightning-war', kind: 'roll', unit: o.unit, input: o },
      (dice) => moraleCheck(input, dice),
      {
        odds: (out) => oddsOf(moraleDistribution(input), MORALE_ORDER, out.result),
        after: (r) => {
          const gone = r.outcome.result === 'eliminated' || r.outcome.result === 'surrender';
          if (tracked && gone) writeBack(ctx, tracked, { remove: true, why: r.outcome.result === 'eliminated' ? 'Eliminated' : 'Surrendered' }, r.row.id, 'morale');
        },
      },
    );
    return rollMessage(ctx, o.sealed, found, storedMorale(found.row).embed);
  },
  autocomplete: recentUnitChoices,
  renderStored: (_ctx, row) => storedMorale(row),
});
