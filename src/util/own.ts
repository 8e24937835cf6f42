/**
 * A table's entry for a key a player typed, read from the table's own keys only: a plain object
 * also answers `constructor`, `toString` or `__proto__` from Object.prototype, which a lookup by
 * typed text must never return (`unit:constructor` crashed /mc, `phase:constructor`
 * /game turn). Every table keyed by typed text is read through this.
 */
export const own = <V>(table: Readonly<Record<string, V>>, key: string): V | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);

/** A JSON object: not null, not a list. */
export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
