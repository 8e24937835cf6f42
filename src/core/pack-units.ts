import { integer } from './options.js';
import type { UnitFields, UnitSpec } from './system.js';
import { refuse } from './user-error.js';
import { userText } from '../render/embed.js';
import type { Pack } from '../rules/packs/load.js';

/** A rule pack's fields are whole numbers under the names its file gives (checked at install), shown in its order. */
const packSummary = (order: readonly string[]) => (f: UnitFields) =>
  [...order.filter((k) => k in f), ...Object.keys(f).filter((k) => !order.includes(k))]
    .map((k) => `${k.replaceAll('_', ' ')} ${userText(String(f[k]))}`)
    .join(' · ');

/** A rule pack's units, on the same rails as a built-in system's: its declared fields, each a whole number within its bounds. */
export function packUnitSpec(pack: Pack): UnitSpec {
  const declared = pack.unit_fields ?? [];
  return {
    label: `/${pack.pack}`,
    fields: Object.fromEntries(
      declared.map((f) => [f.name, integer({ description: `${f.name}: ${f.min} to ${f.max}`.slice(0, 100), min: f.min, max: f.max })]),
    ),
    required: declared.filter((f) => f.default === undefined).map((f) => f.name),
    defaults: () => Object.fromEntries(declared.flatMap((f) => (f.default === undefined ? [] : [[f.name, f.default]]))),
    check: (f) => f,
    summary: packSummary(declared.map((f) => f.name)),
  };
}

/** The units of a game whose pack is no longer installed: shown as they are, and taking no new fields. */
export const orphanPackUnits = (packId: string): UnitSpec => ({
  label: `/${packId}`,
  fields: {},
  required: [],
  defaults: () => ({}),
  check: () => refuse('packGone', { pack: packId }),
  summary: packSummary([]),
});
