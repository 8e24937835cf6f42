import canonicalize from 'canonicalize';
import { isWellFormed } from '../util/text.js';

/** What the fast path leaves to the library: a value it does not model. */
const SLOW: unique symbol = Symbol('slow');
/** Keys an object lists before all others (integer-like), so insertion order is not JCS's order. */
const INDEX_KEY = /^(?:0|[1-9][0-9]*)$/;
/** Deeper than a roll's values go; past it (or in a cycle) the library decides. */
const MAX_DEPTH = 64;

/** A member or element JSON leaves out (an object's) or writes as null (an array's). */
const isSkipped = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

/**
 * The value as its canonical text holds it: plain objects rebuilt with their keys in JCS's order
 * (UTF-16 code units), members JSON drops left out, -0 as 0. SLOW for anything whose text needs
 * more than JSON.stringify of that copy: a key listed out of insertion order or named __proto__, a
 * toJSON, a class's instance, a number JSON cannot hold, a lone surrogate (the library refuses it),
 * a bigint, or depth past MAX_DEPTH. Values are plain data (what rules and parsed options build): a
 * getter read here is read again by the library when the copy gives up, and a polluted
 * Object.prototype would reach the copy, not the library.
 */
function sortedCopy(v: unknown, depth: number): unknown {
  switch (typeof v) {
    case 'string':
      return isWellFormed(v) ? v : SLOW;
    case 'number':
      return Number.isFinite(v) ? v + 0 : SLOW;
    case 'boolean':
      return v;
    case 'object':
      return v === null ? null : depth < MAX_DEPTH ? containerCopy(v, depth) : SLOW;
    default:
      return SLOW;
  }
}

function containerCopy(v: object, depth: number): unknown {
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return SLOW;
  if (Array.isArray(v)) {
    // Filled as read, with the length read at every step, as the library reads it (never sized first).
    const out: unknown[] = [];
    for (let i = 0; i < v.length; i++) {
      const item: unknown = v[i];
      const copy = isSkipped(item) ? null : sortedCopy(item, depth + 1);
      if (copy === SLOW) return SLOW;
      out.push(copy);
    }
    return out;
  }
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return SLOW;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) {
    if (k === '__proto__' || INDEX_KEY.test(k) || !isWellFormed(k)) return SLOW;
    const member: unknown = (v as Record<string, unknown>)[k];
    if (isSkipped(member)) continue;
    const copy = sortedCopy(member, depth + 1);
    if (copy === SLOW) return SLOW;
    out[k] = copy;
  }
  return out;
}

/** The canonical text through the library, which decides every value the fast path leaves. */
function libraryText(value: unknown): string {
  const out = canonicalize(value);
  if (out === undefined) throw new TypeError('value cannot be canonicalized');
  return out;
}

/**
 * A value's canonical text and the value that text parses back to, in one pass: JSON.stringify of a
 * copy with sorted keys writes the same bytes as JCS (strings and numbers as ECMAScript writes them,
 * members in insertion order), and the copy spares parsing the text back: a roll's outcome, text and
 * value, in a third of the time the library and a parse took. Odd values go through the library
 * (canonical-json.test.ts holds the two equal on generated values).
 */
export function canonicalForm(value: unknown): { text: string; value: unknown } {
  const copy = sortedCopy(value, 0);
  if (copy !== SLOW) return { text: JSON.stringify(copy), value: copy };
  const text = libraryText(value);
  return { text, value: JSON.parse(text) };
}

/** RFC 8785 (JSON Canonicalization Scheme): one byte string per value, reimplementable anywhere. */
export function canonicalJson(value: unknown): string {
  const copy = sortedCopy(value, 0);
  return copy === SLOW ? libraryText(value) : JSON.stringify(copy);
}
