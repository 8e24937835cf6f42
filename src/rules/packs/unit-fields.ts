import type { Pack } from './checked.js';

/**
 * A roster unit's fields for a pack game, as a GM or player types them in one option
 * (`nerve:7 pins:0`): every field the pack declares, an integer within its bounds, the default for
 * one left out. Returns the fields, or the sentence naming what is wrong.
 */
export function parseUnitFields(pack: Pack, text: string | undefined): Record<string, number> | string {
  const declared = pack.unit_fields ?? [];
  if (!declared.length) return `/${pack.pack} keeps nothing on a unit: leave fields out`;
  const given = new Map<string, string>();
  for (const part of (text ?? '').trim().split(/\s+/).filter(Boolean)) {
    const m = /^([^:]+):(.*)$/.exec(part);
    if (!m) return `"${part}" is not field:value (write them like ${example(pack)})`;
    if (given.has(m[1]!)) return `${m[1]} is given twice`;
    given.set(m[1]!, m[2]!);
  }
  for (const name of given.keys())
    if (!declared.some((f) => f.name === name))
      return `${name} is not a field of /${pack.pack}'s units (its fields: ${declared.map((f) => f.name).join(', ')})`;
  const out: Record<string, number> = {};
  for (const f of declared) {
    const raw = given.get(f.name);
    const value = raw === undefined ? f.default : /^[+-]?\d+$/.test(raw) ? Number(raw) : Number.NaN;
    if (value === undefined) return `${f.name} is needed (a whole number from ${f.min} to ${f.max}; write them like ${example(pack)})`;
    if (!Number.isInteger(value) || value < f.min || value > f.max) return `${f.name}: "${raw}" is not allowed (a whole number from ${f.min} to ${f.max})`;
    out[f.name] = value;
  }
  return out;
}

const example = (pack: Pack) => (pack.unit_fields ?? []).map((f) => `${f.name}:${f.default ?? f.min}`).join(' ');
