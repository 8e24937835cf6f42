import type { PackFile } from './schema.js';

/**
 * A pack as its chain row holds it. Canonical JSON (RFC 8785) sorts object keys, but a pack's
 * `tests` and each test's `results` are read in the order written (the first test is the one
 * rolled; "this or better" follows the order): the stored form writes those two as lists of named
 * entries, so their order survives canonicalisation and is covered by the hash.
 */
export type StoredPack = Omit<PackFile, 'tests'> & {
  tests: (Omit<PackFile['tests'][string], 'results'> & {
    name: string;
    results?: ({ id: string } & NonNullable<PackFile['tests'][string]['results']>[string])[];
  })[];
};

export function storedPack(pack: PackFile): StoredPack {
  return {
    ...pack,
    tests: Object.entries(pack.tests).map(([name, { results, ...test }]) => ({
      name,
      ...test,
      ...(results ? { results: Object.entries(results).map(([id, r]) => ({ id, ...r })) } : {}),
    })),
  };
}

/** The pack file a stored pack was made from, its tests and results in their written order. */
export function packFileOf(stored: StoredPack): unknown {
  return {
    ...stored,
    tests: Object.fromEntries(
      stored.tests.map(({ name, results, ...test }) => [
        name,
        { ...test, ...(results ? { results: Object.fromEntries(results.map(({ id, ...r }) => [id, r])) } : {}) },
      ]),
    ),
  };
}
