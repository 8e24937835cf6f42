import { assertOwnerOrGm, EVERYONE } from '../../src/core/access.js';
import { recordAlone } from '../../src/core/adjudicate.js';
import { refuse } from '../../src/core/user-error.js';
import { defineCommand, isGroup } from '../../src/core/command.js';
import { text } from '../../src/core/options.js';
import { findRoll } from '../../src/core/review.js';
import { changeOutcome } from '../../src/core/roster-unit.js';
import { isSealed } from '../../src/render/review.js';

export default defineCommand({
  name: 'reveal',
  access: EVERYONE,
  description: 'Publish a sealed roll (its roller or a GM); the result was fixed when it was rolled',
  example: '/reveal id:k3x9q2m7pd',
  options: { id: text({ description: 'The sealed roll id', maxLength: 20, required: true }) },
  async run(ctx, o) {
    const row = findRoll(ctx, o.id);
    if (!isSealed(row)) refuse(`Roll ${row.id} is not sealed: its result is already public.`);
    assertOwnerOrGm(ctx, row.user_id, `Only ${row.user_name}, who rolled it, or a GM can reveal roll ${row.id}.`);
    const command = ctx.commands.find((c) => c.name === row.command);
    const render = command && !isGroup(command) ? command.renderStored : undefined;
    if (!render) refuse(`Roll ${row.id} cannot be shown here.`);
    const mark = await recordAlone(
      ctx,
      {
        command: 'reveal',
        kind: 'reveal',
        unit: row.unit ?? undefined,
        input: { roll: row.id },
        parentId: row.id,
        onceKey: `reveal:${row.id}`,
        onceTaken: `Roll ${row.id} was already revealed.`,
      },
      changeOutcome(row.system ?? 'unknown', 'revealed', 'Revealed', `${ctx.actor.userName} revealed roll ${row.id}.`),
    );
    const { embed, buttons } = render(ctx, row);
    const footer = `${embed.footer?.text ?? ''} · sealed at the roll, revealed by ${ctx.actor.userName} (${mark.id})`;
    return {
      type: 'message',
      ephemeral: false,
      embed: { ...embed, footer: { text: footer } },
      buttons,
      record: { command: row.command, system: row.system, roll_id: row.id, steps: (row.outcome as { steps: never[] }).steps, result: row.result },
    };
  },
});
