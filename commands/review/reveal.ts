import { assertOwnerOrGm, EVERYONE } from '../../src/core/access.js';
import type { PendingEffect } from '../../src/core/roll.js';
import { defineCommand } from '../../src/core/command.js';
import { text } from '../../src/core/options.js';
import { record } from '../../src/core/record.js';
import { unitOfWork } from '../../src/core/unit-of-work.js';
import { findRoll } from '../../src/core/review.js';
import { changeOutcome, writeBack } from '../../src/core/roster-unit.js';
import { refuse } from '../../src/core/user-error.js';
import { withPayload } from '../../src/ledger/rows.js';
import { isSealed } from '../../src/render/review.js';

export default defineCommand({
  name: 'reveal',
  access: EVERYONE,
  description: 'Publish a sealed roll (its roller or a GM); the result was fixed when it was rolled',
  example: '/reveal id:k3x9q2m7pd',
  options: { id: text({ description: 'The sealed roll id', maxLength: 20, required: true }) },
  async run(ctx, o) {
    // The roll, its payload and the units its effects name are read in the reveal's transaction.
    const { row, payload, render, mark } = await unitOfWork(ctx, null, async (at) => {
      const row = await findRoll(at.reads, ctx, o.id);
      if (!isSealed(row)) refuse(`Roll ${row.id} is not sealed: its result is already public.`);
      assertOwnerOrGm(ctx, row.user_id, `Only ${row.user_name}, who rolled it, or a GM can reveal roll ${row.id}.`);
      const command = ctx.commands.find((c) => c.name === row.command);
      const render = command?.renderStored;
      if (!render) refuse(`Roll ${row.id} cannot be shown here.`);
      const sealed = (await at.tx.sealedPayloads(ctx.actor.guildId, [row.id])).get(row.id);
      if (!sealed) refuse(`Roll ${row.id} was sealed before sealed rolls carried a commitment: a GM can read it with /roll show.`);
      const { salt, payload } = sealed;
      // The reveal publishes the salt and the payload: anyone can check them against the commitment.
      const mark = await record(
        at.tx,
        ctx,
        {
          command: 'reveal',
          kind: 'reveal',
          unit: row.unit ?? undefined,
          input: { roll: row.id, salt, payload },
          parentId: row.id,
          onceKey: `reveal:${row.id}`,
          onceTaken: `Roll ${row.id} was already revealed.`,
        },
        changeOutcome(row.system ?? 'unknown', 'revealed', 'Revealed', `${ctx.actor.userName} revealed roll ${row.id}.`),
      );
      // Only now do the roster changes the result makes take effect (they were authorised at the roll).
      for (const e of payload.effects as PendingEffect[]) {
        const unit = await at.tx.roster.unit(e.unit_id);
        const game = unit && !unit.removed_at ? await at.tx.roster.game(ctx.actor.guildId, unit.game_id) : undefined;
        if (unit && game && !game.ended_at) await writeBack(at.tx, ctx, { game, unit }, e.change, mark.id, e.command, { authorised: true });
      }
      return { row, payload, render, mark };
    });
    const { embed, buttons } = await render(ctx, withPayload(row, payload));
    const footer = `${embed.footer?.text ?? ''} · sealed at the roll, revealed by ${ctx.actor.userName} (${mark.id})`;
    const outcome = payload.outcome as { steps: never[] };
    return {
      type: 'message',
      ephemeral: false,
      embed: { ...embed, footer: { text: footer } },
      buttons,
      record: { command: row.command, system: row.system, roll_id: row.id, steps: outcome.steps, result: payload.result },
    };
  },
});
