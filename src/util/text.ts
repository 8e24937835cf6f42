/** A lone UTF-16 surrogate: half of a pair with no other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The text made well-formed: each lone surrogate becomes U+FFFD. JSON escapes a lone surrogate
 * while SQLite and PostgreSQL store U+FFFD in its place, so a row hashed with one would never
 * verify again: every string from a transport passes through here before it can reach
 * a hash.
 */
export const wellFormed = (s: string): string => (isWellFormed(s) ? s : s.replace(LONE_SURROGATE, '\uFFFD'));

/** String.prototype.isWellFormed (ES2024: Node 20 and the browsers verify.html serves), typed here: no lone surrogate. */
export const isWellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

/** Every string in a JSON-like value made well-formed (objects and arrays copied, the rest kept). */
export function wellFormedDeep<T>(value: T): T {
  if (typeof value === 'string') return wellFormed(value) as T;
  if (Array.isArray(value)) return value.map(wellFormedDeep) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [wellFormed(k), wellFormedDeep(v)])) as T;
  }
  return value;
}

/**
 * A word a player typed, quoted for a sentence the rules write (they know no Discord, so not its
 * markdown library): every markdown character escaped with a backslash, which Discord hides.
 */
export const quotedWord = (word: string): string => `"${word.replace(/[\\`*_~|[\]()<>#]/g, '\\$&')}"`;

/** "a" or "an" before a word, as it is said: an ASL unit, an elite unit, a Hearts of Tin unit. */
export const withArticle = (word: string): string => `${articleOf(word)}${word}`;

/** English's indefinite article for a word, with its space ("a ", "an "): a parameter English sentences take and others ignore. */
export const articleOf = (word: string): string => (soundsVowel(word) ? 'an ' : 'a ');

/** A word starting with a vowel sound; an acronym is said letter by letter (an ASL, an MR, a WaR). */
const soundsVowel = (word: string) => (/^[A-Z]{2}/.test(word) ? /^[AEFHILMNORSX]/.test(word) : /^[aeiou]/i.test(word));

/** The first letter in capitals, for a sentence that starts with a computed word. */
export const capitalized = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
