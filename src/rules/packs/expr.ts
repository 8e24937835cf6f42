/**
 * A pack's derived quantities: a whole number written as a small expression over options, unit
 * fields, `total`, `target`, `margin` and a follow-up's `parent.total` / `parent.margin`.
 *
 *   expr    := term (("+" | "-") term)*
 *   term    := factor ("*" factor)*
 *   factor  := ["-"] (integer | name | "(" expr ")" | call)
 *   call    := ("min" | "max") "(" expr ("," expr)+ ")" | "floor" "(" expr "/" expr ")"
 *
 * Parsed here by hand, never by eval: a pack is another person's file, and only these forms exist.
 */

export const MAX_EXPRESSION = 120;

export type Expr =
  | { k: 'num'; v: number }
  | { k: 'name'; name: string }
  | { k: 'neg'; e: Expr }
  | { k: 'bin'; op: '+' | '-' | '*'; a: Expr; b: Expr }
  | { k: 'call'; fn: 'min' | 'max'; args: Expr[] }
  | { k: 'floor'; a: Expr; b: Expr };

export class ExprError extends Error {}

type Token = { t: string; at: number };

function tokens(text: string): Token[] {
  const out: Token[] = [];
  const re = /(\d+)|([a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)?)|([-+*/(),])/y;
  for (let at = 0; at < text.length; ) {
    if (/\s/.test(text[at]!)) {
      at++;
      continue;
    }
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) throw new ExprError(`character ${at + 1} ("${text[at]}") is not part of an expression`);
    out.push({ t: m[0], at: at + 1 });
    at = re.lastIndex;
  }
  return out;
}

class Parser {
  private i = 0;
  constructor(
    private readonly ts: Token[],
    private readonly end: number,
  ) {}
  private peek = () => this.ts[this.i]?.t;
  private fail(wanted: string): never {
    const tok = this.ts[this.i];
    throw new ExprError(tok ? `character ${tok.at} ("${tok.t}"): ${wanted}` : `at the end (character ${this.end}): ${wanted}`);
  }
  private eat(t: string) {
    if (this.peek() !== t) this.fail(`expected "${t}"`);
    this.i++;
  }
  whole(): Expr {
    const e = this.expr();
    if (this.i < this.ts.length) this.fail('expected + - * or the end');
    return e;
  }
  private expr(): Expr {
    let a = this.term();
    for (let op = this.peek(); op === '+' || op === '-'; op = this.peek()) {
      this.i++;
      a = { k: 'bin', op, a, b: this.term() };
    }
    return a;
  }
  private term(): Expr {
    let a = this.factor();
    while (this.peek() === '*') {
      this.i++;
      a = { k: 'bin', op: '*', a, b: this.factor() };
    }
    return a;
  }
  private factor(): Expr {
    const t = this.peek();
    if (t === undefined) return this.fail('expected a number, a name or "("');
    this.i++;
    if (t === '-') return { k: 'neg', e: this.factor() };
    if (t === '(') {
      const e = this.expr();
      this.eat(')');
      return e;
    }
    if (/^\d/.test(t)) {
      if (t.length > 6) {
        this.i--;
        this.fail('a number of at most 6 digits');
      }
      return { k: 'num', v: Number(t) };
    }
    if (!/^[a-z_]/.test(t)) {
      this.i--;
      return this.fail('expected a number, a name or "("');
    }
    if ((t === 'min' || t === 'max' || t === 'floor') && this.peek() === '(') return this.call(t);
    return { k: 'name', name: t };
  }
  private call(fn: 'min' | 'max' | 'floor'): Expr {
    this.eat('(');
    const a = this.expr();
    if (fn === 'floor') {
      if (this.peek() !== '/') this.fail('floor takes a division: floor(a / b)');
      this.i++;
      const b = this.expr();
      this.eat(')');
      return { k: 'floor', a, b };
    }
    const args = [a];
    while (this.peek() === ',') {
      this.i++;
      args.push(this.expr());
    }
    if (args.length < 2) this.fail(`${fn} takes two or more values, separated by commas`);
    this.eat(')');
    return { k: 'call', fn, args };
  }
}

const cache = new Map<string, Expr>();

/** A whole number as written in a pack: a number is itself; a text is parsed (once) as an expression. Throws ExprError. */
export function parseExpr(text: string | number): Expr {
  if (typeof text === 'number') return { k: 'num', v: text };
  const hit = cache.get(text);
  if (hit) return hit;
  if (text.length > MAX_EXPRESSION) throw new ExprError(`at most ${MAX_EXPRESSION} characters (you gave ${text.length})`);
  if (text.includes('/') && !text.includes('floor')) throw new ExprError('a division is written floor(a / b): whole numbers only');
  const e = new Parser(tokens(text), text.length + 1).whole();
  if (cache.size > 4096) cache.clear();
  cache.set(text, e);
  return e;
}

/** Every name an expression reads (`pins`, `total`, `parent.margin`). */
export function namesIn(e: Expr, into: Set<string> = new Set()): Set<string> {
  switch (e.k) {
    case 'name':
      into.add(e.name);
      break;
    case 'neg':
      namesIn(e.e, into);
      break;
    case 'bin':
    case 'floor':
      namesIn(e.a, into);
      namesIn(e.b, into);
      break;
    case 'call':
      for (const a of e.args) namesIn(a, into);
      break;
  }
  return into;
}

/** What a name is worth; undefined when it has no value here (the evaluation then throws naming it). */
export type Scope = (name: string) => number | undefined;

/** The expression's value. Throws ExprError for a name with no value or a division by zero. */
export function evalExpr(e: Expr, scope: Scope): number {
  switch (e.k) {
    case 'num':
      return e.v;
    case 'name': {
      const v = scope(e.name);
      if (v === undefined) throw new ExprError(`"${e.name}" has no whole-number value here`);
      return v;
    }
    case 'neg':
      return -evalExpr(e.e, scope);
    case 'bin': {
      const a = evalExpr(e.a, scope);
      const b = evalExpr(e.b, scope);
      return e.op === '+' ? a + b : e.op === '-' ? a - b : a * b;
    }
    case 'call': {
      const vs = e.args.map((a) => evalExpr(a, scope));
      return e.fn === 'min' ? Math.min(...vs) : Math.max(...vs);
    }
    case 'floor': {
      const b = evalExpr(e.b, scope);
      if (b === 0) throw new ExprError('floor(a / b) with b = 0');
      return Math.floor(evalExpr(e.a, scope) / b);
    }
  }
}

/** A whole number as the pack writes it (a number or an expression), for these values. */
export const wholeOf = (text: string | number, scope: Scope) => (typeof text === 'number' ? text : evalExpr(parseExpr(text), scope));

/** The names a written whole number reads (none for a plain number). */
export const namesOf = (text: string | number | undefined): string[] => (typeof text === 'string' ? [...namesIn(parseExpr(text))] : []);
