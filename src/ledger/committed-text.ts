import { stringEnd, valueEnd } from './json-text.js';
import { hmacUnder, isPersonField } from './people.js';

/**
 * The walk's fast check of a committed row (people.ts): its plain canonical text against its
 * chained text, read side by side without parsing either. Both are the same JCS text but where the
 * chained one holds a commitment (`{"by":[…],"erasable":"…"}`) in place of a value of a person
 * field: there the plain value's text, under the salts named, must give that HMAC. Anything else (a
 * value blank or a salt missing, an erasure; text that differs; a commitment outside a person field)
 * is left to checkRow, which decides: `undefined` says so.
 */

/** A commitment's text as the writer writes it: its salt ids' list (group 1) and its HMAC (group 2). */
export const COMMITMENT_TEXT = '\\{"by":\\[((?:"[0-9a-f]+",?)*)\\],"erasable":"([0-9a-f]{64})"\\}';
const COMMITMENT = new RegExp(COMMITMENT_TEXT, 'y');
/** The salt ids of a commitment's list as COMMITMENT_TEXT reads it (`"a","b"`). */
export const idsOfList = (list: string): string[] => (list.length ? list.slice(1, -1).split('","') : []);

/** HMACs already computed for a walk: a player's id and name recur in every row of theirs. */
export type CommitCache = Map<string, string>;

/** Entries a walk's cache holds at most: prose values are mostly a row's own, ids and names recur. */
const CACHE_MAX = 20_000;

/**
 * Whether a value's text, under the salts a commitment's list names (its text, `"a","b"`), gives
 * the commitment's HMAC; undefined when a salt is missing.
 */
export function opens(value: string, list: string, erasable: string, salts: ReadonlyMap<string, string>, cache: CommitCache): boolean | undefined {
  const key = `${list}\u0000${value}`;
  let h = cache.get(key);
  if (h === undefined) {
    const keys = idsOfList(list).map((id) => salts.get(id));
    if (keys.some((salt) => salt === undefined)) return undefined;
    h = hmacUnder(value, keys as string[]);
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(key, h);
  }
  return h === erasable;
}

/**
 * True when the plain text is the chained text with every commitment opened by its value; undefined
 * when this fast reading cannot tell (checkRow then decides, and names what is wrong).
 */
export function holdsAsText(plain: string, chained: string, salts: ReadonlyMap<string, string>, cache: CommitCache): true | undefined {
  let i = 0;
  let j = 0;
  let depth = 0;
  let topKey = '';
  while (j < chained.length) {
    const c = chained[j]!;
    // Every commitment must be opened by the value in its place: one copied into the plain row in place of the value opens nothing.
    if (c === '{' && chained.startsWith('{"by":[', j)) {
      COMMITMENT.lastIndex = j;
      const m = COMMITMENT.exec(chained);
      if (!m || depth < 1 || !isPersonField(topKey)) return undefined;
      const end = valueEnd(plain, i);
      if (end < 0) return undefined;
      const value = plain.slice(i, end);
      if (opens(value, m[1]!, m[2]!, salts, cache) !== true) return undefined;
      i = end;
      j = COMMITMENT.lastIndex;
      continue;
    }
    if (plain[i] !== c) return undefined;
    if (c === '"') {
      const end = stringEnd(chained, j);
      if (end < 0 || plain.slice(i, i + end - j) !== chained.slice(j, end)) return undefined;
      // A key of the row itself (depth 1, followed by a colon): the field the values after it belong to.
      if (depth === 1 && chained[end] === ':') topKey = chained.slice(j + 1, end - 1);
      i += end - j;
      j = end;
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    i++;
    j++;
  }
  return i === plain.length ? true : undefined;
}
