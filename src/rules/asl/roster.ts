import type { HobStep } from './hob.js';
import type { Becomes, CheckStep, WoundStep } from './mc.js';
import { parseUnit } from './parse-unit.js';
import { isSaid } from '../../i18n/said.js';

/** What a tracked ASL unit keeps between rolls. */
export type AslFields = { counter: string; broken: boolean; berserk: boolean; fanatic: boolean; heroic: boolean; wounded: boolean; disrupted: boolean };

export const ASL_FIELD_DEFAULTS: Omit<AslFields, 'counter'> = {
  broken: false,
  berserk: false,
  fanatic: false,
  heroic: false,
  wounded: false,
  disrupted: false,
};

/** `undo`: what refusing the battle hardening puts back (the unit as it was before the HoB DR). */
export type RosterChange = { fields?: Partial<AslFields>; remove?: true; why: string; undo?: Partial<AslFields> };

const isLeaderCounter = (counter: string) => {
  const u = parseUnit(counter);
  return !isSaid(u) && u.kind === 'leader';
};

/** A check's or a wound's result as roster fields, with why. */
function fromBecomes(b: Becomes, label: string, after: string | undefined): { fields?: Partial<AslFields>; remove?: true; why: string } {
  if (b.eliminated) return { remove: true, why: label };
  const fields: Partial<AslFields> = {};
  if (b.counter) fields.counter = b.counter;
  if (b.broken !== undefined) fields.broken = b.broken;
  if (b.disrupted !== undefined) fields.disrupted = b.disrupted;
  if (b.wounded) fields.wounded = true;
  if (b.berserk !== undefined) fields.berserk = b.berserk;
  const two = b.two && after ? ` (a second ${after} joins it: add it with /unit add)` : '';
  return { fields, why: `${label}${two}` };
}

/**
 * How the steps of one /mc or /hob change a tracked unit, in order; undefined when nothing
 * lasting changed (a pass, a pin, a failed rally).
 */
export function aslRosterChange(before: AslFields, steps: (CheckStep | WoundStep | HobStep | { kind: string })[]): RosterChange | undefined {
  let f: AslFields = { ...ASL_FIELD_DEFAULTS, ...before };
  const whys: string[] = [];
  let undo: Partial<AslFields> | undefined;
  for (const s of steps) {
    let c: { fields?: Partial<AslFields>; remove?: true; why: string } | undefined;
    if (s.kind === 'mc' || s.kind === 'rally') {
      const step = s as CheckStep;
      if (step.becomes) c = fromBecomes(step.becomes, step.label, step.unit_after);
    } else if (s.kind === 'wound') {
      const w = s as WoundStep;
      c = fromBecomes(w.becomes, w.result === 'killed' ? 'Killed (Wound Severity)' : 'Wounded', undefined);
    } else if (s.kind === 'hob') {
      const h = s as HobStep;
      const leader = isLeaderCounter(f.counter);
      const hardened: Partial<AslFields> = h.unit_after ? { counter: h.unit_after, broken: false } : h.fanatic ? { fanatic: true } : {};
      if (Object.keys(hardened).length) undo = { counter: f.counter, broken: f.broken, fanatic: f.fanatic };
      switch (h.result) {
        case 'hero':
        case 'hero_and_battle_hardening':
        case 'battle_hardening': {
          const heroic: Partial<AslFields> = h.result !== 'battle_hardening' && leader ? { heroic: true, broken: false } : {};
          const fields = { ...heroic, ...hardened };
          if (Object.keys(fields).length)
            c = {
              fields,
              why: [heroic.heroic ? 'Heroic' : '', h.unit_after ? `Battle hardened into ${h.unit_after}` : h.fanatic ? 'Fanatic' : '']
                .filter(Boolean)
                .join('; '),
            };
          break;
        }
        case 'berserk':
          c = { fields: { berserk: true, broken: false }, why: 'Berserk' };
          break;
        case 'disrupted':
          c = { fields: { broken: true, disrupted: true }, why: 'Broken and Disrupted' };
          break;
        case 'surrender':
          c = { remove: true, why: 'Surrendered' };
          break;
      }
    }
    if (!c) continue;
    if (c.remove) return { remove: true, why: [...whys, c.why].join('; ') };
    f = { ...f, ...c.fields };
    whys.push(c.why);
  }
  const changed = Object.fromEntries(
    Object.entries(f).filter(
      ([k, v]) => (before as Record<string, unknown>)[k] !== v && !(v === false && (before as Record<string, unknown>)[k] === undefined),
    ),
  ) as Partial<AslFields>;
  if (!Object.keys(changed).length) return undefined;
  return { fields: changed, why: whys.join('; '), ...(undo ? { undo } : {}) };
}
