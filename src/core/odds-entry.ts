import { ODDS_CHART, oddsReply } from '../render/odds.js';
import { ordered, type Fraction } from '../rules/odds.js';
import type { Reply } from './command.js';
import { say, shown } from '../i18n/reader.js';
import type { Says } from '../rules/types.js';

/**
 * The options of a rolling command that /odds does not take, each with why it changes no chance.
 * Every other option of the command is /odds' too: a test holds each system's entries to this.
 */
export const NOT_ODDS: Readonly<Record<string, string>> = {
  sealed: 'who sees the result, not the result',
  companions: "the berserk leader's companions' NTCs, which come after the result the odds are of",
};

/**
 * A rolling command's options, less those that change no chance (NOT_ODDS). Typed as the command's
 * own, so its input reading serves both: the options left out read as absent.
 */
export function chanceOptions<O extends Record<string, unknown>>(options: O): O {
  return Object.fromEntries(Object.entries(options).filter(([k]) => !Object.hasOwn(NOT_ODDS, k))) as O;
}

/** A table's result names by code, in the reader's language, for the odds of its results. */
export const labelsOf = (...rows: readonly { code: string; label: string; says?: Says }[]): Record<string, string> =>
  Object.fromEntries(rows.map((r) => [r.code, r.says ? shown(r.says.label) : r.label]));

/**
 * The /odds reply: every outcome's exact chance, in the rules' order, as a table and a chart. The
 * header is the roll's own (its title and situation), so the odds name every input the roll does.
 */
export async function oddsAnswer(
  header: { title: string; situation: string },
  dist: Map<string, Fraction>,
  order: readonly string[],
  then: readonly string[] = [],
  labels: Readonly<Record<string, string>> = {},
): Promise<Reply> {
  const { embed, png, alt } = await oddsReply(say('odds.title', { what: header.title }), header.situation, ordered(dist, order, then), labels);
  return { type: 'message', ephemeral: true, embed, buttons: [], files: [{ name: ODDS_CHART, data: png, description: alt }] };
}
