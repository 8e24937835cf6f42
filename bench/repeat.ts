/** One printed line of the bench: the median figures of its trials, the ratio's spread across them. */
export type Line = { what: string; ours: string; baseline: string; ratio: number; spread: string; target: string; met: boolean; detail?: string };

/** A trial's figures by name; `ratio` is ours against the baseline of the same trial. */
export type Figures = { ratio: number } & Record<string, number>;

/** Trials of every line: these machines are noisy, so each line is the median of several. */
export const REPS = 3;

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-GB', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

/**
 * Runs `trial` REPS times, one after another: each figure's median across the trials, and the
 * ratio's lowest and highest (the spread printed beside the line).
 */
export async function repeated<F extends Figures>(trial: (rep: number) => Promise<F> | F, reps = REPS): Promise<{ med: F; spread: string }> {
  const runs: F[] = [];
  for (let rep = 0; rep < reps; rep++) runs.push(await trial(rep));
  const med = Object.fromEntries(Object.keys(runs[0]!).map((k) => [k, median(runs.map((r) => r[k]!))])) as F;
  const ratios = runs.map((r) => r.ratio);
  return { med, spread: `${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)} (${reps} runs)` };
}

/** A line whose target is a bound on its ratio: the target's text and whether it is met come from the one bound. */
export function ratioLine(
  what: string,
  ratio: number,
  spread: string,
  text: { ours: string; baseline: string; detail?: string },
  [op, limit]: ['≤' | '≥', number],
): Line {
  return { what, ...text, ratio, spread, target: `${op} ${limit}`, met: op === '≤' ? ratio <= limit : ratio >= limit };
}
