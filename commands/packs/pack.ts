import fs from 'node:fs';
import { PACK_REROLL } from '../../src/core/pack-command.js';
import { packReroll } from '../../src/core/pack-reroll.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { EVERYONE, gmOnly } from '../../src/core/access.js';
import { defineSubcommand, type CommandGroup, type Context } from '../../src/core/command.js';
import { attachment, choice, text } from '../../src/core/options.js';
import { packCommand, packUsage } from '../../src/core/pack-command.js';
import { installPack, installedPacks, removePack, type InstalledPack } from '../../src/core/packs.js';
import { message } from '../../src/core/replies.js';
import { refuse } from '../../src/core/user-error.js';
import { noticeEmbed, userText } from '../../src/render/embed.js';
import { MAX_PACK_BYTES } from '../../src/rules/packs/load.js';
import { said } from '../../src/i18n/said.js';
import { command } from '../../src/i18n/said.js';
import { say } from '../../src/i18n/reader.js';

/** The example packs the bot ships (packs/*.yaml), by name. */
export const EXAMPLES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../packs');
const examples = (() => {
  try {
    return fs
      .readdirSync(EXAMPLES_DIR)
      .flatMap((f) => (f.endsWith('.yaml') ? [f.slice(0, -5)] : []))
      .sort();
  } catch {
    return [];
  }
})() as string[];

/** The command an installed pack adds, and its options, as the install reply and /pack list show them. */
function commandLine(p: InstalledPack): string {
  return say('pack.line', { usage: packUsage(p.pack), name: userText(p.pack.name), version: String(p.pack.version), row: p.rowId, sha: p.sha256.slice(0, 12) });
}

async function installFrom(ctx: Context, o: { file?: string | undefined; example?: string | undefined }) {
  if (Boolean(o.file) === Boolean(o.example)) refuse('packFileOrExample');
  const text = o.example ? fs.readFileSync(path.join(EXAMPLES_DIR, `${o.example}.yaml`), 'utf8') : (await ctx.file(o.file!, MAX_PACK_BYTES)).text;
  const installed = await installPack(ctx, text);
  const registered = await register(ctx, installed);
  const title = say(installed.again ? 'pack.againTitle' : 'pack.installedTitle');
  const body = [commandLine(installed), '', registered, say('pack.everyone')];
  return message(noticeEmbed(title, body.join('\n'), 'good'));
}

/** The pack's command registered in this server; what to tell the GM when Discord does not take it. */
async function register(ctx: Context, installed: InstalledPack & { again: boolean }): Promise<string> {
  const commands = ctx.services.guildCommands;
  const recorded = say(installed.again ? 'pack.again' : 'pack.recorded');
  if (!commands) return say('pack.noDiscord', { recorded });
  try {
    await commands.upsert(ctx.actor.guildId, packCommand(installed));
    return say('pack.registered', { recorded, pack: installed.pack.pack });
  } catch (err) {
    ctx.services.log.warn('pack command not registered', { guild: ctx.actor.guildId, pack: installed.pack.pack, err });
    return say('pack.notTaken', { recorded, why: (err as Error).message });
  }
}

export default {
  name: 'pack',
  description: "Rule packs: a club's own morale tests, installed in this server as commands",
  example: '/pack install example:bolt-action-order',
  // A pack roll's re-roll button: one action for every pack (the roll it names says which).
  buttons: { [PACK_REROLL]: packReroll },
  subcommands: {
    install: defineSubcommand({
      description: 'Install a rule pack (a YAML file) as a command of this server',
      access: gmOnly(said('gmInstallPack')),
      options: {
        file: attachment({ description: 'The pack file (YAML or JSON, at most 64 KiB)' }),
        ...(examples.length ? { example: choice({ description: 'A pack the bot ships, for a real game', choices: examples as [string, ...string[]] }) } : {}),
      },
      run: (ctx, o) => installFrom(ctx, o as { file?: string; example?: string }),
    }),
    list: defineSubcommand({
      description: 'The rule packs installed in this server, and their commands',
      access: EVERYONE,
      options: {},
      async run(ctx) {
        const packs = [...(await installedPacks(ctx)).values()];
        const body = packs.length ? packs.map(commandLine).join('\n') : say('pack.none', { install: command('pack install') });
        return message(noticeEmbed(say('pack.listTitle'), body), true);
      },
    }),
    show: defineSubcommand({
      description: 'An installed pack, as a file (what its rolls are checked against)',
      access: EVERYONE,
      options: { pack: text({ description: 'The pack’s id (its command’s name)', maxLength: 32, required: true }) },
      async run(ctx, o) {
        const installed = (await installedPacks(ctx)).get(o.pack);
        if (!installed) refuse('noSuchPack', { pack: userText(o.pack), list: command('pack list') });
        const file = { name: `${installed.pack.pack}.yaml`, data: Buffer.from(stringify(installed.pack)) };
        return { ...message(noticeEmbed(userText(installed.pack.name), commandLine(installed)), true), files: [file] };
      },
    }),
    remove: defineSubcommand({
      description: 'Remove a rule pack: its command goes; its rolls stay on record',
      access: gmOnly(said('gmRemovePack')),
      options: { pack: text({ description: 'The pack’s id (its command’s name)', maxLength: 32, required: true }) },
      async run(ctx, o) {
        const gone = await removePack(ctx, o.pack);
        try {
          await ctx.services.guildCommands?.remove(ctx.actor.guildId, gone.pack.pack);
        } catch (err) {
          // The router no longer serves it: a stale entry in Discord's list answers "There is no /… command".
          ctx.services.log.warn('pack command not unregistered', { guild: ctx.actor.guildId, pack: gone.pack.pack, err });
        }
        return message(noticeEmbed(say('pack.removedTitle'), say('pack.removed', { pack: gone.pack.pack }), 'good'));
      },
    }),
  },
} satisfies CommandGroup;
