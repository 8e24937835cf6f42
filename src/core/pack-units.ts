import { choice, integer } from './options.js';
import type { UnitFields, UnitSpec } from './system.js';
import { refuse } from './user-error.js';
import { userText } from '../render/embed.js';
import type { Pack } from '../rules/packs/load.js';
import type { UnitField } from '../rules/packs/schema.js';

/** A rule pack's fields under the names its file gives (checked at install), shown in its order; a choice by its label. */
const packSummary =
  (order: readonly string[], labels: Readonly<Record<string, Readonly<Record<string, string>>>> = {}) =>
  (f: UnitFields) =>
    [...order.filter((k) => k in f), ...Object.keys(f).filter((k) => !order.includes(k))]
      .map((k) => `${k.replaceAll('_', ' ')} ${userText((Object.hasOwn(labels, k) ? labels[k]![String(f[k])] : undefined) ?? String(f[k]))}`)
      .join(' · ');

/** A field's spec: a whole number within its bounds, or one of its choices (a text field). */
function fieldSpec(f: UnitField) {
  if (f.type === 'integer') return integer({ description: `${f.name}: ${f.min} to ${f.max}`.slice(0, 100), min: f.min, max: f.max });
  const values = f.choices.map((c) => (typeof c === 'string' ? c : c.value)) as [string, ...string[]];
  return choice({ description: `${f.name}: ${values.join(', ')}`.slice(0, 100), choices: values });
}

/** Each choice field's labels by value (a choice written `{ value, label }`). */
const choiceLabels = (fields: readonly UnitField[]) =>
  Object.fromEntries(
    fields.flatMap((f) =>
      f.type === 'choice' ? [[f.name, Object.fromEntries(f.choices.map((c) => (typeof c === 'string' ? [c, c] : [c.value, c.label])))]] : [],
    ),
  );

/** A rule pack's units, on the same rails as a built-in system's: its declared fields, each a whole number within its bounds. */
export function packUnitSpec(pack: Pack): UnitSpec {
  const declared = pack.unit_fields ?? [];
  return {
    label: `/${pack.pack}`,
    fields: Object.fromEntries(declared.map((f) => [f.name, fieldSpec(f)])),
    required: declared.filter((f) => f.default === undefined).map((f) => f.name),
    defaults: () => Object.fromEntries(declared.flatMap((f) => (f.default === undefined ? [] : [[f.name, f.default]]))),
    check: (f) => f,
    summary: packSummary(
      declared.map((f) => f.name),
      choiceLabels(declared),
    ),
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
