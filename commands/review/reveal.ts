import { assertOwnerOrGm, EVERYONE } from '../../src/core/access.js';
import { revealIn } from '../../src/core/reveal.js';
import { defineCommand } from '../../src/core/command.js';
import { text } from '../../src/core/options.js';
import { rollIdChoices } from '../../src/core/choices.js';
import { unitOfWork } from '../../src/core/unit-of-work.js';
import { findRoll } from '../../src/core/review.js';
import { refuse } from '../../src/core/user-error.js';
import { withPayload } from '../../src/ledger/rows.js';
import { isSealed } from '../../src/render/review.js';
import { summarise } from '../../src/core/replies.js';
import { commandNamed } from '../../src/core/pack-command.js';
import type { Outcome } from '../../src/rules/types.js';
import { said } from '../../src/i18n/said.js';
import { userText } from '../../src/render/embed.js';
import { say } from '../../src/i18n/reader.js';

export default defineCommand({
  name: 'reveal',
  access: EVERYONE,
  description: 'Publish a sealed roll (its roller or a GM); the result was fixed when it was rolled',
  example: '/reveal id:<roll id>',
  options: { id: text({ description: 'The sealed roll id', maxLength: 20, required: true, autocomplete: true }) },
  autocomplete: (ctx, option, value) => (option === 'id' ? rollIdChoices(ctx, value) : []),
  async run(ctx, o) {
    // The roll, its payload and the units its effects name are read in the reveal's transaction.
    const { row, payload, render, mark } = await unitOfWork(ctx, null, async (at) => {
      const row = await findRoll(at.reads, ctx, o.id);
      if (!isSealed(row)) refuse('notSealed', { id: row.id });
      assertOwnerOrGm(ctx, row.user_id, said('onlyRollerReveals', { user: userText(row.user_name), id: row.id }));
      const command = await commandNamed(ctx, row.command);
      const render = command?.renderStored;
      if (!render) refuse('cannotShowHere', { id: row.id });
      const { mark, payload } = await revealIn(at, ctx, row);
      return { row, payload, render, mark };
    });
    const { embed, buttons } = await render(ctx, withPayload(row, payload));
    const footer = `${embed.footer?.text ?? ''} · ${say('mark.revealed', { user: ctx.actor.userName, mark: mark.id })}`;
    return {
      type: 'message',
      ephemeral: false,
      embed: { ...embed, footer: { text: footer } },
      buttons,
      record: summarise(withPayload(row, payload), payload.outcome as Outcome),
    };
  },
});
