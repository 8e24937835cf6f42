import { EVERYONE } from '../src/core/access.js';
import { defineCommand, isGroup } from '../src/core/command.js';
import { noticeEmbed, userText } from '../src/render/embed.js';
import { installedPacks } from '../src/core/packs.js';
import { packUsage } from '../src/core/pack-command.js';
import { systemName } from '../src/rules/systems.js';

export default defineCommand({
  name: 'help',
  access: EVERYONE,
  description: 'What Morale Officer can adjudicate, with an example of each command',
  example: '/help',
  options: {},
  async run(ctx) {
    const lines = ctx.commands.map((c) => {
      const system = c.system ? ` *(${systemName(c.system)})*` : '';
      const subs = isGroup(c) ? ` (${Object.keys(c.subcommands).join(', ')})` : '';
      return `**/${c.name}**${subs}${system} — ${c.description}\n\`${c.example}\``;
    });
    // This server's rule packs are commands too: each with its name and description, as its GM wrote them.
    const packs = [...(await installedPacks(ctx)).values()].map(
      (p) => `**/${p.pack.pack}** *(rule pack, version ${p.pack.version})* — ${userText(p.pack.description)}\n\`${packUsage(p.pack)}\``,
    );
    const body = [
      'Morale Officer rolls on the server, applies the rules of your game, records every roll in a hash-chained ledger before it answers, and shows its work.',
      '',
      ...lines,
      ...(packs.length ? ['', '**Rule packs of this server**', ...packs] : []),
    ].join('\n');
    return { type: 'message', ephemeral: true, embed: noticeEmbed('Morale Officer · help', body), buttons: [] };
  },
});
