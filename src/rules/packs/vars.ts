import { namesOf } from './expr.js';
import { bracesIn } from './dice.js';
import { optionsRead } from './modifiers.js';
import type { OptionValue, PackFile, PackOption, PackTest, UnitField } from './schema.js';
import { namesInWhen } from './when.js';

/**
 * The names a pack's expressions and conditions may read: its options, and each unit field no
 * option shares a name with (read from the named unit, else its default). Each has the values it
 * can take, which the validator walks.
 */

export type Variable = { name: string; domain: OptionValue[]; option?: PackOption; field?: UnitField };

/** Every value an option or unit field can take. */
export function domainOf(o: PackOption | UnitField): OptionValue[] {
  if (o.type === 'boolean') return [false, true];
  if (o.type === 'choice') return o.choices.map((c) => (typeof c === 'string' ? c : c.value));
  return Array.from({ length: Math.max(0, o.max - o.min + 1) }, (_, i) => o.min + i);
}

/** The pack's variables: options first, then the unit fields that are no option's name. */
export function variablesOf(pack: PackFile): Variable[] {
  const options = pack.options.map((o) => ({ name: o.name, domain: domainOf(o), option: o }));
  const fields = (pack.unit_fields ?? [])
    .filter((f) => !pack.options.some((o) => o.name === f.name))
    .map((f) => ({ name: f.name, domain: domainOf(f), field: f }));
  return [...options, ...fields];
}

/** Names a test itself reads: its dice's braces, its target, its bands' bounds, its results' grades and unit changes. */
export function namesInTest(pack: PackFile, test: PackTest): string[] {
  const choiceField = (f: string) => pack.unit_fields?.find((x) => x.name === f)?.type === 'choice';
  const results = [...Object.values(test.results ?? {}), ...(test.bands ?? [])];
  return [
    ...new Set([
      ...bracesIn(test.dice).flatMap((b) => namesOf(b)),
      ...namesOf(test.target),
      ...(test.bands ?? []).flatMap((b) => [...namesOf(b.from), ...namesOf(b.to)]),
      ...results.flatMap((r) => [
        ...Object.values(r.unit?.add ?? {}).flatMap((v) => namesOf(v)),
        ...Object.entries(r.unit?.set ?? {}).flatMap(([f, v]) => (choiceField(f) ? [] : namesOf(v))),
        ...('grades' in r ? (r.grades ?? []).flatMap((g) => [...namesOf(g.from), ...namesOf(g.to)]) : []),
      ]),
      ...namesInWhen(test.when),
    ]),
  ];
}

const namesRead = new WeakMap<PackFile, ReadonlySet<string>>();

/** Every name the pack reads anywhere (what a roll's input must carry); worked out once per pack, which never changes once loaded. */
export function namesReadBy(pack: PackFile): ReadonlySet<string> {
  let names = namesRead.get(pack);
  if (!names) {
    names = new Set([...pack.modifiers.flatMap(optionsRead), ...Object.values(pack.tests).flatMap((t) => namesInTest(pack, t))]);
    namesRead.set(pack, names);
  }
  return names;
}
