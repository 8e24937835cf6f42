import { EVERYONE } from '../../src/core/access.js';
import { customId, defineCommand, type ButtonHandler, type Context, type Reply } from '../../src/core/command.js';
import { choice, integer, sealedOption, text } from '../../src/core/options.js';
import { rollMessage } from '../../src/core/replies.js';
import { buttonParent } from '../../src/core/review.js';
import { rollAndRecord } from '../../src/core/roll.js';
import { rollSide } from '../../src/core/sides.js';
import { gameOptionsOf, type Game } from '../../src/ledger/roster.js';
import { unitChoicesFor, unitOption } from '../../src/core/unit-option.js';
import { refuse } from '../../src/core/user-error.js';
import type { LedgerRow } from '../../src/ledger/rows.js';
import type { Button } from '../../src/render/embed.js';
import { drEmbed, type DrShown } from '../../src/render/dice.js';
import {
  DR_CATEGORIES,
  DR_ONLY,
  diceFor,
  NO_DR_SETTINGS,
  rollDr,
  type BoobyTrapLevel,
  type DrCategory,
  type DrSettings,
  type Side,
} from '../../src/rules/asl/dr.js';
import { chanceOf, rememberedDistribution } from '../../src/rules/dice/distribution.js';
import { parseExpression } from '../../src/rules/dice/expression.js';
import { format, fraction } from '../../src/rules/odds.js';
import type { Outcome } from '../../src/rules/types.js';

const AGAIN = 'dr_again';

/** A game's SANs and booby-trap levels as the /dr rules take them (none outside a game). */
function drSettingsOf(game: Game | undefined): DrSettings {
  const o = game ? gameOptionsOf(game) : {};
  return {
    san: o.san ?? NO_DR_SETTINGS.san,
    boobyTraps: (o.booby_traps as Record<Side, BoobyTrapLevel> | undefined) ?? NO_DR_SETTINGS.boobyTraps,
  };
}

export const options = {
  category: choice({ description: 'What the roll is for (IFT, TH, TK, MC, TC, Rally, CC; SA and RS are drs)', choices: DR_CATEGORIES, default: 'other' }),
  dice: choice({ description: 'DR: two dice (default); dr: one die', choices: ['DR', 'dr'] as const }),
  drm: integer({ description: 'Dice roll modifier added to the Original total, −10 to +10', min: -10, max: 10 }),
  unit: unitOption(),
  note: text({ description: 'What the roll is for, kept with it (up to 200 characters)', maxLength: 200 }),
  sealed: sealedOption(),
};
type DrOptions = {
  category: DrCategory;
  dice?: 'DR' | 'dr' | undefined;
  drm?: number | undefined;
  unit?: string | undefined;
  note?: string | undefined;
  sealed: boolean;
};

/** The chance of an Original total and of it or lower (lower is better on most ASL tables), exactly. */
function drOdds(dice: 'DR' | 'dr', original: number) {
  const d = rememberedDistribution(parseExpression(dice === 'DR' ? '2d6' : '1d6'));
  const c = chanceOf(d, original, 'lower');
  return { exactly: format(fraction(c.exactly, d.outcomes)), or_better: format(fraction(c.orOther, d.outcomes)) };
}

export type DrRecorded = Outcome & DrShown & { tally: { shape: string; total: number; category: string; side: string } };

const againButton = (row: LedgerRow): Button[] => [{ custom_id: customId(AGAIN, row.id), label: 'Roll again', style: 'secondary' }];
const stored = (row: LedgerRow) => ({ embed: drEmbed(row, row.outcome as DrRecorded), buttons: againButton(row) });

/** One /dr: the game's SANs and booby traps and the roller's side read in the roll's transaction. */
async function rollDrFor(ctx: Context, o: DrOptions): Promise<Reply> {
  const dice = diceFor(o.category, o.dice);
  const found = await rollAndRecord<DrRecorded>(ctx, 'asl', async (at) => {
    const side = (await rollSide(at, ctx, o.unit)) ?? '';
    const settings = drSettingsOf(at.game);
    return {
      meta: { command: 'dr', kind: 'roll', unit: o.unit, input: o, sealed: o.sealed },
      rules: (roller) => {
        const r = rollDr({ category: o.category, dice, drm: o.drm ?? 0, settings }, roller);
        const step = {
          kind: 'dr',
          result: String(r.original),
          label: `${o.category} ${dice} ${r.original}`,
          effect: r.notes.join('; '),
          tone: 'neutral' as const,
          ref: '',
        };
        const extra = { ...(side ? { side } : {}), ...(o.note ? { note: o.note } : {}) };
        return {
          system: 'asl',
          steps: [step],
          result: String(r.original),
          tone: 'neutral',
          ...r,
          ...extra,
          tally: { shape: dice === 'DR' ? '2d6' : '1d6', total: r.original, category: o.category, side },
        };
      },
      odds: (out) => drOdds(dice, out.original),
    };
  });
  return rollMessage(ctx, o.sealed, found, drEmbed(found.row, found.outcome), o.sealed ? [] : againButton(found.row));
}

/** "Roll again": the same /dr as a new roll of its own, by the player who made the first only. */
const rollAgain: ButtonHandler = async (ctx, target) => {
  const parent = await buttonParent(ctx.services.ledger, ctx, target);
  if (!parent) return refuse('That roll is not on record in this server.');
  // The button's target is read from the ledger, never trusted: only a /dr is rolled again.
  if (parent.roll.command !== 'dr') refuse(`Roll ${parent.roll.id} is a /${parent.roll.command} roll, not a /dr: it has nothing to roll again.`);
  if (parent.roll.user_id !== ctx.actor.userId) refuse(`Only ${parent.roll.user_name}, who made roll ${parent.roll.id}, can roll it again.`);
  return rollDrFor(ctx, parent.roll.input as DrOptions);
};

export default defineCommand({
  name: 'dr',
  access: EVERYONE,
  description: 'ASL: any DR or dr on record (IFT, To Hit, To Kill, CC, Task Check, Sniper…), with its notes',
  system: 'asl',
  example: '/dr category:TH drm:2 unit:"Panther 1"',
  options,
  check: (o) => (o.dice === 'DR' && DR_ONLY.includes(o.category) ? `\`category\` ${o.category} is a dr (one die): leave \`dice\` out or give dr.` : undefined),
  run: (ctx, o) => rollDrFor(ctx, o),
  buttons: { [AGAIN]: rollAgain },
  autocomplete: unitChoicesFor('asl'),
  renderStored: (_ctx, row) => stored(row),
});
