import { EVERYONE, gmOnly } from '../../src/core/access.js';
import { gameChoices } from '../../src/core/choices.js';
import { defineCommand, type Context } from '../../src/core/command.js';
import { diceReport, MAX_GROUPS } from '../../src/core/dice-report.js';
import { filterOptions, toFilter } from '../../src/core/filters.js';
import { choice } from '../../src/core/options.js';
import { TALLY_GROUPS, type TallyFilter } from '../../src/ledger/tally.js';
import { chartAlt, chartPng } from '../../src/render/chart.js';
import { comparisonLine, groupLine, reportCharts } from '../../src/render/dice-report.js';
import { limitEmbed, TONE_COLOUR } from '../../src/render/embed.js';
import { SIDES } from '../../src/rules/sides.js';
import { said } from '../../src/i18n/said.js';
import { say } from '../../src/i18n/reader.js';

const CHART = 'stats.png';
/** A chart is drawn once per distinct query and kept for a minute: the text is what is timed. */
const CHART_TTL_MS = 60_000;
const CHART_CACHE = 200;
// The promise is kept, so two reports of one query at once draw it once.
const charts = new Map<string, { png: Promise<Buffer>; at: number }>();

function cachedChart(key: string, draw: () => Promise<Buffer>): Promise<Buffer> {
  const now = Date.now();
  const hit = charts.get(key);
  if (hit && now - hit.at < CHART_TTL_MS) return hit.png;
  if (charts.size >= CHART_CACHE) charts.delete(charts.keys().next().value!);
  const png = draw();
  charts.set(key, { png, at: now });
  // A failed drawing is not kept: the next report tries again.
  png.catch(() => {
    if (charts.get(key)?.png === png) charts.delete(key);
  });
  return png;
}

type StatsOptions = {
  user?: string | undefined;
  command?: string | undefined;
  system?: string | undefined;
  game?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
  category?: string | undefined;
  side?: string | undefined;
  scope: 'channel' | 'server';
};

/** The options as an aggregate filter: the history's filter, its times to the hour (the aggregates are kept by the hour, so a span takes in whole hours). */
async function tallyFilter(ctx: Context, o: StatsOptions): Promise<TallyFilter> {
  const { kinds: _kinds, result: _result, since, until, ...f } = await toFilter(ctx, o, o.scope === 'server');
  return { ...f, side: o.side, sinceHour: since?.slice(0, 13), untilHour: until?.slice(0, 13) };
}

export default defineCommand({
  name: 'stats',
  access: (o) => (o.scope === 'server' ? gmOnly(said('gmSeeServerStats')) : EVERYONE),
  description: 'The dice report: rolls by shape and group against fair dice, with a verdict and a chart',
  example: '/stats by:side',
  cost: 2,
  options: {
    user: filterOptions.user,
    command: filterOptions.command,
    system: filterOptions.system,
    game: filterOptions.game,
    since: filterOptions.since,
    until: filterOptions.until,
    category: filterOptions.category,
    side: choice({ description: 'Only rolls made for this side (from /game join or the unit)', choices: SIDES }),
    by: choice({ description: 'Split into groups by player, side, category or command', choices: TALLY_GROUPS }),
    scope: choice({ description: 'This channel (default), or the whole server (GM only)', choices: ['channel', 'server'], default: 'channel' }),
  },
  autocomplete: (ctx, option, value) => (option === 'game' ? gameChoices(ctx, value) : []),
  async run(ctx, o) {
    const f = await tallyFilter(ctx, o);
    const report = await diceReport(ctx.services.ledger, f, o.by);
    const shown = report.groups.slice(0, MAX_GROUPS);
    const rolls = report.groups.reduce((s, g) => s + g.n, 0);
    const where = say(o.scope === 'server' ? 'review.scopeServer' : 'review.scopeChannel');
    const lines = [
      say('stats.onRecord', { n: rolls, where, hourly: o.since || o.until ? 'yes' : 'no' }),
      '',
      ...(shown.length ? shown.map((g) => groupLine(o.by, g)) : [say('review.noRolls')]),
      ...(report.groups.length > shown.length ? [say('stats.more', { n: report.groups.length - shown.length })] : []),
      ...(report.comparisons.length ? ['', ...report.comparisons.map((c) => comparisonLine(o.by, c))] : []),
      // Beside each player's rolls, their beacon rolls that expired unrolled: a withheld round shows here.
      ...(report.expiries.length
        ? ['', ...report.expiries.map((e) => say('stats.expired', { user: e.user, n: e.expired, rolled: e.rolled })), say('stats.expiredWhy')]
        : []),
      '',
      say('stats.counted'),
    ];
    // One chart per dice shape counted: the first is the embed's image, the others follow it.
    const specs = reportCharts(o.by, report);
    const pngs = await Promise.all(specs.map((spec) => cachedChart(JSON.stringify([f, o.by ?? null, rolls, spec.title]), () => chartPng(spec))));
    const files = specs.map((spec, i) => ({ name: i ? `stats-${i + 1}.png` : CHART, data: pngs[i]!, description: chartAlt(spec) }));
    return {
      type: 'message',
      ephemeral: true,
      embed: limitEmbed({
        title: say('stats.title'),
        color: TONE_COLOUR.neutral,
        description: lines.join('\n'),
        ...(files.length ? { image: { url: `attachment://${CHART}` } } : {}),
      }),
      buttons: [],
      ...(files.length ? { files } : {}),
    };
  },
});
