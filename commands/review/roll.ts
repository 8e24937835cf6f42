import { EVERYONE } from '../../src/core/access.js';
import { message } from '../../src/core/replies.js';
import { defineSubcommand, type CommandGroup } from '../../src/core/command.js';
import { text } from '../../src/core/options.js';
import { rollIdChoices } from '../../src/core/choices.js';
import { findRoll, viewFor } from '../../src/core/review.js';
import { rollDetailEmbed } from '../../src/render/review.js';
import { commandLine, receiptReply } from './receipt.js';
import { rollDice, storedRoll } from '../dice/roll-dice.js';
import { recordedOptions } from '../../src/core/record.js';

export default {
  name: 'roll',
  description: 'Roll any dice on record, look up a roll, or get its signed receipt',
  example: '/roll dice expression:4d6kh3',
  // Rows of /roll dice are recorded under this group's name: /reveal shows them through it.
  renderStored: (_ctx, row) => storedRoll(row),
  autocomplete: (ctx, option, value) => (option === 'id' ? rollIdChoices(ctx, value) : []),
  subcommands: {
    dice: rollDice,
    show: defineSubcommand({
      description: 'One roll in full: input, dice, modifiers, result, linked rows, hash',
      access: EVERYONE,
      options: { id: text({ description: 'The roll id, from the reply footer or /history', maxLength: 20, required: true, autocomplete: true }) },
      async run(ctx, o) {
        const { row, hidden } = await viewFor(ctx, await findRoll(ctx.services.ledger, ctx, o.id));
        const { history } = ctx.services.ledger;
        // Before a reveal, only GM marks are listed: nothing derived from the result.
        const related = (await ctx.services.ledger.children(ctx.actor.guildId, row.id)).filter((r) => !hidden || r.kind === 'void' || r.kind === 'annotation');
        const typed = commandLine(row.command, recordedOptions(row));
        return message(rollDetailEmbed(row, related, (await history.messages([row.id])).get(row.id), hidden, typed), true);
      },
    }),
    receipt: defineSubcommand({
      description: 'A signed receipt of a roll, to paste into an e-mail or a VASL chat and check anywhere',
      access: EVERYONE,
      options: { id: text({ description: 'The roll id, from the reply footer or /history', maxLength: 20, required: true, autocomplete: true }) },
      run: (ctx, o) => receiptReply(ctx, o.id),
    }),
  },
} satisfies CommandGroup;
