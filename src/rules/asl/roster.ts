import { catalog } from './catalog.js';
import type { HobStep } from './hob.js';
import type { CheckStep } from './mc.js';
import { displayName, parseUnit } from './parse-unit.js';

/** What a tracked ASL unit keeps between rolls. */
export type AslFields = { counter: string; broken: boolean; berserk: boolean; fanatic: boolean; heroic: boolean };

export type RosterChange = { fields?: Partial<AslFields>; remove?: true; why: string };

/** The half-squad a squad is reduced to, if the data knows it. */
function reduced(counter: string): string | undefined {
  const u = parseUnit(counter);
  if (typeof u === 'string' || u.kind !== 'squad') return undefined;
  return u.known?.half ? displayName(catalog(), u.known.half) : undefined;
}

function casualtyReduction(f: AslFields, why: string): RosterChange {
  const u = parseUnit(f.counter);
  if (typeof u !== 'string' && u.kind === 'leader') return { fields: { broken: true }, why: `${why}: the leader is wounded (not tracked here) and broken.` };
  const half = reduced(f.counter);
  return half ? { fields: { counter: half, broken: true }, why: `${why}: reduced to a broken ${half}.` } : { remove: true, why: `${why}: eliminated.` };
}

/**
 * How the steps of one /mc or /hob change a tracked unit, in order; undefined when nothing
 * lasting changed (a pass, a pin, a failed rally).
 */
export function aslRosterChange(before: AslFields, steps: (CheckStep | HobStep | { kind: string })[]): RosterChange | undefined {
  let f: AslFields = { ...before };
  const whys: string[] = [];
  for (const s of steps) {
    let c: RosterChange | undefined;
    if (s.kind === 'mc' || s.kind === 'rally') {
      const step = s as CheckStep;
      switch (step.result) {
        case 'broken':
        case 'disrupted':
          c = { fields: { broken: true }, why: step.result === 'broken' ? 'Broken' : 'Broken and Disrupted' };
          break;
        case 'replaced':
          c = { fields: { counter: step.unit_after ?? f.counter, broken: true }, why: `Replaced for ELR by a broken ${step.unit_after ?? 'unit of the next lower class'}` };
          break;
        case 'casualty_reduction':
        case 'fate':
          c = casualtyReduction(f, 'Casualty Reduction');
          break;
        case 'eliminated':
          c = { remove: true, why: 'Eliminated' };
          break;
        case 'rallied':
          c = { fields: { broken: false }, why: 'Rallied' };
          break;
      }
    } else if (s.kind === 'hob') {
      const h = s as HobStep;
      const leader = (() => {
        const u = parseUnit(f.counter);
        return typeof u !== 'string' && u.kind === 'leader';
      })();
      const hardened: Partial<AslFields> = h.unit_after ? { counter: h.unit_after, broken: false } : h.fanatic ? { fanatic: true } : {};
      switch (h.result) {
        case 'hero':
        case 'hero_and_battle_hardening':
        case 'battle_hardening': {
          const heroic: Partial<AslFields> = h.result !== 'battle_hardening' && leader ? { heroic: true, broken: false } : {};
          const fields = { ...heroic, ...hardened };
          if (Object.keys(fields).length) c = { fields, why: [heroic.heroic ? 'Heroic' : '', h.unit_after ? `Battle hardened into ${h.unit_after}` : h.fanatic ? 'Fanatic' : ''].filter(Boolean).join('; ') };
          break;
        }
        case 'berserk':
          c = { fields: { berserk: true, broken: false }, why: 'Berserk' };
          break;
        case 'disrupted':
          c = { fields: { broken: true }, why: 'Broken and Disrupted' };
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
  const changed = Object.fromEntries(Object.entries(f).filter(([k, v]) => before[k as keyof AslFields] !== v)) as Partial<AslFields>;
  return Object.keys(changed).length ? { fields: changed, why: whys.join('; ') } : undefined;
}
