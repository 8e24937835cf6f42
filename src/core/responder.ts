import type { APIEmbed } from 'discord.js';
import type { Logger } from '../log.js';
import { afterNotify } from './replies.js';
import { parseCustomId, releaseFiles, type Actor, type Reply, type RollLog } from './command.js';
import type { MessageLinks } from './message-links.js';
import type { Request } from './router.js';

/**
 * One interaction as a transport sees it: who acts, what they asked, and the two ways to answer.
 * The gateway adapter implements it over discord.js; another transport (HTTP) the same way.
 */
export interface TransportInteraction {
  kind: 'command' | 'button' | 'autocomplete';
  /** Who acts, or undefined outside a server (rolls are recorded per server). */
  actor(): Actor | undefined;
  /** Whether the server itself installed the app (not only the user): only then may it record there. */
  installedByServer(): boolean;
  request(actor: Actor): Request;
  /** Acknowledge now and answer later (a command: a deferred ephemeral reply; a button: a deferred update). */
  defer(): Promise<void>;
  /** Posts an embed to another channel of the interaction's server; throws when it cannot. */
  post(channelId: string, embed: APIEmbed): Promise<void>;
  /** The link to a message the reply made, where the transport knows the channel (Discord's jump URL). */
  messageUrl?(messageId: string): string;
  /** Sends the reply (after a defer, edits it in); returns the id of the message that shows a result. */
  deliver(reply: Reply, deferred: boolean): Promise<string | undefined>;
  /** Replaces the public message the interaction's reply made (a bound beacon roll's result); returns its id. */
  edit?(reply: Reply): Promise<string | undefined>;
}

export const OUTSIDE_A_SERVER = 'Morale Officer works inside a server, where rolls are recorded.';
export const NOT_INSTALLED_HERE =
  'Morale Officer has not been added to this server, so it cannot record rolls here (a personal install does not count). A server admin can add it from its invite link.';

/** Discord gives an interaction 3 s for its first answer: work still running at 2 s is deferred. */
export const DEFER_AFTER_MS = 2_000;

/** What one interaction came to: the responder logs it (one info line) and hands it to the metrics. */
export type InteractionOutcome = {
  id: string | undefined;
  guild: string | undefined;
  command: string;
  result: string;
  ms: number;
  deferred: boolean;
  ref?: string | undefined;
};

/**
 * The interaction sequence, the same for every transport: actor → request → (defer if the work is
 * still running after `deferAfterMs`) → handle → deliver → remember the message that showed a roll.
 * Never throws: a failure is logged and the process keeps serving (the roll, if any, is already
 * in the ledger; only the delivery failed). Each interaction ends in one `info` line saying what it
 * came to, for the admin a player tells "the bot ignored me".
 */
export class Responder {
  constructor(
    private readonly router: { handle(req: Request): Promise<Reply> },
    private readonly links: MessageLinks,
    private readonly log: Logger,
    private readonly deferAfterMs = DEFER_AFTER_MS,
    private readonly observe: (o: InteractionOutcome) => void = () => undefined,
  ) {}

  async respond(i: TransportInteraction): Promise<void> {
    const start = performance.now();
    const outcome: InteractionOutcome = { id: undefined, guild: undefined, command: i.kind, result: 'failed', ms: 0, deferred: false };
    try {
      const actor = i.actor();
      // A user-installed copy of the app could otherwise record rolls for a server that never added it.
      const refusal = !actor ? OUTSIDE_A_SERVER : !i.installedByServer() ? NOT_INSTALLED_HERE : undefined;
      if (!actor || refusal) {
        outcome.result = !actor ? 'outside_a_server' : 'not_installed';
        await i.deliver(i.kind === 'autocomplete' ? { type: 'choices', choices: [] } : { type: 'error', message: refusal ?? OUTSIDE_A_SERVER }, false);
        return;
      }
      const req = i.request(actor);
      Object.assign(outcome, { id: req.interactionId, guild: actor.guildId, command: labelOf(req) });
      this.log.debug('interaction received', { id: req.interactionId, guild: actor.guildId, command: outcome.command });
      const handling = this.router.handle(req).then((reply) => this.notified(i, reply));
      outcome.deferred = i.kind !== 'autocomplete' && (await this.late(handling));
      if (outcome.deferred) await i.defer();
      const reply = await handling;
      if (reply.type === 'bound') return await this.bound(i, reply, outcome);
      Object.assign(outcome, resultOf(reply));
      await this.deliver(i, reply, outcome.deferred);
    } catch (err) {
      outcome.result = 'failed';
      this.log.error('could not answer the interaction', { id: outcome.id, err });
    } finally {
      outcome.ms = Math.round((performance.now() - start) * 10) / 10;
      this.log.info('interaction', outcome);
      this.observe(outcome);
    }
  }

  /**
   * A beacon roll: the binding goes out at once, public, and the same message becomes the result
   * once the round is in (a refusal then is shown in its place: the binding was public).
   */
  private async bound(i: TransportInteraction, reply: Extract<Reply, { type: 'bound' }>, outcome: InteractionOutcome): Promise<void> {
    await i.deliver({ type: 'message', ephemeral: false, embed: reply.embed, buttons: [] }, outcome.deferred);
    const result = await this.notified(i, await reply.result);
    Object.assign(outcome, resultOf(result));
    try {
      const messageId = i.edit ? await i.edit(result) : await i.deliver(result, true);
      if (messageId && 'record' in result && result.record) this.links.shown(result.record.roll_id, messageId);
      if ('log' in result && result.log) await this.postLog(i, result.log, messageId);
    } finally {
      await releaseFiles(result);
    }
  }

  private async deliver(i: TransportInteraction, reply: Reply, deferred: boolean): Promise<void> {
    try {
      const messageId = await i.deliver(reply, deferred);
      const shown = ('record' in reply && reply.record?.roll_id) || (reply.type === 'message' && reply.shows);
      if (messageId && shown) this.links.shown(shown, messageId);
      if ('log' in reply && reply.log) await this.postLog(i, reply.log, messageId);
    } finally {
      await releaseFiles(reply);
    }
  }

  /** The result's one-line copy in the roll log channel, linking the message; a failure is logged, the reply stands. */
  private async postLog(i: TransportInteraction, log: RollLog, messageId: string | undefined): Promise<void> {
    const link = messageId && i.messageUrl ? ` · [message](${i.messageUrl(messageId)})` : '';
    try {
      await i.post(log.channelId, { description: `${log.line}${link}` });
    } catch (err) {
      this.log.warn('could not post to the roll log channel', { channelId: log.channelId, err });
    }
  }

  /**
   * Makes a reply's post to another channel (a sealed result to the GMs' channel) before the reply
   * itself, so the reply says truly whether it arrived.
   */
  private async notified(i: TransportInteraction, reply: Reply): Promise<Reply> {
    if (reply.type !== 'message' || !reply.notify) return reply;
    try {
      await i.post(reply.notify.channelId, reply.notify.embed);
      return afterNotify(reply, true);
    } catch (err) {
      this.log.warn('could not post to the GM channel; the reply says so', { channelId: reply.notify.channelId, err });
      return afterNotify(reply, false);
    }
  }

  /** Whether the work is still running when the defer delay is up. */
  private late(work: Promise<unknown>): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), this.deferAfterMs);
    });
    return Promise.race([
      work.then(
        () => false,
        () => false,
      ),
      late,
    ]).finally(() => clearTimeout(timer));
  }
}

/** How an interaction is named in the log and the metrics: a bounded set (commands, button actions). */
function labelOf(req: Request): string {
  if (req.type === 'button') return `button:${parseCustomId(req.customId)?.action ?? 'unknown'}`;
  const name = req.subcommand ? `/${req.name} ${req.subcommand}` : `/${req.name}`;
  return req.type === 'autocomplete' ? `autocomplete:${name} ${req.option}` : name;
}

/** ok, or why not: refused (the user can fix it), a refusal's own code (rate_limited, duplicate), failed (a bug: its ref). */
function resultOf(reply: Reply): Pick<InteractionOutcome, 'result' | 'ref'> {
  if (reply.type !== 'error') return { result: 'ok' };
  if (reply.ref) return { result: 'failed', ref: reply.ref };
  return { result: reply.code ?? 'refused' };
}
