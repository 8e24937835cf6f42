import type { Context } from '../src/core/command.js';
import { boolean, choice, text, type ParsedOptions } from '../src/core/options.js';
import { catalog, CLASSES } from '../src/rules/asl/catalog.js';
import { HOB_STATUS_CODES, SUB_TYPES, subTypeConflict, type HobInput } from '../src/rules/asl/hob.js';
import { parseUnit, suggestUnits, type AslUnit } from '../src/rules/asl/parse-unit.js';

/** Options /hob and /mc share: the unit and what Heat of Battle needs to know about it. */

const NATIONALITY_KEYS = [...catalog().nationalities.keys()] as [string, ...string[]];

export const unitOptions = {
  unit: text({ description: 'The ASL unit, e.g. German 4-6-7, ge 467, British 8-1', maxLength: 60, autocomplete: true, required: true }),
  nationality: choice({ description: 'Nationality, when the unit text names none', choices: NATIONALITY_KEYS }),
  class: choice({ description: 'Class, for a unit not in the data', choices: CLASSES }),
};

export const hobOptions = {
  with_leader: boolean({ description: 'Stacked with an unbroken leader (a Green MMC is then not inexperienced)', default: false }),
  enemy_in_los: boolean({ description: 'A Known enemy unit is in its LOS (default true)', default: true }),
  enemy_adjacent: boolean({ description: 'A Known, Good Order, armed enemy Infantry/Cavalry unit is ADJACENT', default: false }),
  fanatic: boolean({ description: 'The unit is Fanatic', default: false }),
  sub_type: choice({ description: 'SS, NKVD, Gurkha, Commissar or Volksgrenadier (default none)', choices: SUB_TYPES, default: 'none' }),
  vs_russians: boolean({ description: 'SS fighting Russians (never surrender)', default: false }),
  no_quarter: boolean({ description: 'No Quarter is in effect (never surrender)', default: false }),
  status: choice({ description: 'A status that exempts it from Heat of Battle (default none)', choices: HOB_STATUS_CODES, default: 'none' }),
  companions: text({ description: 'Units with a leader who may go berserk: "German 4-6-7, broken German 4-4-7"', maxLength: 200 }),
};

type UnitOpts = ParsedOptions<typeof unitOptions>;
type HobOpts = ParsedOptions<typeof hobOptions>;

export const MAX_COMPANIONS = 3;

/** The unit the options describe, or the error sentence naming `unit`. */
export function readUnit(o: UnitOpts & { sub_type: string }): AslUnit | string {
  const unit = parseUnit(o.unit, { nationality: o.nationality, class: o.class });
  if (typeof unit === 'string') return `\`unit\` ${JSON.stringify(o.unit)}: ${unit}.`;
  const conflict = subTypeConflict(unit, o.sub_type as HobInput['subType']);
  return conflict ? `${conflict}.` : unit;
}

/** "German 4-6-7, broken German 4-4-7" → the companions, or the error naming `companions`. */
export function readCompanions(textValue: string | undefined, nationality: string): { unit: AslUnit; broken: boolean }[] | string {
  if (!textValue) return [];
  const parts = textValue.split(/[,;]/).map((p) => p.trim()).filter(Boolean);
  if (parts.length > MAX_COMPANIONS) return `\`companions\`: at most ${MAX_COMPANIONS} units (you gave ${parts.length}).`;
  const out: { unit: AslUnit; broken: boolean }[] = [];
  for (const p of parts) {
    const broken = /^broken\s+/i.test(p);
    const unit = parseUnit(p.replace(/^broken\s+/i, ''), { nationality });
    if (typeof unit === 'string') return `\`companions\` ${JSON.stringify(p)}: ${unit}.`;
    out.push({ unit, broken });
  }
  return out;
}

export function hobSituation(o: HobOpts): Omit<HobInput, 'unit' | 'broken'> {
  return {
    withLeader: o.with_leader,
    enemyInLos: o.enemy_in_los,
    enemyAdjacent: o.enemy_adjacent,
    fanatic: o.fanatic,
    subType: o.sub_type,
    vsRussians: o.vs_russians,
    noQuarter: o.no_quarter,
    status: o.status,
  };
}

export function unitChoices(_ctx: Context, option: string, value: string) {
  if (option !== 'unit') return [];
  return suggestUnits(value).map((u) => ({ name: u, value: u }));
}
