import { EVERYONE } from '../src/core/access.js';
import { defineCommand, isGroup } from '../src/core/command.js';
import { noticeEmbed } from '../src/render/embed.js';
import { systemName } from '../src/rules/systems.js';

export default defineCommand({
  name: 'help',
  access: EVERYONE,
  description: 'What Morale Officer can adjudicate, with an example of each command',
  example: '/help',
  options: {},
  run(ctx) {
    const lines = ctx.commands.map((c) => {
      const system = c.system ? ` *(${systemName(c.system)})*` : '';
      const subs = isGroup(c) ? ` (${Object.keys(c.subcommands).join(', ')})` : '';
      return `**/${c.name}**${subs}${system} — ${c.description}\n\`${c.example}\``;
    });
    const body = [
      'Morale Officer rolls on the server, applies the rules of your game, records every roll in a hash-chained ledger before it answers, and shows its work.',
      '',
      ...lines,
    ].join('\n');
    return { type: 'message', ephemeral: true, embed: noticeEmbed('Morale Officer · help', body), buttons: [] };
  },
});
