import { REST } from '@discordjs/rest';
import { Client, Events, GatewayIntentBits, Options } from 'discord.js';
import type { Reply } from '../core/command.js';
import type { MessageLinks } from '../core/message-links.js';
import { Responder, type InteractionOutcome } from '../core/responder.js';
import type { Request } from '../core/router.js';
import type { Logger } from '../log.js';
import { gatewayInteraction, isRoutable } from './adapter.js';
import type { GuildPresence } from '../core/retention.js';
import { watchGuildEvents } from './guild-presence.js';

export type BotOptions = {
  token: string;
  /** REST base URL (…/api); discord.js appends the version. Unset: discord.com. */
  apiBase?: string | undefined;
  router: { handle(req: Request): Promise<Reply> };
  /** Where the messages that show rolls are remembered; flushed on stop. */
  links: MessageLinks;
  log: Logger;
  /** Work still running after this long is deferred (Discord allows 3 s for the first answer). */
  deferAfterMs?: number;
  /** Told what each interaction came to (the metrics). */
  observe?: (o: InteractionOutcome) => void;
  /** Told when the bot leaves a server or joins one (retention); gateway mode only. */
  presence?: GuildPresence;
};

/** Slash commands need guilds, channels and roles; users and members only while an interaction lasts. */
const CACHE_LIMITS = {
  ...Options.DefaultMakeCacheSettings,
  MessageManager: 0,
  PresenceManager: 0,
  ReactionManager: 0,
  ReactionUserManager: 0,
  GuildEmojiManager: 0,
  GuildStickerManager: 0,
  GuildScheduledEventManager: 0,
  StageInstanceManager: 0,
  VoiceStateManager: 0,
  ThreadMemberManager: 0,
  UserManager: { maxSize: 100, keepOverLimit: (u: { id: string; client: Client }) => u.id === u.client.user?.id },
  GuildMemberManager: { maxSize: 100, keepOverLimit: (m: { id: string; client: Client }) => m.id === m.client.user?.id },
};

/** `makeRequest` replaces how REST calls are made (HTTP mode catches the first interaction answer there). */
export function createClient(apiBase?: string, makeRequest?: (url: string, init: RequestInit) => Promise<Response>): Client {
  const rest = { ...(apiBase ? { api: apiBase } : {}), ...(makeRequest ? { makeRequest: makeRequest as never } : {}) };
  const client = new Client({
    intents: [GatewayIntentBits.Guilds],
    // Nothing the bot sends pings anyone: a unit named "@everyone" stays text. discord.js applies
    // this default to every payload (replies, follow-ups, edits, channel posts).
    allowedMentions: { parse: [] },
    makeCache: Options.cacheWithLimits(CACHE_LIMITS as Parameters<typeof Options.cacheWithLimits>[0]),
    rest,
  });
  exemptInteractionsFromGlobalLimit(client, rest);
  return client;
}

/**
 * Discord does not count requests made with an interaction's token (sent without the bot's token)
 * against the bot's global limit of 50 a second. @discordjs/rest exempts the first answer (its
 * callback) but counts the edits and follow-ups: 200 beacon results edited in at once waited up to
 * four seconds for a limit that is not there. They go through a REST manager of their own with no
 * global limit; each route's own limit (and a 429's retry) stays as it was.
 */
function exemptInteractionsFromGlobalLimit(client: Client, options: ConstructorParameters<typeof REST>[0]): void {
  const interactions = new REST({ ...options, globalRequestsPerSecond: Number.MAX_SAFE_INTEGER });
  const botToken = client.rest.queueRequest.bind(client.rest);
  client.rest.queueRequest = (request) => (request.auth === false ? interactions.queueRequest(request) : botToken(request));
}

/** A way interactions reach the bot; `ready`: serving them (connected to the gateway, or listening for HTTP). */
export type Transport = { start(): Promise<void>; stop(): Promise<void>; ready(): boolean };
/** The gateway transport, with its discord.js client. */
export type Bot = Transport & { client: Client };

export function createBot({ token, apiBase, router, links, log, deferAfterMs, observe, presence }: BotOptions): Bot {
  const client = createClient(apiBase);
  if (presence) watchGuildEvents(client, presence, log);
  const responder = new Responder(router, links, log, deferAfterMs, observe);
  client.on(Events.InteractionCreate, (i) => {
    if (isRoutable(i)) void responder.respond(gatewayInteraction(i));
  });
  logLifecycle(client, log);
  return {
    client,
    ready: () => client.isReady(),
    async start() {
      const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
      await client.login(token);
      await ready;
      log.info('connected to Discord', { user: client.user?.tag, guilds: client.guilds.cache.size });
    },
    async stop() {
      await links.flush();
      await client.destroy();
    },
  };
}

/** The gateway's life, for the admin: connects and resumes at info, drops and reconnects at warn, per-event detail at debug. */
function logLifecycle(client: Client, log: Logger): void {
  client.on(Events.Error, (err) => log.error('discord client error', { err }));
  client.on(Events.Warn, (msg) => log.warn('discord client warning', { msg }));
  client.on(Events.Debug, (msg) => log.debug('discord client', { msg }));
  client.on(Events.ShardReady, (shard) => log.info('gateway connected', { shard }));
  client.on(Events.ShardResume, (shard, replayed) => log.info('gateway resumed', { shard, replayed }));
  client.on(Events.ShardDisconnect, (event, shard) => log.warn('gateway disconnected', { shard, code: event.code }));
  client.on(Events.ShardReconnecting, (shard) => log.warn('gateway reconnecting', { shard }));
  client.on(Events.ShardError, (err, shard) => log.warn('gateway error', { shard, err }));
  client.on(Events.Invalidated, () => log.error('gateway session invalidated: Discord will not resume it'));
}
