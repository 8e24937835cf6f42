import type { Roller } from '../../dice/roller.js';
import { said, type Said } from '../../i18n/said.js';
import { sayIn } from '../../i18n/speak.js';

/**
 * The dice grammar of `/roll dice`, case-insensitive; whitespace may separate tokens but never
 * joins two numbers ("3d6 3" is refused at the 3, never read as 3d63):
 *
 *   expression := ["-"] term (("+" | "-") term)*     a leading "-" before a constant or NdS only
 *   term       := constant | [count] "d" (sides | "%") [modifier]
 *   modifier   := ("kh" | "k" | "kl" | "dl" | "d" | "dh") K
 *
 * Written here rather than taken from a dice-notation library: the well-kept ones draw their dice
 * through one global random engine, so a game's seeded stream could not hand them each die (and
 * the offline verifier could not recompute them); their grammars are also far wider than ours.
 */

export const LIMITS = { terms: 20, dice: 200, constant: 1000, count: 100, minSides: 2, maxSides: 1000 } as const;
export const EXAMPLE = '4d6kh3+2';

/** Keep the K highest (kh), the K lowest (kl), drop the K lowest (dl) or the K highest (dh). */
export type Keep = { mode: 'kh' | 'kl' | 'dl' | 'dh'; k: number };
export type DiceTerm = { kind: 'dice'; sign: 1 | -1; count: number; sides: number; keep?: Keep };
export type ConstTerm = { kind: 'const'; sign: 1 | -1; value: number };
export type Term = DiceTerm | ConstTerm;
export type Expression = { terms: Term[]; dice: number };

/**
 * A refusal: the 1-based position of the first character not understood, and what was wanted
 * there, as an identifier (`said`, for a player in their language) and in English (the message, for
 * a rule pack's author beside the file).
 */
export class ExpressionError extends Error {
  readonly said: Said;
  constructor(
    readonly position: number,
    readonly found: string,
    readonly wanted: Said,
  ) {
    const values = { position: String(position), found: found ? ` (${JSON.stringify(found)})` : '', wanted };
    super(sayIn('en', said('expr.at', values)));
    this.said = said('expr.at', values);
  }
}

/** The text as characters with their 1-based places, whitespace left out. */
type Cursor = { chars: { c: string; at: number }[]; i: number; end: number };

const peek = (s: Cursor) => s.chars[s.i]?.c ?? '';
const here = (s: Cursor) => s.chars[s.i]?.at ?? s.end;
const fail = (s: Cursor, wanted: Said): never => {
  throw new ExpressionError(here(s), peek(s), wanted);
};

/** Digits at the cursor as a number (undefined when there are none); more than 7 digits is refused. A space ends it. */
function number(s: Cursor): { value: number; at: number } | undefined {
  const at = here(s);
  let digits = '';
  while (/[0-9]/.test(peek(s)) && (!digits || here(s) === at + digits.length)) {
    digits += peek(s);
    s.i++;
  }
  if (!digits) return undefined;
  if (digits.length > 7) throw new ExpressionError(at, digits, said('expr.tooLarge'));
  return { value: Number(digits), at };
}

function inRange(n: { value: number; at: number }, min: number, max: number, what: 'kept' | 'dropped' | 'constant' | 'count' | 'sides'): number {
  if (n.value < min || n.value > max) throw new ExpressionError(n.at, String(n.value), said('expr.range', { what, min: String(min), max: String(max) }));
  return n.value;
}

function modifier(s: Cursor, count: number): Keep | undefined {
  const c = peek(s);
  if (c !== 'k' && c !== 'd') return undefined;
  s.i++;
  const next = peek(s);
  const mode: Keep['mode'] = c === 'k' ? (next === 'l' ? 'kl' : 'kh') : next === 'h' ? 'dh' : 'dl';
  if (next === 'h' || next === 'l') s.i++;
  const n = number(s) ?? fail(s, said('expr.keepCount', { mode: mode[0] === 'k' ? 'keep' : 'drop', example: EXAMPLE }));
  if (mode[0] === 'd' && count === 1) throw new ExpressionError(n.at, String(n.value), said('expr.singleDrop'));
  const k = mode[0] === 'k' ? inRange(n, 1, count, 'kept') : inRange(n, 1, count - 1, 'dropped');
  return { mode, k };
}

function term(s: Cursor, sign: 1 | -1): Term {
  const lead = number(s);
  if (peek(s) !== 'd') {
    if (!lead) return fail(s, said('expr.term'));
    return { kind: 'const', sign, value: inRange(lead, 0, LIMITS.constant, 'constant') };
  }
  const count = lead ? inRange(lead, 1, LIMITS.count, 'count') : 1;
  s.i++;
  let sides: number;
  if (peek(s) === '%') {
    s.i++;
    sides = 100;
  } else {
    const n = number(s) ?? fail(s, said('expr.sides'));
    sides = inRange(n, LIMITS.minSides, LIMITS.maxSides, 'sides');
  }
  const keep = modifier(s, count);
  if (keep && (peek(s) === 'k' || peek(s) === 'd')) fail(s, said('expr.oneKeep'));
  return keep ? { kind: 'dice', sign, count, sides, keep } : { kind: 'dice', sign, count, sides };
}

/**
 * Parses an expression, or throws ExpressionError naming where and why it stopped. `w`: W is a die
 * too, as German players write dice (2W6 for 2d6); no other letter of the notation is a W.
 */
export function parseExpression(text: string, w = false): Expression {
  const chars = [...text]
    .map((c, i) => ({ c: c.toLowerCase(), at: i + 1 }))
    .filter((x) => !/\s/.test(x.c))
    .map((x) => (w && x.c === 'w' ? { ...x, c: 'd' } : x));
  const s: Cursor = { chars, i: 0, end: [...text].length + 1 };
  if (!chars.length) fail(s, said('expr.empty', { example: EXAMPLE }));
  const terms: Term[] = [];
  let dice = 0;
  let sign: 1 | -1 = 1;
  // "-d20" and "+d20" are another bot's shorthand for disadvantage and advantage: refused, saying how here.
  if ((peek(s) === '-' || peek(s) === '+') && s.chars[s.i + 1]?.c === 'd') {
    fail(s, said('expr.signedDie', { which: peek(s) === '-' ? 'dis' : 'adv' }));
  }
  if (peek(s) === '-') {
    sign = -1;
    s.i++;
  }
  for (;;) {
    if (terms.length === LIMITS.terms) fail(s, said('expr.terms', { n: String(LIMITS.terms) }));
    const start = s.i;
    const t = term(s, sign);
    if (t.kind === 'dice' && dice + t.count > LIMITS.dice) {
      s.i = start;
      fail(s, said('expr.dice', { n: String(LIMITS.dice) }));
    }
    if (t.kind === 'dice') dice += t.count;
    terms.push(t);
    if (s.i >= chars.length) return { terms, dice };
    const op = peek(s);
    // Only a space can put a number right after a term: it never joins them ("6 4d6" is not 64d6).
    if (/[0-9]/.test(op)) fail(s, said('expr.space'));
    if (op !== '+' && op !== '-') fail(s, said('expr.op'));
    sign = op === '-' ? -1 : 1;
    s.i++;
    if (s.i >= chars.length) fail(s, said('expr.afterSign'));
  }
}

const termText = (t: Term) => (t.kind === 'const' ? String(t.value) : `${t.count}d${t.sides}${t.keep ? `${t.keep.mode}${t.keep.k}` : ''}`);

/** The expression written one way (d% as d100, k as kh, d as dl): equal shapes have equal odds. */
export function shapeOf(e: Expression): string {
  return e.terms.map((t, i) => `${t.sign < 0 ? '-' : i ? '+' : ''}${termText(t)}`).join('');
}

/** The size of every die the expression draws, in the order they are drawn. */
export const sidesOf = (e: Expression): number[] => e.terms.flatMap((t) => (t.kind === 'dice' ? new Array<number>(t.count).fill(t.sides) : []));

/** One term as rolled: its dice in the order drawn, which of them count, and its signed subtotal. */
export type RolledTerm = { text: string; sign: 1 | -1; dice: number[]; kept: boolean[]; subtotal: number };
export type RolledExpression = { shape: string; terms: RolledTerm[]; total: number };

/** Which dice a keep or drop leaves counting: the K highest or lowest, the earlier die first on a tie. */
export function keptDice(dice: number[], keep: Keep | undefined): boolean[] {
  if (!keep) return dice.map(() => true);
  const high = keep.mode === 'kh' || keep.mode === 'dl';
  const n = keep.mode[0] === 'k' ? keep.k : dice.length - keep.k;
  const order = dice.map((v, i) => ({ v, i })).sort((a, b) => (high ? b.v - a.v : a.v - b.v) || a.i - b.i);
  const kept = dice.map(() => false);
  for (const { i } of order.slice(0, n)) kept[i] = true;
  return kept;
}

/** Rolls every die of the expression from the roller, term by term. */
export function rollExpression(e: Expression, roller: Roller): RolledExpression {
  const terms = e.terms.map((t): RolledTerm => {
    if (t.kind === 'const') return { text: termText(t), sign: t.sign, dice: [], kept: [], subtotal: t.sign * t.value };
    const dice = Array.from({ length: t.count }, () => roller.roll(t.sides));
    const kept = keptDice(dice, t.keep);
    const subtotal = t.sign * dice.reduce((a, d, i) => a + (kept[i] ? d : 0), 0);
    return { text: termText(t), sign: t.sign, dice, kept, subtotal };
  });
  return { shape: shapeOf(e), terms, total: terms.reduce((a, t) => a + t.subtotal, 0) };
}
