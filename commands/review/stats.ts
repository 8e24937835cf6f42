import { EVERYONE, gmOnly } from '../../src/core/access.js';
import { defineCommand } from '../../src/core/command.js';
import { filterOptions, toFilter } from '../../src/core/filters.js';
import { choice } from '../../src/core/options.js';
import { viewsFor } from '../../src/core/review.js';
import { chartPng } from '../../src/render/chart.js';
import { limitEmbed, TONE_COLOUR } from '../../src/render/embed.js';
import { chiSquare, type ChiSquare } from '../../src/rules/fairness.js';
import { fractionValue } from '../../src/rules/odds.js';

const FACES = 6;
const CHART = 'stats.png';

const verdict = (c: ChiSquare) =>
  `χ² = ${c.statistic.toFixed(2)} on ${c.df} df, p = ${c.p.toFixed(3)}${c.p < 0.01 ? ' — unusual (expected about 1 time in 100 by chance)' : ''}${c.smallExpected ? '; some expected counts are below 5, so the test is rough' : ''}`;

export default defineCommand({
  name: 'stats',
  access: (o) => (o.scope === 'server' ? gmOnly("see the whole server's statistics") : EVERYONE),
  description: 'Dice and results on record against their exact expected distribution, with a chart',
  example: '/stats user:@alice system:hearts-of-tin',
  cost: 5,
  options: {
    user: filterOptions.user,
    system: filterOptions.system,
    scope: choice({ description: 'This channel (default), or the whole server (GM only)', choices: ['channel', 'server'] as const, default: 'channel' }),
  },
  async run(ctx, o) {
    const filter = { ...toFilter(ctx, { user: o.user, system: o.system }, o.scope === 'server'), kinds: ['roll', 'reroll'] };
    const { history } = ctx.services.ledger;
    const faces = new Array<number>(FACES).fill(0);
    const observed = new Map<string, number>();
    const expected = new Map<string, number>();
    let rolls = 0;
    // In chunks, oldest first: memory holds one chunk whatever the ledger's size, and the event
    // loop is given back between chunks (issue 14).
    for await (const chunk of history.chunks(filter)) {
      const voided = await history.voided(
        ctx.actor.guildId,
        chunk.map((r) => r.id),
      );
      // Voided rolls and sealed results this viewer may not see are left out; a revealed one counts.
      for (const { row, hidden } of await viewsFor(ctx, chunk)) {
        if (hidden || voided.has(row.id)) continue;
        rolls++;
        for (const d of row.dice) if (d >= 1 && d <= FACES) faces[d - 1]!++;
        const dist = (row.outcome as { odds?: { distribution?: Record<string, string> } }).odds?.distribution;
        if (!dist || !row.result) continue;
        observed.set(row.result, (observed.get(row.result) ?? 0) + 1);
        for (const [k, p] of Object.entries(dist)) expected.set(k, (expected.get(k) ?? 0) + fractionValue(p));
      }
    }
    const dice = faces.reduce((a, b) => a + b, 0);
    const expectedFace = faces.map(() => dice / FACES);
    const results = [...new Set([...expected.keys(), ...observed.keys()])].sort((a, b) => (expected.get(b) ?? 0) - (expected.get(a) ?? 0));

    const lines = [
      `${rolls} roll${rolls === 1 ? '' : 's'}, ${dice} dice${o.user ? ` by <@${o.user}>` : ''}${o.system ? ` · ${o.system}` : ''} · ${o.scope === 'server' ? 'whole server' : 'this channel'}`,
      '',
      '**Die faces** (observed / expected)',
      '```',
      ...faces.map((n, i) => `${i + 1}: ${String(n).padStart(6)} / ${expectedFace[i]!.toFixed(1)}`),
      '```',
      dice ? verdict(chiSquare(faces, expectedFace)) : 'No dice yet.',
      '',
      "**Results** (observed / expected from each roll's exact odds)",
      '```',
      ...results.map((k) => `${k.padEnd(24)} ${String(observed.get(k) ?? 0).padStart(5)} / ${(expected.get(k) ?? 0).toFixed(2)}`),
      '```',
      results.length
        ? verdict(
            chiSquare(
              results.map((k) => observed.get(k) ?? 0),
              results.map((k) => expected.get(k) ?? 0),
            ),
          )
        : 'No results with recorded odds yet.',
    ];
    const png = chartPng({
      title: 'Die faces: observed vs expected',
      labels: faces.map((_, i) => String(i + 1)),
      series: [
        { name: 'observed', values: faces, colour: '#3b6ea8' },
        { name: 'expected', values: expectedFace, colour: '#c9c9c9' },
      ],
    });
    return {
      type: 'message',
      ephemeral: true,
      embed: limitEmbed({ title: 'Dice statistics', color: TONE_COLOUR.neutral, description: lines.join('\n'), image: { url: `attachment://${CHART}` } }),
      buttons: [],
      files: [{ name: CHART, data: png }],
    };
  },
});
