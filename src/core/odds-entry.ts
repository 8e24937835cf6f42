import { ODDS_CHART, oddsReply } from '../render/odds.js';
import { ordered, type Fraction } from '../rules/odds.js';
import type { Reply } from './command.js';
import { shown } from '../i18n/reader.js';
import type { Says } from '../rules/types.js';

/** A rolling command's options, less those that change no chance (sealing, companions, exempt statuses). */
export function chanceOptions<O extends Record<string, unknown>>(options: O): O {
  const { sealed: _s, companions: _c, status: _t, ...rest } = options as Record<string, unknown>;
  return rest as O;
}

/** A table's result names by code, in the reader's language, for the odds of its results. */
export const labelsOf = (...rows: readonly { code: string; label: string; says?: Says }[]): Record<string, string> =>
  Object.fromEntries(rows.map((r) => [r.code, r.says ? shown(r.says.label) : r.label]));

/** The /odds reply: every outcome's exact chance, in the rules' order, as a table and a chart. */
export async function oddsAnswer(
  title: string,
  situation: string,
  dist: Map<string, Fraction>,
  order: readonly string[],
  then: readonly string[] = [],
  labels: Readonly<Record<string, string>> = {},
): Promise<Reply> {
  const { embed, png, alt } = await oddsReply(title, situation, ordered(dist, order, then), labels);
  return { type: 'message', ephemeral: true, embed, buttons: [], files: [{ name: ODDS_CHART, data: png, description: alt }] };
}
