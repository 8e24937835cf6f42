import { EVERYONE } from '../../src/core/access.js';
import { defineSubcommand, type Context } from '../../src/core/command.js';
import { sealedOption, text } from '../../src/core/options.js';
import { rollMessage } from '../../src/core/replies.js';
import { rollAndRecord } from '../../src/core/roll.js';
import { rollSide } from '../../src/core/sides.js';
import { refuse } from '../../src/core/user-error.js';
import type { LedgerRow } from '../../src/ledger/rows.js';
import type { DeclaredTally } from '../../src/ledger/tally.js';
import { rollEmbed, SKIPPED_TOO_MANY, type RollShown } from '../../src/render/dice.js';
import { chanceOf, MAX_ODDS_WORK, oddsWork, rememberedDistribution, type Distribution } from '../../src/rules/dice/distribution.js';
import { EXAMPLE, ExpressionError, parseExpression, rollExpression, type Expression } from '../../src/rules/dice/expression.js';
import { format, fraction } from '../../src/rules/odds.js';
import type { Outcome, SystemId } from '../../src/rules/types.js';
import { quoted } from '../../src/render/embed.js';
import { option } from '../../src/i18n/said.js';
import { readerLanguage } from '../../src/i18n/reader.js';

/** The command name /roll dice rows are recorded under (the group's: its only rolling subcommand). */
export const ROLL_COMMAND = 'roll';

export type RollRecorded = Outcome & RollShown & { tally: DeclaredTally };

/** The expression, or the refusal naming the first character not understood and one that works. */
export function parsedOrRefused(text: string): Expression {
  try {
    // A German reader writes dice as W (2W6+1), as the help shows them.
    return parseExpression(text, readerLanguage() === 'de');
  } catch (err) {
    if (!(err instanceof ExpressionError)) throw err;
    return refuse('badExpression', { expression: option('expression'), given: quoted(text), why: err.said, example: EXAMPLE });
  }
}

/** The exact odds of the total and of it or higher, when the count of steps (checked first) allowed the distribution. */
function oddsOrSkip(d: Distribution | undefined, total: number): Pick<RollShown, 'odds' | 'odds_skipped'> {
  if (!d) return { odds_skipped: SKIPPED_TOO_MANY };
  const c = chanceOf(d, total, 'higher');
  return { odds: { exactly: format(fraction(c.exactly, d.outcomes)), or_better: format(fraction(c.orOther, d.outcomes)) } };
}

export const storedRoll = (row: LedgerRow) => ({ embed: rollEmbed(row, row.outcome as RollRecorded), buttons: [] });

export const rollDice = defineSubcommand({
  description: 'Any dice, for any game: 3d6+2, 4d6kh3, 2d20kl1, d% — every die shown, exact odds',
  access: EVERYONE,
  options: {
    expression: text({ description: 'Dice to roll, e.g. 3d6+2, 4d6kh3, 2d20kl1, d%', maxLength: 200, required: true }),
    note: text({ description: 'What the roll is for, kept with it (up to 200 characters)', maxLength: 200 }),
    sealed: sealedOption(),
  },
  async run(ctx: Context, o) {
    const expr = parsedOrRefused(o.expression);
    // Computed before the transaction (it does not depend on the dice), so no lock waits on it.
    const dist = oddsWork(expr) > MAX_ODDS_WORK ? undefined : rememberedDistribution(expr);
    // The roll belongs to whatever game runs in the channel, of any system: its dice are that game's.
    const found = await rollAndRecord<RollRecorded>(ctx, null, async (at) => {
      const side = (await rollSide(at, ctx, undefined)) ?? '';
      const system = (at.game?.system ?? null) as SystemId;
      return {
        meta: { command: ROLL_COMMAND, kind: 'roll', input: o, sealed: o.sealed },
        rules: (roller) => {
          const r = rollExpression(expr, roller);
          const step = { kind: 'roll', result: String(r.total), label: `${r.shape} → ${r.total}`, effect: '', tone: 'neutral' as const, ref: '' };
          const extra = { ...(side ? { side } : {}), ...(o.note ? { note: o.note } : {}), ...oddsOrSkip(dist, r.total) };
          return { system, steps: [step], result: String(r.total), tone: 'neutral', ...r, ...extra, tally: { shape: r.shape, total: r.total } };
        },
      };
    });
    return rollMessage(ctx, o.sealed, found, rollEmbed(found.row, found.outcome));
  },
});
