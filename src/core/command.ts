import fs from 'node:fs';
import type { InteractionEvidence } from './evidence.js';
import type { BeaconSource } from '../beacon/relay.js';
import { removeSpooled } from '../util/spool.js';
import type { RateLimiter } from './rate-limit.js';
import type { APIEmbed } from 'discord.js';
import type { Button } from '../render/embed.js';
import type { Roller } from '../dice/roller.js';
import type { GameDraw, RollBeacon } from '../dice/seeded.js';
import type { LedgerRow } from '../ledger/rows.js';
import type { LedgerStore } from '../ledger/store.js';
import type { Game } from '../ledger/roster.js';
import type { GuildSettings } from '../ledger/settings.js';
import type { Logger } from '../log.js';
import type { Finding } from '../rules/types.js';
import type { AccessDecl } from './access.js';
import type { OptionMap, ParsedOptions } from './options.js';
import type { RefusalCode } from './user-error.js';
import type { Signer } from '../verify/receipt.js';
import type { Said } from '../i18n/said.js';

/** Who is acting and where, as the transport saw it. GM status is decided server-side by the transport. */
export type Actor = {
  guildId: string;
  channelId: string;
  userId: string;
  userName: string;
  /**
   * A GM: Manage Server permission, as the transport read it from the interaction; the router adds
   * members holding the server's configured GM role.
   */
  isGm: boolean;
  /** The member's role ids, as the interaction carried them. */
  roleIds?: string[];
};

/** Autocomplete choices as Discord takes them. */
export type Choices = { name: string; value: string }[];

/** A server's own commands on Discord (a rule pack's): created or replaced by name, and removed. */
export type GuildCommands = {
  upsert(guildId: string, command: AnyCommand): Promise<void>;
  remove(guildId: string, name: string): Promise<void>;
};

export type Services = {
  ledger: LedgerStore;
  /** Dice outside a game. */
  roller: Roller;
  /** Dice of a game's roll (its number in the game, and the roller's own number): its seeded stream in production. */
  gameRoller: (game: Game, draw: GameDraw) => Roller;
  log: Logger;
  /** Per-player rate limit on commands and buttons (none in the console and most tests). */
  limiter?: RateLimiter;
  /** The bot's receipt key (/roll receipt); none: receipts are refused, saying why. */
  signer?: Signer;
  /** The public beacon new games take their dice from; none: the old seeded schemes. */
  beacon?: BeaconSource;
  /** Registers a server's rule pack commands with Discord; none in the console (its router serves them). */
  guildCommands?: GuildCommands;
  /** The dice are hand-fed (the console's --dice): a game started now is marked scripted on its first row. */
  scriptedDice?: boolean;
  /** RETENTION_DAYS: the days a server's data is kept after the bot leaves it, unless the server set its own (default 30). */
  retentionDays?: number;
};

export type Context = {
  actor: Actor;
  services: Services;
  commands: readonly AnyCommand[];
  /** The options the user actually gave (defaults aside): an explicit option beats a roster value. */
  given: ReadonlySet<string>;
  /** What the transport knows of a channel named in the options, if anything. */
  channel: (id: string) => ChannelFacts | undefined;
  /** What the transport knows of a user named in the options (undefined: nothing, not a user it saw). */
  user?: (id: string) => UserFacts | undefined;
  /** Set when this roll answers a requested roll (/ask): see Answering. */
  answering?: Answering;
  /** The most bytes the reply's attachments may hold together. */
  attachmentLimit: number;
  /** The text of a file attached to the command (its attachment option's value is the id), refused past `maxBytes`. */
  file: (id: string, maxBytes: number) => Promise<{ name: string; text: string }>;
  /** The server's settings, read once per request whoever asks (the GM role, the GM and roll log channels). */
  settings: () => Promise<GuildSettings>;
  /** The settings as a roll's unit of work read them with its game: `settings` answers with them, unless read already. */
  settingsRead?: (s: GuildSettings) => void;
  /** The roster unit the request names (its `unit` option): a unit of work reads it with the channel's game. */
  unitNamed?: string;
  /** A bound beacon roll run again once its round is in: the round its dice come from. */
  beacon?: RollBeacon;
  /** Discord's signed request behind this interaction (HTTP mode): every row it writes commits to it. */
  evidence?: InteractionEvidence;
  /** The player's Discord locale: what the bot says to them is said in its language. */
  locale?: string;
  /** The server's preferred language: reminders and cards posted later in its channels are said in it. */
  guildLocale?: string;
};

/**
 * A channel as the transport sees it: whether it holds text messages, and which of the
 * permissions the bot needs to post there it lacks (undefined when that cannot be known).
 */
export type ChannelFacts = { text: boolean; botMissing?: string[] };

/** A user named in the options, as the transport knows them: the name shown, a bot or not, a member of the server or not. */
export type UserFacts = { name: string; bot: boolean; member: boolean };

/** The requested roll (/ask) a press answers: its roll's row links to it, and it is answered in that row's transaction. */
export type Answering = { requestId: string; gameId: string };

/** What the JSON console prints for a result that was recorded. */
export type RecordSummary = {
  command: string;
  system: string | null;
  roll_id: string;
  parent_roll_id?: string;
  /** A sealed roll's public summary carries no steps and no result. */
  sealed?: true;
  steps: Finding[];
  result: string | null;
  /** A dice roll (/dr, /roll dice): every die, its category, the Original and Final totals, the notes. */
  dice?: number[];
  category?: string | null;
  original?: number;
  final?: number;
  notes?: string[];
};

/**
 * A file sent with a message; the embed may show it as attachment://name. Small files (a chart) are
 * in memory; a large one (an export) is a spooled temporary file, removed once the reply is sent.
 */
export type Attachment = ({ name: string; data: Buffer } | { name: string; path: string; bytes: number }) & {
  /** Alt text Discord shows and reads out (a chart in words). */
  description?: string;
};

/** A file's bytes, read from its spool file when it has one (the console, tests). */
export const attachmentData = (f: Attachment): Buffer => ('data' in f ? f.data : fs.readFileSync(f.path));

/** Removes the spooled files of a reply, once it has been sent (or could not be). */
export function releaseFiles(reply: Reply): Promise<void> {
  if (reply.type !== 'message') return Promise.resolve();
  return Promise.all((reply.files ?? []).map((f) => ('path' in f ? removeSpooled(f.path) : undefined))).then(() => undefined);
}

/** Where a result's one-line copy goes (/config log-channel), and the line. */
export type RollLog = { channelId: string; line: string };

export type Reply =
  /** A new message: public results, or ephemeral notices. */
  | {
      type: 'message';
      ephemeral: boolean;
      embed: APIEmbed;
      buttons: Button[];
      record?: RecordSummary;
      files?: Attachment[];
      /** Shown only to the actor, after the public reply (a sealed result for a GM). */
      private?: { embed: APIEmbed; buttons: Button[] };
      /**
       * Posted to another channel of the server (a sealed result for the GMs' channel) before the
       * reply goes out; the reply's description then ends with `sent` or, when the post fails, `failed`.
       */
      notify?: { channelId: string; embed: APIEmbed; sent: string; failed: string };
      /** A one-line copy for the server's roll log channel, posted once the reply is out (with its link). */
      log?: RollLog;
      /** The one user the message pings (a requested roll's player); otherwise it pings nobody. */
      mention?: string;
      /** The row this message shows, remembered like a result's (a request's message, edited once it is settled). */
      shows?: string;
    }
  /** Replaces the message a button was pressed on. */
  | { type: 'update'; embed: APIEmbed; buttons: Button[]; record?: RecordSummary; log?: RollLog }
  /** Always ephemeral; `ref` ties it to the log line of an unexpected failure. */
  | { type: 'error'; message: string; ref?: string; code?: RefusalCode }
  | { type: 'choices'; choices: { name: string; value: string }[] }
  /**
   * A beacon game's roll, bound to a round not yet published: `embed` goes out at once (the channel
   * sees the binding within Discord's 3 s), and the message becomes `result` when the round is in.
   */
  | { type: 'bound'; embed: APIEmbed; result: Promise<Reply> };

export type ButtonHandler = (ctx: Context, target: string) => Reply | Promise<Reply>;

/** What a command, or one subcommand of a group, does: who may, with which options, and how. */
export type Action<O extends OptionMap> = {
  description: string;
  /** Who may run it (checked by the router before `run`). */
  access: AccessDecl<ParsedOptions<O>>;
  options: O;
  /** Checks across options that a single option's schema cannot make; returns the error sentence. */
  check?: (input: ParsedOptions<O>) => Said | undefined;
  run(ctx: Context, input: ParsedOptions<O>): Reply | Promise<Reply>;
};

/** What every command has besides its action (or its subcommands' actions). */
type CommandBase = {
  name: string;
  description: string;
  /** The rule system it adjudicates, if any. */
  system?: string;
  /** One example line for /help and the README. */
  example: string;
  /** Rate-limit tokens one use spends (default 1); heavy reads of the whole ledger spend more. */
  cost?: number;
  /** Button actions this command owns: custom_id `v1:<action>:<target>`. */
  buttons?: Record<string, ButtonHandler>;
  autocomplete?: (ctx: Context, option: string, value: string, subcommand?: string) => Choices | Promise<Choices>;
  /** The result message of one of its stored rolls, as first shown (for /reveal). */
  renderStored?: (ctx: Context, row: LedgerRow) => { embed: APIEmbed; buttons: Button[] } | Promise<{ embed: APIEmbed; buttons: Button[] }>;
};

/** The one command shape: a command with one action, or a group whose work is split into subcommands (Discord shows each as /name sub). */
export type CommandModule<O extends OptionMap> = CommandBase & Action<O>;
export type CommandGroup = CommandBase & { subcommands: Record<string, Action<any>> };
export type AnyCommand = CommandModule<any> | CommandGroup;

export const isGroup = (c: AnyCommand): c is CommandGroup => 'subcommands' in c;

/** The action a request for this command (and subcommand) runs, if there is one. */
export const actionOf = (c: AnyCommand, subcommand?: string): Action<any> | undefined =>
  isGroup(c) ? (subcommand ? c.subcommands[subcommand] : undefined) : c;

/** The options a request for this command (and subcommand) may carry. */
export const optionsOf = (c: AnyCommand, subcommand?: string): OptionMap | undefined => actionOf(c, subcommand)?.options;

/** Keeps the option types of a command module while checking its shape. */
export const defineCommand = <O extends OptionMap>(c: CommandModule<O>): CommandModule<O> => c;
export const defineSubcommand = <O extends OptionMap>(s: Action<O>): Action<O> => s;

export const CUSTOM_ID_VERSION = 'v1';
export const customId = (action: string, target: string) => `${CUSTOM_ID_VERSION}:${action}:${target}`;

export function parseCustomId(id: string): { action: string; target: string } | undefined {
  const m = /^v1:([a-z_]+):([0-9a-z_-]{1,64})$/.exec(id);
  return m ? { action: m[1]!, target: m[2]! } : undefined;
}
