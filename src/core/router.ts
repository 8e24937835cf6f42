import { packCommand } from './pack-command.js';
import { fileText, type AttachedFile } from './attached-file.js';
import { packsOf } from './packs.js';
import { randomBytes } from 'node:crypto';
import { AlreadyRecordedError, LedgerWriteError } from '../ledger/errors.js';
import {
  actionOf,
  isGroup,
  optionsOf,
  parseCustomId,
  type Actor,
  type AnyCommand,
  type ChannelFacts,
  type UserFacts,
  type ButtonHandler,
  type Context,
  type RecordSummary,
  type Reply,
  type Services,
} from './command.js';
import { checkAccess } from './access.js';
import { parseOptions } from './options.js';
import { refuse, UserError } from './user-error.js';
import { wellFormedDeep } from '../util/text.js';
import type { GuildSettings } from '../ledger/settings.js';
import type { LedgerRow } from '../ledger/rows.js';
import type { APIEmbed } from 'discord.js';
import type { Button } from '../render/embed.js';
import { command as cmd, list, said } from '../i18n/said.js';
import { speak } from '../i18n/speak.js';
import { BeaconBinder } from './beacon-binding.js';
import { BeaconNeeded } from './beacon-needed.js';
import type { RollBeacon } from '../dice/seeded.js';
import { interactionEvidence, type RequestEvidence } from './evidence.js';
import { answering } from '../i18n/reader.js';
import { PendingClaim } from './claim.js';

/** What a transport (Discord gateway, console) hands the router. */
export type Request = (
  | {
      type: 'command';
      name: string;
      subcommand?: string | undefined;
      options: Record<string, unknown>;
      actor: Actor;
      /** What the transport knows of the channels named in the options. */
      channels?: Record<string, ChannelFacts>;
      /** What the transport knows of the users named in the options. */
      users?: Record<string, UserFacts>;
      /** The most bytes Discord accepts in this interaction's reply attachments (attachment_size_limit). */
      attachmentLimit?: number;
      /** Files attached to the command, by the id its attachment option carries. */
      files?: Record<string, AttachedFile>;
    }
  | { type: 'button'; customId: string; actor: Actor }
  | { type: 'autocomplete'; name: string; subcommand?: string | undefined; option: string; value: string; actor: Actor }
) & {
  /** Discord's id of the interaction: used once (a replay or a second delivery does nothing). The console has none. */
  interactionId?: string;
  /** The user's language as Discord sends it (`de`, `fr`, `en-GB` …): replies are in it where translated. */
  locale?: string;
  /** The server's preferred language (Discord's guild_locale): what the bot later posts there unprompted is said in it. */
  guildLocale?: string;
  /** Discord's signed request (HTTP mode): the rows it writes commit to it, and it is kept beside them. */
  evidence?: RequestEvidence;
};

/** A request a beacon roll binds (a command or a button). */
type Bound = Exclude<Request, { type: 'autocomplete' }>;

export const AUTOCOMPLETE_MAX = 25;
/** Discord's attachment limit for a server without boosts (8 MiB), when the transport does not say. */
export const DEFAULT_ATTACHMENT_LIMIT = 8 * 1024 * 1024;

/**
 * Routes every request to its command and turns every failure into an ephemeral reply: a bad
 * option names itself, a ledger failure says nothing was recorded, and anything unexpected is
 * logged under a reference the user can quote. Nothing thrown escapes.
 */
export class Router {
  private readonly byName = new Map<string, AnyCommand>();
  private readonly buttons = new Map<string, ButtonHandler>();
  /** What a press of each button action costs: its command's cost (a heavy read is as heavy pressed as typed). */
  private readonly buttonCost = new Map<string, number>();
  /** A beacon game's rolls wait for their round here (none without a beacon). */
  readonly binder: BeaconBinder<Bound> | undefined;

  constructor(
    readonly commands: readonly AnyCommand[],
    private readonly services: Services,
  ) {
    this.binder = services.beacon && new BeaconBinder<Bound>(services.beacon, services.ledger, services.log, (req, beacon) => this.redo(req, beacon));
    for (const c of commands) {
      if (this.byName.has(c.name)) throw new Error(`two commands are named ${c.name}`);
      this.byName.set(c.name, c);
      for (const [action, handler] of Object.entries(c.buttons ?? {})) {
        if (this.buttons.has(action)) throw new Error(`two commands handle the button action ${action}`);
        this.buttons.set(action, handler);
        this.buttonCost.set(action, c.cost ?? 1);
      }
    }
  }

  /** The command a server knows by this name: a built-in one, or a rule pack installed there. */
  async commandFor(guildId: string, name: string): Promise<AnyCommand | undefined> {
    const installed = this.byName.has(name) ? undefined : (await packsOf(this.services.ledger, guildId, [...this.byName.keys()])).get(name);
    return this.byName.get(name) ?? (installed && packCommand(installed));
  }

  async handle(raw: Request): Promise<Reply> {
    // Every transport's text made well-formed here, once (gateway, HTTP, console): names, options, ids.
    const req = wellFormedDeep(raw);
    return answering(req.locale, () => this.answer(req));
  }

  private async answer(req: Request): Promise<Reply> {
    try {
      this.spend(req);
      const claim = await this.claim(req);
      const ctx = await this.contextOf(req, undefined, claim);
      try {
        const answer = await this.dispatch(req, ctx);
        await claim?.settle();
        return await this.logged(ctx, answer);
      } catch (err) {
        // Refused or failed, the request is used once too (its transaction's claim rolled back with it).
        await claim?.settle();
        // A roll of a beacon game: nothing was written; the request binds to a round instead.
        if (err instanceof BeaconNeeded && this.binder && req.type !== 'autocomplete') return await this.binder.bind(req);
        throw err;
      }
    } catch (err) {
      return this.failure(req, err);
    }
  }

  /** A bound request run again with its round (the claim and the rate limit were spent when it was bound). */
  private redo(req: Bound, beacon: RollBeacon): Promise<Reply> {
    // Run when the round is in, outside the request that bound it: the reader is set again.
    return answering(req.locale, () => this.redone(req, beacon));
  }

  private async redone(req: Bound, beacon: RollBeacon): Promise<Reply> {
    try {
      const ctx = await this.contextOf(req, beacon);
      return await this.logged(ctx, await this.dispatch(req, ctx));
    } catch (err) {
      return this.failure(req, err);
    }
  }

  private async contextOf(req: Request, beacon?: RollBeacon, claim?: PendingClaim): Promise<Context> {
    const channels = (req.type === 'command' && req.channels) || {};
    const users = (req.type === 'command' && req.users) || {};
    let settings: Promise<GuildSettings> | undefined;
    const readSettings = () => (settings ??= this.services.ledger.settings.get(req.actor.guildId));
    const evidence = req.type === 'autocomplete' ? undefined : interactionEvidence(req.interactionId, req.evidence);
    return {
      actor: await this.withGmRole(req.actor, readSettings),
      settings: readSettings,
      settingsRead: (s) => {
        settings ??= Promise.resolve(s);
      },
      // The command's first transaction claims the interaction (PendingClaim).
      services: claim ? { ...this.services, ledger: claim.ledger } : this.services,
      commands: this.commands,
      given: new Set(req.type === 'command' ? Object.keys(req.options) : []),
      channel: (id) => channels[id],
      user: (id) => (Object.hasOwn(users, id) ? users[id] : undefined),
      attachmentLimit: (req.type === 'command' && req.attachmentLimit) || DEFAULT_ATTACHMENT_LIMIT,
      file: (id, maxBytes) => fileText(req.type === 'command' ? req.files?.[id] : undefined, maxBytes),
      ...(beacon ? { beacon } : {}),
      ...(evidence ? { evidence } : {}),
      ...(req.locale ? { locale: req.locale } : {}),
      ...(req.guildLocale ? { guildLocale: req.guildLocale } : {}),
    };
  }

  /** Every failure as the user's ephemeral answer: theirs to fix, the ledger's, or unexpected (logged under a ref). */
  private failure(req: Request, err: unknown): Reply {
    if (err instanceof UserError) return { type: 'error', message: speak(req.locale, err.said), ...(err.code ? { code: err.code } : {}) };
    const ref = randomBytes(4).toString('hex');
    if (err instanceof LedgerWriteError) {
      this.services.log.error('ledger write failed', { ref, request: describe(req), err });
      return { type: 'error', ref, message: speak(req.locale, said('ledger', { ref })) };
    }
    if (err instanceof AlreadyRecordedError) return { type: 'error', message: speak(req.locale, said('alreadyDone')) };
    this.services.log.error('handler failed', { ref, request: describe(req), err });
    return { type: 'error', ref, message: speak(req.locale, said('failed', { ref })) };
  }

  /**
   * A stored roll as its own command shows it, for a reply that never went out (late-delivery.ts):
   * read as its roller would see it, in its channel; undefined when its command shows no stored roll.
   */
  async renderStored(row: LedgerRow): Promise<{ embed: APIEmbed; buttons: Button[] } | undefined> {
    const render = (await this.commandFor(row.guild_id, row.command))?.renderStored;
    if (!render) return undefined;
    const actor: Actor = { guildId: row.guild_id, channelId: row.channel_id, userId: row.user_id, userName: row.user_name, isGm: false };
    let settings: Promise<GuildSettings> | undefined;
    return render(
      {
        actor,
        settings: () => (settings ??= this.services.ledger.settings.get(row.guild_id)),
        services: this.services,
        commands: this.commands,
        given: new Set(),
        channel: () => undefined,
        file: (_id, maxBytes) => fileText(undefined, maxBytes),
        attachmentLimit: DEFAULT_ATTACHMENT_LIMIT,
      },
      row,
    );
  }

  /** Refuses a player who has run out of rate-limit tokens, before anything is read or written. */
  private spend(req: Request): void {
    const limiter = this.services.limiter;
    if (!limiter || req.type === 'autocomplete') return;
    const taken = limiter.take(`${req.actor.guildId}:${req.actor.userId}`, this.costOf(req));
    if (!taken.ok) refuse('rateLimited', { s: taken.retryAfterS }, 'rate_limited');
  }

  /** What a request costs in rate-limit tokens: its command's cost, a button its command's (a heavy read is as heavy pressed as typed). */
  private costOf(req: Exclude<Request, { type: 'autocomplete' }>): number {
    return req.type === 'command' ? (this.byName.get(req.name)?.cost ?? 1) : (this.buttonCost.get(parseCustomId(req.customId)?.action ?? '') ?? 1);
  }

  /**
   * Every interaction is used once, on every transport and process: its id is claimed in the
   * ledger before anything is written, by the command's first transaction or alone when it is done
   * (PendingClaim). A heavy read (a cost over one token) is claimed before it runs: a replayed
   * request must not buy it again. Autocomplete records nothing and is exempt.
   */
  private async claim(req: Request): Promise<PendingClaim | undefined> {
    const id = req.interactionId;
    if (!id || req.type === 'autocomplete') return undefined;
    const claim = new PendingClaim(this.services.ledger, id, req.actor.guildId);
    if (this.costOf(req) > 1) await claim.settle();
    return claim;
  }

  /**
   * A public result (a message or update carrying a record, not sealed: only results carry a
   * record, and none is ephemeral) gets its one-line copy for the server's roll log channel, when
   * one is set (/config log-channel).
   */
  private async logged(ctx: Context, answer: Reply): Promise<Reply> {
    if ((answer.type !== 'message' && answer.type !== 'update') || !answer.record || answer.record.sealed) return answer;
    try {
      const channelId = (await ctx.settings()).log_channel_id;
      return channelId ? { ...answer, log: { channelId, line: logLine(ctx.actor, answer.record, answer.embed.title) } } : answer;
    } catch (err) {
      // The roll is committed: a failed read of the setting costs the copy, never the reply.
      this.services.log.warn('could not read the roll log channel; no copy is posted', { guild: ctx.actor.guildId, err });
      return answer;
    }
  }

  /** GM status is decided here, server-side, from the member data and the server's settings. */
  private async withGmRole(actor: Actor, settings: () => Promise<GuildSettings>): Promise<Actor> {
    if (actor.isGm || !actor.roleIds?.length) return actor;
    const role = (await settings()).gm_role_id;
    return role && actor.roleIds.includes(role) ? { ...actor, isGm: true } : actor;
  }

  private async dispatch(req: Request, ctx: Context): Promise<Reply> {
    if (req.type === 'button') {
      const parsed = parseCustomId(req.customId);
      const handler = parsed && this.buttons.get(parsed.action);
      if (!parsed || !handler) return { type: 'error', message: speak(req.locale, said('unknownButton')) };
      return handler(ctx, parsed.target);
    }
    // A name no built-in command has may be a rule pack installed in this server.
    const command = await this.commandFor(ctx.actor.guildId, req.name);
    if (req.type === 'autocomplete') {
      const spec = command && optionsOf(command, req.subcommand)?.[req.option];
      const choices = spec?.suggest
        ? spec.suggest(req.value).map((v) => ({ name: v, value: v }))
        : ((await command?.autocomplete?.(ctx, req.option, req.value, req.subcommand)) ?? []);
      return { type: 'choices', choices: choices.slice(0, AUTOCOMPLETE_MAX) };
    }
    if (!command) {
      const names = list(
        [...this.byName.keys()].map((n) => cmd(n)),
        'comma',
      );
      return { type: 'error', message: speak(req.locale, said('noCommand', { name: req.name, names })) };
    }
    const handler = actionOf(command, req.subcommand);
    if (!handler) {
      const names = isGroup(command) ? Object.keys(command.subcommands) : [];
      const values = { command: cmd(command.name), names: list(names, 'comma'), example: command.example };
      const text = req.subcommand ? said('noSubcommand', { ...values, given: `/${command.name} ${req.subcommand}` }) : said('takesOneOf', values);
      return { type: 'error', message: speak(req.locale, text) };
    }
    const label = isGroup(command) ? `${command.name} ${req.subcommand}` : command.name;
    const parsed = parseOptions(label, handler.options, req.options);
    if (!parsed.ok) return { type: 'error', message: speak(req.locale, parsed.error) };
    const problem = handler.check?.(parsed.value);
    if (problem) return { type: 'error', message: speak(req.locale, problem) };
    checkAccess(ctx, handler.access, parsed.value);
    const unit = (parsed.value as { unit?: unknown }).unit;
    return handler.run(typeof unit === 'string' && unit ? { ...ctx, unitNamed: unit } : ctx, parsed.value);
  }
}

/** The roll log's line: who, the result's title (which says what happened) and the roll id (the transport adds the message link). */
function logLine(actor: Actor, r: RecordSummary, title: string | undefined): string {
  return `<@${actor.userId}> · **${title ?? `/${r.command}`}** · \`${r.roll_id}\``;
}

function describe(req: Request) {
  // The signed body holds a reply token: it is never logged.
  const { actor, evidence: _never, ...rest } = req;
  return { ...rest, guild: actor.guildId, channel: actor.channelId, user: actor.userId };
}
