import type { PackInput } from './modifiers.js';
import type { PackFile, PackTest } from './schema.js';
import { scopeOf, valuesOf } from './scope.js';
import { whenHolds } from './when.js';

/** The first tests a command chooses between: those written before (and with) the first one that has no `when`. */
export function rootTests(pack: PackFile): string[] {
  const names = Object.keys(pack.tests);
  const plain = names.findIndex((n) => pack.tests[n]!.when === undefined);
  return plain < 0 ? names : names.slice(0, plain + 1);
}

/** The first test whose `when` holds for these inputs; undefined when none does (the validator refuses such a pack). */
export function firstTest(pack: PackFile, input: PackInput): string | undefined {
  const scope = scopeOf(input);
  return rootTests(pack).find((n) => whenOf(pack.tests[n]!, input, scope));
}

const whenOf = (test: PackTest, input: PackInput, scope: ReturnType<typeof scopeOf>) => whenHolds(test.when, valuesOf(input), () => scope);
