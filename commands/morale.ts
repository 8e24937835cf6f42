import { defineCommand, type Context } from '../src/core/command.js';
import { errorReply, rollAndRecord, rollMessage } from '../src/core/adjudicate.js';
import type { LedgerRow } from '../src/ledger/ledger.js';
import { boolean, choice, parsedText, requiredMessage, type ParsedOptions } from '../src/core/options.js';
import { preferGiven, trackedUnit, writeBack, type Tracked } from '../src/core/roster-unit.js';
import { unitChoicesFor, unitOption } from '../src/core/unit-option.js';
import { moraleEmbed } from '../src/render/lightning-war.js';
import { CHECK_REASON_CODES, COVERS, MORALE_LEVELS, REASON_FITS, UNIT_TYPES, type LwState } from '../src/rules/lightning-war/morale-table.js';
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
  near_kill: boolean({ description: 'Near Kill this turn (−3)', default: false }),
  reserve_move: boolean({ description: 'Using reserve movement (−2)', default: false }),
  commander: boolean({
    description: 'Company+ commander within 100 m (vehicles 250 m): +2',
    default: false,
  }),
  rally: boolean({ description: 'A rally attempt (+2; only firm rallies)', default: false }),
  enemy_within_100m: boolean({ description: 'Visible enemy within 100 m: a rout becomes a surrender', default: false }),
  reason: choice({ description: 'What caused the check (recorded, no modifier)', choices: CHECK_REASON_CODES }),
  state: choice({ description: "Rally: retreating or routing (default: roster's, else retreating)", choices: ['retreating', 'routing'] as const }),
  unit: unitOption(),
  sealed: boolean({ description: 'Sealed: only GMs see the result until /reveal', default: false }),
};

type Settled = ParsedOptions<typeof options> & { morale: MoraleInput['morale'] };

type LwFields = { morale: Settled['morale']; casualties: number; original: number; unit_type: Settled['unit_type']; state?: LwState };

/** Roster defaults (explicit options win), or the error that refuses the check before any die. */
export function settle(ctx: Context, o: ParsedOptions<typeof options>, purpose: 'write' | 'read' = 'write'): { options: Settled; tracked?: Tracked } | string {
  const tracked = trackedUnit(ctx, 'lightning-war', o.unit, purpose);
  const f = tracked?.unit.fields as LwFields | undefined;
  if (f && o.casualties && o.casualties.original !== f.original) {
    return `\`casualties\` ${o.casualties.lost}/${o.casualties.original}: ${tracked!.unit.name}'s original strength on the roster is ${f.original}.`;
  }
  const rosterState = f?.state && f.state !== 'steady' ? f.state : undefined;
  const eff = preferGiven(
    ctx,
    o,
    f ? { morale: f.morale, casualties: { lost: f.casualties, original: f.original }, unit_type: f.unit_type, state: rosterState } : {},
  );
  if (eff.morale === undefined) return requiredMessage('morale', options.morale);
  if (eff.rally) {
    // Rallies are for infantry that is retreating or routing (lightning-war.md, Rallying).
    if (eff.unit_type !== 'infantry') return `Only infantry rallies: a ${eff.unit_type.replace('_', ' ')} cannot (Lightning War, Rallying).`;
    if (f && !eff.state) return `${tracked!.unit.name} is steady on the roster: only a retreating or routing unit rallies.`;
  } else if (o.state) {
    return '`state` is for a rally: add rally:true.';
  }
  const fits = eff.reason ? REASON_FITS[eff.reason] : undefined;
  if (fits && !fits.types.includes(eff.unit_type)) {
    return `\`reason\` ${eff.reason} is for ${fits.what}, and the unit is a ${eff.unit_type.replace('_', ' ')}: nothing was rolled or recorded.`;
  }
  return { options: { ...eff, ...(eff.rally ? { state: eff.state ?? 'retreating' } : {}) } as Settled, ...(tracked ? { tracked } : {}) };
}

/** What a check does to a roster unit: gone, retreating, routing, rallied; casualties as reported. */
function writeMorale(ctx: Context, tracked: Tracked | undefined, o: Settled, r: { row: LedgerRow; outcome: MoraleOutcome }) {
  if (!tracked) return;
  const result = r.outcome.result;
  if (result === 'eliminated' || result === 'surrender') {
    writeBack(ctx, tracked, { remove: true, why: result === 'eliminated' ? 'Eliminated' : 'Surrendered' }, r.row.id, 'morale');
    return;
  }
  const f = tracked.unit.fields as LwFields;
  const state: LwState | undefined = result === 'rout' ? 'routing' : result === 'retreat' ? 'retreating' : result === 'rallied' ? 'steady' : undefined;
  const fields: Record<string, unknown> = {};
  if (state && state !== (f.state ?? 'steady')) fields.state = state;
  if (ctx.given.has('casualties') && o.casualties && o.casualties.lost !== f.casualties) fields.casualties = o.casualties.lost;
  if (Object.keys(fields).length) {
    const why = [
      state === 'steady' ? 'Rallied' : state ? `Now ${state}` : '',
      fields.casualties !== undefined ? `casualties ${String(fields.casualties)}/${f.original}` : '',
    ]
      .filter(Boolean)
      .join('; ');
    writeBack(ctx, tracked, { fields, why }, r.row.id, 'morale');
  }
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
  ...(o.rally && o.state ? { state: o.state } : {}),
});

export const check = (o: ParsedOptions<typeof options>) =>
  o.rally && o.reason ? '`rally` and `reason` do not go together: a rally attempt is not a morale check caused by an event.' : undefined;

const storedMorale = (row: LedgerRow) => ({
  embed: moraleEmbed({
    unit: row.unit ?? undefined,
    userName: row.user_name,
    input: toInput(row.input as Settled),
    outcome: row.outcome as MoraleOutcome,
    row,
  }),
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
    const found = rollAndRecord(ctx, { command: 'morale', system: 'lightning-war', kind: 'roll', unit: o.unit, input: o }, (dice) => moraleCheck(input, dice), {
      odds: (out) => oddsOf(moraleDistribution(input), MORALE_ORDER, out.result),
      after: (r) => writeMorale(ctx, tracked, o, r),
    });
    return rollMessage(ctx, o.sealed, found, storedMorale(found.row).embed);
  },
  autocomplete: unitChoicesFor('lightning-war'),
  renderStored: (_ctx, row) => storedMorale(row),
});
