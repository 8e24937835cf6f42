import { recordedOptions } from '../../src/core/record.js';
import { EVERYONE } from '../../src/core/access.js';
import { customId, defineCommand, type ButtonHandler, type Context, type Reply } from '../../src/core/command.js';
import { choice, integer, sealedOption, text } from '../../src/core/options.js';
import { rollMessage } from '../../src/core/replies.js';
import { buttonParent } from '../../src/core/review.js';
import { rollAndRecord, type RollSpec } from '../../src/core/roll.js';
import type { TxScope } from '../../src/core/unit-of-work.js';
import { rollSide } from '../../src/core/sides.js';
import { gameOptionsOf, type Game } from '../../src/ledger/roster.js';
import { unitChoicesFor, unitOption } from '../../src/core/unit-option.js';
import { refuse } from '../../src/core/user-error.js';
import type { LedgerRow } from '../../src/ledger/rows.js';
import type { DeclaredTally } from '../../src/ledger/tally.js';
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
import { userText } from '../../src/render/embed.js';
import { option, said } from '../../src/i18n/said.js';
import { say } from '../../src/i18n/reader.js';

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

export type DrRecorded = Outcome & DrShown & { tally: DeclaredTally };

const againButton = (row: LedgerRow): Button[] => [{ custom_id: customId(AGAIN, row.id), label: say('dr.again'), style: 'secondary' }];
const stored = (row: LedgerRow) => ({ embed: drEmbed(row, row.outcome as DrRecorded), buttons: againButton(row) });

/** What one /dr rolls and records, from the game's SANs and booby traps and the roller's side as read in its transaction. */
async function drSpec(at: TxScope, ctx: Context, o: DrOptions): Promise<RollSpec<DrRecorded>> {
  const dice = diceFor(o.category, o.dice);
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
      const tally = { shape: dice === 'DR' ? '2d6' : '1d6', total: r.original };
      return { system: 'asl', steps: [step], result: String(r.original), tone: 'neutral', ...r, ...extra, tally };
    },
    odds: (out) => drOdds(dice, out.original),
  };
}

/** One /dr in its own unit of work; its options are settled inside it (a button reads its roll there). */
async function rollDrFor(ctx: Context, settle: (at: TxScope) => Promise<DrOptions> | DrOptions): Promise<Reply> {
  const found = await rollAndRecord<DrRecorded>(ctx, 'asl', async (at) => drSpec(at, ctx, await settle(at)));
  const { sealed } = found.row.input as DrOptions;
  return rollMessage(ctx, sealed, found, drEmbed(found.row, found.outcome), sealed ? [] : againButton(found.row));
}

/**
 * "Roll again": the same /dr as a new roll of its own, by the player who made the first only. The
 * button's target is read from the ledger in the roll's transaction, never trusted: only a /dr is rolled again.
 */
const rollAgain: ButtonHandler = (ctx, target) =>
  rollDrFor(ctx, async (at) => {
    const parent = (await buttonParent(at.reads, ctx, target)) ?? refuse('notOnRecord');
    const { roll } = parent;
    if (roll.command !== 'dr') refuse('notADr', { id: roll.id, command: roll.command });
    if (roll.user_id !== ctx.actor.userId) refuse('onlyRollerRerolls', { user: userText(roll.user_name), id: roll.id });
    return recordedOptions(roll) as DrOptions;
  });

export default defineCommand({
  name: 'dr',
  access: EVERYONE,
  description: 'ASL: any DR or dr on record (IFT, To Hit, To Kill, CC, Task Check, Sniper…), with its notes',
  system: 'asl',
  example: '/dr category:TH drm:2 unit:"Panther 1"',
  options,
  check: (o) =>
    o.dice === 'DR' && DR_ONLY.includes(o.category) ? said('drIsOneDie', { category: option('category'), given: o.category, dice: option('dice') }) : undefined,
  run: (ctx, o) => rollDrFor(ctx, () => o),
  buttons: { [AGAIN]: rollAgain },
  autocomplete: unitChoicesFor('asl'),
  renderStored: (_ctx, row) => stored(row),
});
