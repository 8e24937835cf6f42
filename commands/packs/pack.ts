import fs from 'node:fs';
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
  return `\`${packUsage(p.pack)}\` — ${userText(p.pack.name)} (version ${p.pack.version}, pack row \`${p.rowId}\`, sha256 \`${p.sha256.slice(0, 12)}…\`)`;
}

async function installFrom(ctx: Context, o: { file?: string | undefined; example?: string | undefined }) {
  if (Boolean(o.file) === Boolean(o.example)) refuse('packFileOrExample');
  const text = o.example ? fs.readFileSync(path.join(EXAMPLES_DIR, `${o.example}.yaml`), 'utf8') : (await ctx.file(o.file!, MAX_PACK_BYTES)).text;
  const installed = await installPack(ctx, text);
  const registered = await register(ctx, installed);
  const title = installed.again ? 'Pack already installed' : 'Pack installed';
  const body = [commandLine(installed), '', registered, 'Everyone here can roll it. `odds_only:true` shows its exact odds without rolling.'];
  return message(noticeEmbed(title, body.join('\n'), 'good'));
}

/** The pack's command registered in this server; what to tell the GM when Discord does not take it. */
async function register(ctx: Context, installed: InstalledPack & { again: boolean }): Promise<string> {
  const commands = ctx.services.guildCommands;
  const recorded = installed.again ? 'This exact pack is installed already: nothing new was recorded.' : 'Recorded on the chain.';
  if (!commands) return `${recorded} Its command works here (no Discord connection to register it with).`;
  try {
    await commands.upsert(ctx.actor.guildId, packCommand(installed));
    return `${recorded} Registered in this server: /${installed.pack.pack} is in the command list now.`;
  } catch (err) {
    ctx.services.log.warn('pack command not registered', { guild: ctx.actor.guildId, pack: installed.pack.pack, err });
    return `${recorded} Discord did not take its command (${(err as Error).message}): install the same file again to retry.`;
  }
}

export default {
  name: 'pack',
  description: "Rule packs: a club's own morale tests, installed in this server as commands",
  example: '/pack install example:bolt-action-order',
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
        const body = packs.length ? packs.map(commandLine).join('\n') : 'No rule packs are installed here. A GM installs one with /pack install.';
        return message(noticeEmbed('Rule packs', body), true);
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
        return message(noticeEmbed('Pack removed', `/${gone.pack.pack} is removed. Its rolls stay on record and verifiable.`, 'good'));
      },
    }),
  },
} satisfies CommandGroup;
