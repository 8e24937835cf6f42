import { describe, expect, it } from 'vitest';
import { chartSvg, DISPLAY_WIDTH, MIN_DISPLAY_TEXT, type ChartSpec } from '../../src/render/chart.js';
import { PHONE_COLUMNS } from '../../src/render/odds.js';
import { alice, command, expectMessage, oddsRoll, testApp } from '../helpers/app.js';

/** Every text of a chart at the size Discord shows the image (at most DISPLAY_WIDTH wide), and whether any is turned. */
function textSizes(svg: string): { sizes: number[]; rotated: boolean } {
  const width = Number(/<svg[^>]* width="(\d+)"/.exec(svg)![1]);
  const shown = Math.min(1, DISPLAY_WIDTH / width);
  const sizes = [...svg.matchAll(/<text[^>]* font-size="([\d.]+)"/g)].map((m) => Number(m[1]) * shown);
  return { sizes, rotated: /rotate\(/.test(svg) };
}

const spec = (labels: string[], series = 1): ChartSpec => ({
  title: 'Odds · Morale Check · a unit with a long name of forty characters',
  labels,
  series: Array.from({ length: series }, (_, i) => ({ name: `series ${i}`, values: labels.map((_, j) => (j + 1) / labels.length), colour: '#5b8fd1' })),
});

describe('charts read at phone width', () => {
  it.each([
    ['short labels beside their bars', spec(['2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12'], 2)],
    ['long labels above their bars', spec(['Passed → Hero and Battle Hardening', 'Rout, commander lost', 'Casualty Reduction'])],
  ])('%s: every text at 12 px or more where Discord shows it, none rotated', (_, s) => {
    const { sizes, rotated } = textSizes(chartSvg(s));
    expect(sizes.length).toBeGreaterThan(s.labels.length);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(MIN_DISPLAY_TEXT);
    expect(rotated).toBe(false);
  });

  it('the check can fail: the old chart (11 px labels, turned 35°, on 640 px) is caught', () => {
    const old = '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400"><text font-size="11" transform="rotate(-35 1 1)">rally</text></svg>';
    const { sizes, rotated } = textSizes(old);
    expect(Math.min(...sizes)).toBeLessThan(MIN_DISPLAY_TEXT);
    expect(rotated).toBe(true);
  });

  it('/stats draws a chart for every dice shape it reports, the largest first', async () => {
    const app = testApp();
    for (let i = 0; i < 6; i++) {
      app.dice.push(3, 4);
      await command(app, alice, 'dr', {});
    }
    for (let i = 0; i < 3; i++) {
      app.dice.push(5);
      await command(app, alice, 'rally', { disorder: 1 });
    }
    app.dice.push(3, 3, 3);
    await command(app, alice, 'morale', { morale: 'leery' });
    const reply = expectMessage(await command(app, alice, 'stats', {}));
    expect(reply.type === 'message' && reply.files!.map((f) => f.name)).toEqual(['stats.png', 'stats-2.png', 'stats-3.png']);
    expect(reply.type === 'message' && reply.files!.map((f) => /^Bar chart, (\w+):/.exec(f.description!)?.[1])).toEqual(['2d6', '1d6', '3d6']);
    expect(reply.embed.image).toEqual({ url: 'attachment://stats.png' });
    app.ledger.close();
  });

  it('/odds’ table fits a phone: no line past 40 characters, a long name on a line of its own', async () => {
    const app = testApp();
    const reply = expectMessage(await command(app, alice, 'odds', oddsRoll('mc', { unit: 'Russian 4-4-7' })));
    const table = /```\n([\s\S]*?)\n```/.exec(reply.embed.description!)![1]!;
    expect(Math.max(...table.split('\n').map((l) => l.length))).toBeLessThanOrEqual(PHONE_COLUMNS);
    expect(table).toMatch(/^Passed → Hero and Battle Hardening\n {22}5\/1296 {4}0\.4%$/m);
    expect(table).toMatch(/^Passed {18}7\/18 {3}38\.9%$/m);
    app.ledger.close();
  });

  it('/odds shows a small chance with its first figure, not 0%', async () => {
    const app = testApp();
    const reply = expectMessage(await command(app, alice, 'odds', oddsRoll('mc', { unit: 'German 4-6-7' })));
    expect(reply.type === 'message' && reply.files![0]!.description).toContain('Passed → Hero 0.5%');
    app.ledger.close();
  });
});
