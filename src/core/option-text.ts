import { said, type Said } from '../i18n/said.js';

/**
 * Options written as text, the way Discord's command box reads them: the console's lines, a unit's
 * `fields:` and `/odds roll:`. One reader, so the three agree.
 */

/**
 * Splits on white space; double or single quotes keep spaces inside a value (`unit:"1st Foot"`),
 * and a backslash escapes the next character inside double quotes.
 */
export function tokenize(line: string): { tokens: string[] } | { error: Said } {
  const out: string[] = [];
  let cur = '';
  let inToken = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) cur += line[++i];
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inToken = true;
    } else if (/\s/.test(c)) {
      if (inToken) out.push(cur);
      cur = '';
      inToken = false;
    } else {
      cur += c;
      inToken = true;
    }
  }
  if (quote) return { error: said('quoteNotClosed', { quote }) };
  if (inToken) out.push(cur);
  return { tokens: out };
}

/**
 * `name:` at the start of a token starts an option (Discord's option names are lower case, in any
 * script: `qualität:`, `désordre:` as a German or French client shows them).
 */
const OPTION_START = /^(\p{Ll}[\p{Ll}\p{N}_-]{0,31}):/u;

/**
 * `name:value` pairs: a value runs up to the next `name:`, so `unit:German 4-6-7 elr:3` is unit
 * "German 4-6-7" (quotes still work). `stray`: a first word that names nothing.
 */
export function readNamedValues(tokens: string[]): { values: Record<string, string> } | { error: Said; stray?: string } {
  const values: Record<string, string> = {};
  let last: string | undefined;
  for (const t of tokens) {
    const key = OPTION_START.exec(t)?.[1];
    if (key === undefined) {
      if (last === undefined) return { error: said('expectedNameValue', { given: JSON.stringify(t) }), stray: t };
      values[last] = values[last] === '' ? t : `${values[last]} ${t}`;
      continue;
    }
    // Own keys only: `constructor:4` is a field a rule pack may have, not one every object inherits.
    if (Object.hasOwn(values, key)) return { error: said('givenTwice', { name: key }) };
    values[key] = t.slice(key.length + 1);
    last = key;
  }
  return { values };
}

/** A whole `name:value …` text read at once. */
export function readOptionText(text: string): { values: Record<string, string> } | { error: Said; stray?: string } {
  const t = tokenize(text);
  return 'error' in t ? t : readNamedValues(t.tokens);
}
