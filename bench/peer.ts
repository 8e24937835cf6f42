import path from 'node:path';
import { DiceRoll } from '@dice-roller/rpg-dice-roller';
import { createRouter } from '../src/app.js';
import { cryptoRoller } from '../src/dice/roller.js';
import { Ledger } from '../src/ledger/ledger.js';
import { createLogger } from '../src/log.js';
import { type Expression, parseExpression, rollExpression } from '../src/rules/dice/expression.js';
import { fmt, type Line, median, pct, ratioLine, repeated } from './repeat.js';

/**
 * `/roll dice`'s expression engine beside a peer: @dice-roller/rpg-dice-roller, the most
 * used dice-notation library on npm, a dev dependency of the bench only. Both parse, roll and total
 * the same 1,000 expressions, each with its production random source (ours: node:crypto, theirs:
 * its default engine); then the whole command, through the router onto a SQLite ledger.
 */

const SIDES = [4, 6, 8, 10, 12, 20, 100];

/** 1,000 expressions of the grammar both accept: NdS, keep highest or lowest, plus and minus, a constant. */
export function sharedExpressions(n = 1000): string[] {
  let seed = 1;
  const rnd = (k: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % k;
  };
  const out: string[] = [];
  while (out.length < n) {
    const parts = Array.from({ length: 1 + rnd(3) }, () => {
      const count = 1 + rnd(6);
      const keep = count > 1 && rnd(3) === 0 ? `${rnd(2) ? 'kh' : 'kl'}${1 + rnd(count - 1)}` : '';
      return `${count}d${SIDES[rnd(SIDES.length)]}${keep}`;
    });
    if (rnd(2)) parts.push(String(1 + rnd(10)));
    out.push(parts.join(rnd(4) === 0 ? '-' : '+'));
  }
  return out;
}

/** The least and most an expression can total, by our reading of it. */
function bounds(e: Expression): [number, number] {
  let lo = 0;
  let hi = 0;
  for (const t of e.terms) {
    const [a, b] = t.kind === 'const' ? [t.value, t.value] : [t.keep ? t.keep.k : t.count, (t.keep ? t.keep.k : t.count) * t.sides];
    if (t.sign > 0) [lo, hi] = [lo + a, hi + b];
    else [lo, hi] = [lo - b, hi - a];
  }
  return [lo, hi];
}

/**
 * Each expression means the same to both: the same least and most total (a grammar they read
 * differently is refused here). Theirs bounds a subtraction by its terms' own extremes (1d20-1d8
 * as 0..12, not -7..19), so expressions with a minus are compared on the terms they add.
 */
function assertSameMeaning(exprs: string[]): void {
  for (const text of exprs.flatMap((e) => e.split('-'))) {
    const theirs = new DiceRoll(text);
    const [lo, hi] = bounds(parseExpression(text));
    if (theirs.minTotal !== lo || theirs.maxTotal !== hi) throw new Error(`${text}: ours ${lo}..${hi}, theirs ${theirs.minTotal}..${theirs.maxTotal}`);
  }
}

const timed = (f: () => void) => {
  const t = performance.now();
  f();
  return performance.now() - t;
};

/** The engines, parse + roll + total, 20 passes over the expressions each trial (after a warm-up pass each). */
async function engines(exprs: string[]): Promise<Line> {
  assertSameMeaning(exprs);
  const ours = () => {
    for (const e of exprs) rollExpression(parseExpression(e), cryptoRoller).total;
  };
  const theirs = () => {
    for (const e of exprs) void new DiceRoll(e).total;
  };
  ours();
  theirs();
  const r = await repeated(() => {
    const a = timed(() => Array.from({ length: 20 }, ours));
    const b = timed(() => Array.from({ length: 20 }, theirs));
    return { ours: a / 20, theirs: b / 20, ratio: b / a };
  });
  return ratioLine(
    `/roll dice's engine: parse, roll, total of ${fmt(exprs.length)} expressions both grammars accept`,
    r.med.ratio,
    r.spread,
    { ours: `${fmt(r.med.ours, 1)} ms (crypto dice)`, baseline: `${fmt(r.med.theirs, 1)} ms: @dice-roller/rpg-dice-roller 5.5 (its default engine)` },
    ['≥', 1],
  );
}

/** The whole command, router in → reply out, onto a SQLite file: its p99, against the engine's own time for the same expressions. */
async function command(exprs: string[], dir: string): Promise<Line> {
  const r = await repeated(async (rep) => {
    const ledger = Ledger.open(path.join(dir, `peer-${rep}.db`));
    const router = createRouter({ ledger, log: createLogger({ level: 'silent' }) });
    const actor = { guildId: 'g1', channelId: 'c1', userId: 'p1', userName: 'P1', isGm: false };
    const times: number[] = [];
    for (const expression of exprs) {
      const t = performance.now();
      const reply = await router.handle({ type: 'command', name: 'roll', subcommand: 'dice', options: { expression }, actor });
      times.push(performance.now() - t);
      if (reply.type !== 'message') throw new Error(`/roll dice ${expression}: ${JSON.stringify(reply)}`);
    }
    ledger.close();
    const engine = median(exprs.map((e) => timed(() => rollExpression(parseExpression(e), cryptoRoller))));
    return { p99: pct(times, 99), p50: median(times), engine, ratio: pct(times, 99) / 50 };
  });
  return {
    what: `the whole /roll dice (exact odds, ledger row and tally, reply) over the same ${fmt(exprs.length)} expressions, SQLite`,
    ours: `p99 ${fmt(r.med.p99, 2)} ms, median ${fmt(r.med.p50, 2)} ms`,
    baseline: `${fmt(r.med.engine * 1000, 1)} µs: the engine alone, median`,
    ratio: r.med.ratio,
    spread: r.spread,
    target: 'p99 ≤ 50 ms (ratio: p99 / 50 ms)',
    met: r.med.p99 <= 50,
  };
}

export async function peerLines(dir: string): Promise<Line[]> {
  const exprs = sharedExpressions();
  return [await engines(exprs), await command(exprs, dir)];
}
