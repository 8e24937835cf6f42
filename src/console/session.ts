import fs from 'node:fs';
import { afterNotify } from '../core/replies.js';
import os from 'node:os';
import path from 'node:path';
import { isGroup, optionsOf, releaseFiles, type Action, type Actor, type AnyCommand, type Attachment, type Reply, type UserFacts } from '../core/command.js';
import type { Button } from '../render/embed.js';
import type { OptionMap } from '../core/options.js';
import type { AttachedFile } from '../core/attached-file.js';
import { ApplicationCommandOptionType } from 'discord.js';
import type { Router } from '../core/router.js';
import { embedToText } from '../render/text.js';
import type { ScriptedDice } from './dice.js';
import { LineError, parseLine } from './parse-line.js';

export type ConsoleOutput = { json: Record<string, unknown>; text: string } | { quit: true } | null;

const CONSOLE_HELP = [
  'Type a command as in Discord:  /rally disorder:2 quality:militia unit:"1st Foot"',
  '  press <custom_id>     press a button (press alone: the button of the last reply, when it has one)',
  '  as <user> [gm]        act as another player, or as a GM',
  '  in <channel> [server] act in another channel (and server)',
  '  complete /rally unit:1st   what autocomplete would offer',
  '  /help                 the commands and an example of each',
  '  quit                  leave',
].join('\n');

/**
 * The console's side of the router: reads a line, acts as the current user, and gives back the
 * reply both as the JSON line of `--json` and as text for the REPL. Same handlers, same ledger.
 */
export class ConsoleSession {
  private lastButtons: Button[] = [];
  /** The line whose reply showed `lastButtons` (undefined before any reply). */
  private lastReplyTo: string | undefined;
  /** The line being answered, as typed. */
  private line = '';
  /** A temporary folder for attachments, made only when no folder was given, removed by close(). */
  private tempDir: string | undefined;

  constructor(
    private readonly router: Router,
    private actor: Actor,
    /** Where attachments (charts, exports) are kept; they stay after the session. None: a temporary folder close() removes. */
    private readonly keepIn?: string,
    /** The Discord locale the replies are written for (--locale); English without one. */
    private readonly locale?: string,
    /** The --dice list, when the dice are hand-fed: a line it cannot serve is answered with why. */
    private readonly dice?: ScriptedDice,
  ) {}

  /** Removes the temporary folder of attachments, if one was made; a folder given is kept. */
  close(): void {
    if (this.tempDir) fs.rmSync(this.tempDir, { recursive: true, force: true });
    this.tempDir = undefined;
  }

  private filesDir(): string {
    if (this.keepIn) {
      // The attachments hold players' names and rolls: a folder made here is its owner's alone.
      fs.mkdirSync(this.keepIn, { recursive: true, mode: 0o700 });
      return this.keepIn;
    }
    this.tempDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'morale-officer-console-'));
    return this.tempDir;
  }

  private save(files: Attachment[]): { name: string; bytes: number; path: string }[] {
    if (!files.length) return [];
    const dir = this.filesDir();
    return files.map((f) => {
      const file = path.join(dir, `${Date.now()}-${f.name}`);
      if ('data' in f) fs.writeFileSync(file, f.data);
      else fs.copyFileSync(f.path, file);
      return { name: f.name, bytes: 'data' in f ? f.data.length : f.bytes, path: file };
    });
  }

  /** One line's answer; a line that fails gives its --dice back, and says so when the list could not serve it. */
  async run(line: string): Promise<ConsoleOutput> {
    this.line = line.trim();
    this.dice?.startLine();
    const out = await this.answer(line);
    if (!out || 'quit' in out || out.json.ok !== false) return out;
    const problem = this.dice?.lineFailed();
    return problem ? failure(out.json.command as string | undefined, problem) : out;
  }

  /** Which button a bare `press` means: the one button of the last reply, or why there is none to choose. */
  private onlyButton(): { customId: string } | { error: string } {
    const [only, ...more] = this.lastButtons;
    if (only && !more.length) return { customId: only.custom_id };
    const which = 'Press a button of an earlier reply by its custom_id: press v1:reroll:<roll id>.';
    if (this.lastReplyTo === undefined) return { error: `there is no button to press yet. ${which}` };
    if (!only) return { error: `there is no button on the last reply (to ${this.lastReplyTo}). ${which}` };
    const offered = this.lastButtons.map((b) => `press ${b.custom_id} (${b.label})`).join(', ');
    return { error: `the last reply (to ${this.lastReplyTo}) has ${this.lastButtons.length} buttons; press one by its custom_id: ${offered}.` };
  }

  private async answer(line: string): Promise<ConsoleOutput> {
    let parsed: ReturnType<typeof parseLine>;
    try {
      parsed = parseLine(line);
    } catch (err) {
      if (!(err instanceof LineError)) throw err;
      return failure(err.command, this.taught(err.command, err.message));
    }
    switch (parsed.type) {
      case 'blank':
        return null;
      case 'quit':
        return { quit: true };
      case 'help':
        return { json: { ok: true, help: CONSOLE_HELP }, text: CONSOLE_HELP };
      case 'as':
        this.actor = { ...this.actor, userId: parsed.user, userName: parsed.user, isGm: parsed.gm };
        return {
          json: { ok: true, as: { user: parsed.user, gm: parsed.gm } },
          text: `now acting as ${parsed.user}${parsed.gm ? ' (GM)' : ''}`,
        };
      case 'in':
        this.actor = { ...this.actor, channelId: parsed.channel, ...(parsed.guild ? { guildId: parsed.guild } : {}) };
        return {
          json: { ok: true, in: { channel: this.actor.channelId, guild: this.actor.guildId } },
          text: `now in channel ${this.actor.channelId} of server ${this.actor.guildId}`,
        };
      case 'press': {
        const which = parsed.customId === undefined ? this.onlyButton() : { customId: parsed.customId };
        if ('error' in which) return failure('press', which.error);
        const { customId } = which;
        const reply = await this.router.handle({ type: 'button', customId, actor: this.actor, locale: this.locale });
        return this.output('press', reply);
      }
      case 'complete': {
        const reply = await this.router.handle({
          type: 'autocomplete',
          name: parsed.name,
          subcommand: parsed.subcommand,
          option: parsed.option,
          value: parsed.value,
          actor: this.actor,
          locale: this.locale,
        });
        return this.output(parsed.name, reply);
      }
      case 'command': {
        const command = await this.router.commandFor(this.actor.guildId, parsed.name);
        if (command && !isGroup(command) && parsed.subcommand) {
          return failure(parsed.name, this.taught(parsed.name, `expected option:value after /${parsed.name}, got ${JSON.stringify(parsed.subcommand)}`));
        }
        const spec = command && optionsOf(command, parsed.subcommand);
        const attached = attachedByPath(spec, spec ? typedOptions(spec, parsed.options) : parsed.options);
        if ('error' in attached) return failure(parsed.name, attached.error);
        const { options, files } = attached;
        const reply = await this.router.handle({
          type: 'command',
          name: parsed.name,
          subcommand: parsed.subcommand,
          options,
          actor: this.actor,
          locale: this.locale,
          users: consoleUsers(spec, options),
          ...(files ? { files } : {}),
        });
        return this.output(parsed.subcommand ? `${parsed.name} ${parsed.subcommand}` : parsed.name, reply);
      }
    }
  }

  /** A line the console could not read, with how the command it names is written (its subcommands, its example). */
  private taught(name: string | undefined, message: string): string {
    const command = name === undefined ? undefined : this.router.commands.find((c) => c.name === name);
    if (!command || !message.startsWith('expected option:value')) return message;
    const subs = isGroup(command) ? ` /${command.name} takes one of: ${Object.keys(command.subcommands).join(', ')};` : '';
    const meant = meantLine(command, /got "(.*)"$/.exec(message)?.[1]);
    return `${message}.${subs}${subs ? ' for' : ' For'} example ${command.example}${meant ? `. Did you mean ${meant}?` : ''}`;
  }

  private async output(command: string, reply: Reply): Promise<ConsoleOutput> {
    switch (reply.type) {
      case 'error':
        return failure(command, reply.message);
      case 'choices':
        return {
          json: { ok: true, command, choices: reply.choices },
          text: reply.choices.length ? reply.choices.map((c) => `  ${c.name}`).join('\n') : '  (no suggestions)',
        };
      case 'bound': {
        // The binding first, as the channel sees it, then the result once its round is in.
        const result = (await this.output(command, await reply.result)) as { json: Record<string, unknown>; text: string };
        return { json: { ...result.json, bound: reply.embed.title }, text: `${embedToText(reply.embed, [], false)}\n${result.text}` };
      }
      case 'message':
      case 'update': {
        // The console's "other channel" is this output: the post always succeeds.
        const notify = reply.type === 'message' ? reply.notify : undefined;
        reply = afterNotify(reply, true);
        this.lastButtons = reply.buttons;
        this.lastReplyTo = this.line;
        const ephemeral = reply.type === 'message' && reply.ephemeral;
        const files = reply.type === 'message' ? this.save(reply.files ?? []) : [];
        // Awaited: the spool is gone once the line is answered (a one-shot --json run ends right after).
        await releaseFiles(reply);
        const json = {
          ok: true,
          command: reply.record?.command ?? command,
          ...(reply.record ?? {}),
          ...(ephemeral ? { ephemeral: true } : {}),
          ...(reply.type === 'update' ? { updated_message: true } : {}),
          buttons: reply.buttons.map((b) => ({ custom_id: b.custom_id, label: b.label })),
          ...(files.length ? { attachments: files } : {}),
          embed: reply.embed,
          ...(reply.type === 'message' && reply.private
            ? { private: { embed: reply.private.embed, buttons: reply.private.buttons.map((b) => ({ custom_id: b.custom_id, label: b.label })) } }
            : {}),
          ...(notify ? { notify: { channel: notify.channelId, embed: notify.embed } } : {}),
          ...(reply.log ? { log: reply.log } : {}),
        };
        if (reply.type === 'message' && reply.private) this.lastButtons = reply.private.buttons;
        const text = [
          embedToText(reply.embed, reply.buttons, ephemeral),
          ...files.map((f) => `  [attachment ${f.name}: ${f.path}]`),
          ...(reply.type === 'message' && reply.private ? [embedToText(reply.private.embed, reply.private.buttons, true)] : []),
          ...(notify ? [`  [posted to channel ${notify.channelId}]`, embedToText(notify.embed)] : []),
          ...(reply.log ? [`  [roll log, channel ${reply.log.channelId}] ${reply.log.line}`] : []),
        ];
        return { json, text: text.join('\n') };
      }
    }
  }
}

function failure(command: string | undefined, error: string): ConsoleOutput {
  return { json: { ok: false, ...(command ? { command } : {}), error }, text: `  ! ${error}` };
}

/** Console text → the typed values Discord would send for this command's options. */
/**
 * The console attaches a file by its path: `path:<file>` fills the command's attachment option
 * (`/pack install path:my-pack.yaml`), read here as Discord would hand the bot an attached file.
 */
function attachedByPath(
  spec: OptionMap | undefined,
  options: Record<string, unknown>,
): { options: Record<string, unknown>; files?: Record<string, AttachedFile> } | { error: string } {
  const slot = Object.entries(spec ?? {}).find(([name, o]) => o.toSlash(name).type === ApplicationCommandOptionType.Attachment)?.[0];
  if (!slot || typeof options.path !== 'string' || spec?.path) return { options };
  const { path: file, ...rest } = options;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    return { error: `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
  }
  const id = `console-${path.basename(file)}`;
  return { options: { ...rest, [slot]: id }, files: { [id]: { name: path.basename(file), size: Buffer.byteLength(text), text } } };
}

/** The console names users as `as` does (`player:bob`): every name is a member, and none a bot. */
function consoleUsers(spec: OptionMap | undefined, options: Record<string, unknown>): Record<string, UserFacts> {
  const named = Object.entries(spec ?? {}).filter(
    ([name, o]) => o.toSlash(name).type === ApplicationCommandOptionType.User && typeof options[name] === 'string',
  );
  return Object.fromEntries(named.map(([name]) => [options[name] as string, { name: options[name] as string, bot: false, member: true }]));
}

function typedOptions(spec: OptionMap, raw: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) out[k] = spec[k]?.fromText(v) ?? v;
  return out;
}

/** A bare word typed after a command, read as the value of its first required option that takes it: `/roll 3d6` → `/roll dice expression:3d6`. */
function meantLine(command: AnyCommand, word: string | undefined): string | undefined {
  if (word === undefined) return undefined;
  const actions: [string, Action<OptionMap>][] = isGroup(command) ? Object.entries(command.subcommands) : [['', command]];
  for (const [sub, action] of actions) {
    const [name, option] = Object.entries(action.options).find(([, o]) => o.required) ?? [];
    if (name && option?.schema.safeParse(option.fromText(word)).success) return `/${command.name}${sub ? ` ${sub}` : ''} ${name}:${word}`;
  }
  return undefined;
}
