import { nameIn, type Language } from '../i18n/i18n.js';
import { isSaid, type Said, type Value } from '../i18n/said.js';

/**
 * Names typed inside a text option (`/chancen wurf:"sammeln unordnung:2"`, a unit's `felder:`): a
 * reader types what their client shows, so a command's or option's name in the reader's language
 * is read as the English one it stands for, beside the English itself.
 */

/** The English name among `names` that `typed` stands for in the language, else undefined. */
export function englishName(lang: Language, names: Iterable<string>, typed: string): string | undefined {
  for (const n of names) if (n === typed) return n;
  for (const n of names) if (nameIn(lang, n) === typed) return n;
  return undefined;
}

/** Values keyed by what was typed, re-keyed by English names; `typed` keeps, by English name, what the reader wrote. */
export function readBack(
  lang: Language,
  names: Iterable<string>,
  values: Readonly<Record<string, string>>,
): { values: Record<string, string>; typed: Record<string, string> } {
  const known = [...names];
  const out: Record<string, string> = {};
  const typed: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) {
    const english = englishName(lang, known, k) ?? k;
    out[english] = v;
    typed[english] = k;
  }
  return { values: out, typed };
}

/** A refusal naming each option as the reader typed it, not as their client would name it. */
export function asTyped(s: Said, typed: Readonly<Record<string, string>>): Said {
  if (!s.values) return s;
  return { ...s, values: Object.fromEntries(Object.entries(s.values).map(([k, v]) => [k, typedValue(v, typed)])) };
}

function typedValue(v: Value, typed: Readonly<Record<string, string>>): Value {
  if (typeof v !== 'object') return v;
  if (isSaid(v)) return asTyped(v, typed);
  if ('option' in v) return Object.hasOwn(typed, v.option) ? typed[v.option]! : v;
  if ('list' in v) return { ...v, list: v.list.map((x) => typedValue(x, typed)) };
  return v;
}
