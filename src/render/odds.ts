import type { APIEmbed } from 'discord.js';
import { format, toNumber, type OddsRow } from '../rules/odds.js';
import { chartAlt, chartPng } from './chart.js';
import { limitEmbed, resultName, TONE_COLOUR } from './embed.js';
import { percentIn, say } from '../i18n/reader.js';

export const ODDS_CHART = 'odds.png';

/** Characters a code block shows on a phone without wrapping, and the widest result name kept on its row. */
export const PHONE_COLUMNS = 40;
const NAME_COLUMN = 20;

/**
 * The odds as a table that fits a phone: a name longer than its column goes on a line of its own,
 * its figures on the next, so no row wraps (a 53-character row did).
 */
export function oddsTable(rows: OddsRow[]): string {
  const width = Math.min(NAME_COLUMN, Math.max(6, ...rows.map((r) => r.result.length)));
  const fracWidth = Math.max(6, ...rows.map((r) => format(r.p).length));
  const figures = (r: OddsRow) => `${format(r.p).padStart(fracWidth)}  ${percentIn(toNumber(r.p)).padStart(6)}`;
  return [
    `${say('odds.headResult').padEnd(width)}  ${say('odds.headChance').padStart(fracWidth)}  ${'%'.padStart(6)}`,
    ...rows.map((r) => (r.result.length <= width ? `${r.result.padEnd(width)}  ${figures(r)}` : `${r.result}\n${' '.repeat(width)}  ${figures(r)}`)),
  ].join('\n');
}

/** Every outcome with its exact probability, as a table, and the bar chart that goes with it. */
export async function oddsReply(
  title: string,
  situation: string,
  coded: OddsRow[],
  labels: Readonly<Record<string, string>> = {},
): Promise<{ embed: APIEmbed; png: Buffer; alt: string }> {
  const rows = coded.map((r) => ({ ...r, result: resultName(r.result, labels) }));
  const table = oddsTable(rows);
  const embed = limitEmbed({
    title,
    color: TONE_COLOUR.neutral,
    description: `${situation}\n\`\`\`\n${table}\n\`\`\`\n${say('odds.exact')}`,
    image: { url: `attachment://${ODDS_CHART}` },
  });
  const spec = {
    title,
    labels: rows.map((r) => r.result),
    series: [{ name: say('odds.probability'), values: rows.map((r) => toNumber(r.p)), colour: '#5b8fd1' }],
    // A small chance keeps its first figure: 1/216 reads 0.5%, not 0%.
    format: (v: number) => (v >= 0.1 || v === 0 ? percentIn(v, 0) : v >= 0.001 ? percentIn(v, 1) : `<${percentIn(0.001, 1)}`),
  };
  return { embed, png: await chartPng(spec), alt: chartAlt(spec) };
}
