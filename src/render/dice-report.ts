import type { Comparison, DiceReport, ReportGroup } from '../rules/dice/report.js';
import type { TallyGroup } from '../ledger/tally.js';
import type { ChiSquare } from '../rules/fairness.js';
import type { ChartSpec } from './chart.js';
import { figuresIn, percentIn, say } from '../i18n/reader.js';

/** An unusual p to two significant figures, rounded down: one just under 0.05 never reads as 0.05 (0.0499 → 0.049). */
function down(p: number): string {
  const scale = 10 ** (1 - Math.floor(Math.log10(p)));
  return String(Math.floor(p * scale + 1e-9) / scale);
}

/** A p-value in words. */
export const pInWords = (p: number) =>
  p >= 0.05 ? say('stats.fair', { p: figuresIn(p.toFixed(2)) }) : p >= 0.001 ? say('stats.unusual', { p: figuresIn(down(p)) }) : say('stats.unlikely');

/** The verdict on a group: too few rolls to tell, below the shape's n*; otherwise its p-value in words. */
export function verdict(g: ReportGroup): string {
  if (!g.facts || !g.test) return say('stats.tooManyOutcomes');
  if (!Number.isFinite(g.facts.needed)) return say('stats.oneOutcome');
  if (g.n < g.facts.needed) return say('stats.tooFew', { n: String(g.n), needed: String(g.facts.needed) });
  return `${pInWords(g.test.p)}${g.test.smallExpected ? say('stats.rough') : ''}`;
}

/** How a group is named in the reply, by what the report is grouped on. */
export function groupName(by: TallyGroup | undefined, value: string): string {
  if (!by) return say('stats.all');
  if (value === '') return say('stats.none', { by });
  if (by === 'user') return `<@${value}>`;
  if (by === 'side') return say('dr.side', { side: value });
  if (by === 'command') return `/${value}`;
  return value;
}

// Below 0.05 the p is cut, not rounded, to three places: 0.0499 must not read as 0.050.
const pText = (p: number) => (p < 0.001 ? '< 0.001' : p < 0.05 ? (Math.floor(p * 1000 + 1e-9) / 1000).toFixed(3) : p.toFixed(3));
const stat = (t: ChiSquare) =>
  figuresIn(say('stats.stat', { statistic: t.statistic.toFixed(2), df: String(t.df), p: t.p < 0.001 ? '< 0.001' : `= ${pText(t.p)}` }));

export function groupLine(by: TallyGroup | undefined, g: ReportGroup): string {
  const figures = { mean: figuresIn(g.mean.toFixed(2)), exact: figuresIn(g.facts?.mean.toFixed(2) ?? '') };
  const mean = g.facts ? say('stats.meanExact', figures) : say('stats.mean', { mean: figures.mean });
  const who = by ? ` · ${groupName(by, g.group)}` : '';
  const tested = g.test && g.n >= (g.facts?.needed ?? 0) ? ` (${stat(g.test)})` : '';
  return say('stats.group', { shape: g.shape, who, n: g.n, mean, verdict: verdict(g), stat: tested });
}

export function comparisonLine(by: TallyGroup | undefined, c: Comparison): string {
  const names = by ? [groupName(by, c.a), groupName(by, c.b)] : [`<@${c.a}>`, c.b];
  // As for one group: below the shape's n* in either, a test could not tell them apart anyway.
  const pair = { shape: c.shape, a: names[0]!, b: names[1]! };
  if (!Number.isFinite(c.needed) || Math.min(...c.rolls) < c.needed) {
    const needed = Number.isFinite(c.needed) ? say('stats.eachNeeded', { n: String(c.needed) }) : say('stats.oneOnly');
    return say('stats.tooFewCompare', { ...pair, na: String(c.rolls[0]), nb: String(c.rolls[1]), needed });
  }
  const words = say(c.test.p >= 0.05 ? 'stats.noSign' : c.test.p >= 0.001 ? 'stats.differ' : 'stats.differFar');
  return say('stats.compare', { ...pair, stat: stat(c.test), words });
}

/** The most bars a chart draws: a wide shape shows its central totals. */
const MAX_BARS = 20;
/** Charts one report draws: one per dice shape, the largest first. */
export const MAX_CHARTS = 4;
const COLOURS = ['#5b8fd1', '#e8a045', '#5fbf7f', '#c77dba'];

/** A chart for each shape the report counts (the largest first): its groups as shares of their rolls, against fair dice. */
export function reportCharts(by: TallyGroup | undefined, report: DiceReport): ChartSpec[] {
  const shapes = [...new Set(report.groups.filter((g) => g.facts).map((g) => g.shape))].slice(0, MAX_CHARTS);
  return shapes.map((shape) => shapeChart(by, report, report.groups.find((g) => g.shape === shape)!));
}

/** Each group of one shape as shares of its rolls, against the exact distribution. */
function shapeChart(by: TallyGroup | undefined, report: DiceReport, top: DiceReport['groups'][number]): ChartSpec {
  const f = top.facts!;
  const groups = report.groups.filter((g) => g.shape === top.shape).slice(0, COLOURS.length);
  // The central totals: trim the least likely ends until the bars fit.
  let lo = 0;
  let hi = f.p.length - 1;
  while (hi - lo + 1 > MAX_BARS) f.p[lo]! <= f.p[hi]! ? lo++ : hi--;
  const totals = Array.from({ length: hi - lo + 1 }, (_, i) => f.min + lo + i);
  return {
    title: say('stats.chartTitle', { shape: top.shape }),
    labels: totals.map(String),
    series: [
      ...groups.map((g, i) => ({
        name: groupName(by, g.group).replace(/^<@(\d+)>$/, (_, id: string) => say('stats.player', { id })),
        values: totals.map((t) => (g.counts.get(t) ?? 0) / g.n),
        colour: COLOURS[i]!,
      })),
      { name: say('stats.fairDice'), values: totals.map((t) => f.p[t - f.min]!), colour: '#b5bac1' },
    ],
    // As the reply's own text writes a share: 17 % to a German reader, 17\u202f% to a French one.
    format: (v) => percentIn(v, 0),
  };
}
