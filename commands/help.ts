import { EVERYONE } from '../src/core/access.js';
import { defineCommand, isGroup } from '../src/core/command.js';
import { EMBED_LIMITS, noticeEmbed, userText } from '../src/render/embed.js';
import type { APIEmbedField } from 'discord.js';
import { installedPacks } from '../src/core/packs.js';
import { packUsage } from '../src/core/pack-command.js';
import { systemName } from '../src/rules/systems.js';
import { readerLanguage, say } from '../src/i18n/reader.js';
import { commandLineIn, descriptionIn, nameIn, type Language } from '../src/i18n/i18n.js';

/** A value an example cannot know (a roll's id): `id:<roll id>`, shown with how to fill it in. */
const PLACEHOLDER = /([a-z_]+):<([a-z ]+)>/g;

/**
 * A command's example as the reader's client takes it, its placeholders in the reader's language,
 * and a hint for each: an example is copied as it stands, so one that names an id the server does
 * not have says so instead of being refused.
 */
function exampleLines(lang: Language, example: string): string {
  const placeholder = (what: string) => say('help.placeholder', { what: what.replaceAll(' ', '_') });
  const line = commandLineIn(lang, example).replace(/<([a-z ]+)>/g, (_, what: string) => `<${placeholder(what)}>`);
  const hints = [...example.matchAll(PLACEHOLDER)].map(
    ([, name, what]) => `*${say('help.fillIn', { placeholder: placeholder(what!), option: nameIn(lang, name!) })}*`,
  );
  return [`\`${line}\``, ...hints].join('\n');
}

/**
 * The lines as Discord can show them whole: the description up to its limit, then fields of up to
 * their limit each ("…" names a field that goes on), and a titled section (the server's packs) in
 * fields of its own. A German or French list of the commands is longer than one description holds.
 */
function spread(lines: string[], section?: [string, string[]]): { description: string; fields: APIEmbedField[] } {
  const chunks = (all: string[], limit: number) => {
    const out: string[] = [];
    for (const l of all) {
      const last = out.length - 1;
      if (last >= 0 && out[last]!.length + 1 + l.length <= limit) out[last] += `\n${l}`;
      else out.push(l);
    }
    return out;
  };
  const [description = '', ...rest] = chunks(lines, EMBED_LIMITS.description);
  const fields = chunks(rest.join('\n').split('\n'), EMBED_LIMITS.fieldValue).map((value) => ({ name: '…', value }));
  if (section) fields.push(...chunks(section[1], EMBED_LIMITS.fieldValue).map((value, i) => ({ name: i ? '…' : section[0], value })));
  return { description, fields };
}

export default defineCommand({
  name: 'help',
  access: EVERYONE,
  description: 'What Morale Officer can adjudicate, with an example of each command',
  example: '/help',
  options: {},
  async run(ctx) {
    // As the reader's client names the commands, so every example can be typed as shown.
    const lang = readerLanguage();
    const lines = ctx.commands.map((c) => {
      const system = c.system ? ` *(${systemName(c.system)})*` : '';
      const subs = isGroup(c)
        ? ` (${Object.keys(c.subcommands)
            .map((s) => nameIn(lang, s))
            .join(', ')})`
        : '';
      return `**/${nameIn(lang, c.name)}**${subs}${system} — ${descriptionIn(lang, c.description)}\n${exampleLines(lang, c.example)}`;
    });
    // This server's rule packs are commands too: each with its name and description, as its GM wrote them.
    const packs = [...(await installedPacks(ctx)).values()].map(
      (p) => `**/${p.pack.pack}** *${say('help.pack', { version: String(p.pack.version) })}* — ${userText(p.pack.description)}\n\`${packUsage(p.pack)}\``,
    );
    const { description, fields } = spread([say('help.intro'), '', ...lines], packs.length ? [say('help.packs').replaceAll('**', ''), packs] : undefined);
    return { type: 'message', ephemeral: true, embed: { ...noticeEmbed(say('help.title'), description), ...(fields.length ? { fields } : {}) }, buttons: [] };
  },
});
