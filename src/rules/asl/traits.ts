import type { AslUnit } from './parse-unit.js';
import { option, said, type Said } from '../../i18n/said.js';

/** What sets a unit apart from the ordinary ones in Chapter A, in one place for /hob and /mc. */

export const SUB_TYPES = ['none', 'ss', 'nkvd', 'gurkha', 'commissar', 'volksgrenadier'] as const;
export type SubType = (typeof SUB_TYPES)[number];

/** What the situation adds to the unit's own sub-types. */
export type Situation = { fanatic: boolean; subType: SubType; vsRussians: boolean };

export const tagsOf = (unit: AslUnit, subType: SubType) => new Set([...unit.tags, ...(subType === 'none' ? [] : [subType])]);
export const isLeader = (u: AslUnit) => u.kind === 'leader';
export const isSmc = (u: AslUnit) => u.kind === 'leader' || u.kind === 'hero';
export const isMmc = (u: AslUnit) => u.kind === 'squad' || u.kind === 'half_squad' || u.kind === 'crew';
/** Only an SMC is wounded (A17): the refusal of `wounded` on any other unit, or undefined. */
export const woundedConflict = (u: AslUnit, wounded: boolean): Said | undefined =>
  wounded && !isSmc(u) ? said('woundedIsSmc', { wounded: option('wounded') }) : undefined;
export const isCommissar = (u: AslUnit, subType: SubType) => tagsOf(u, subType).has('commissar');

/** Which units ELR failure never Disrupts this is (its code, worded as `asl.neverDisrupted`), or undefined (A19.12). */
export function neverDisrupted(unit: AslUnit, s: Situation): string | undefined {
  const tags = tagsOf(unit, s.subType);
  if (unit.nationality === 'partisan' || unit.nationality === 'japanese') return unit.nationality;
  for (const tag of ['commissar', 'gurkha', 'usmc'] as const) if (tags.has(tag)) return tag;
  if (tags.has('ss') && s.vsRussians) return 'ss';
  if (s.fanatic) return 'fanatic';
  if (unit.kind === 'prc') return 'prc';
  return undefined;
}

/** Why this unit is never Replaced for ELR failure (its code, worded as `asl.elrImmune`), or undefined (A19.11). */
export function elrImmune(unit: AslUnit, subType: SubType, heroic: boolean): string | undefined {
  if (unit.kind === 'crew') return 'crew';
  if (tagsOf(unit, subType).has('commissar')) return 'commissar';
  if (unit.kind === 'hero' || heroic) return 'hero';
  if (unit.kind === 'unarmed') return 'unarmed';
  if (unit.nationality === 'japanese' && isSmc(unit)) return 'japanese_smc';
  return undefined;
}

/** "an Elite unit", "a 1st Line unit": the article a class name takes. */
export { withArticle as article } from '../../util/text.js';
