import { Client, Events, GatewayIntentBits, MessageFlags, Options, type Interaction } from 'discord.js';
import type { Router } from '../core/router.js';
import type { Logger } from '../log.js';
import { actorOf, deliver, requestOf } from './adapter.js';

export type BotOptions = {
  token: string;
  /** REST base URL (…/api); discord.js appends the version. Unset: discord.com. */
  apiBase?: string | undefined;
  router: Router;
  log: Logger;
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

export function createClient(apiBase?: string): Client {
  return new Client({
    intents: [GatewayIntentBits.Guilds],
    makeCache: Options.cacheWithLimits(CACHE_LIMITS as Parameters<typeof Options.cacheWithLimits>[0]),
    ...(apiBase ? { rest: { api: apiBase } } : {}),
  });
}

/** Handles one interaction end to end; never throws (a failure is logged and the process keeps serving). */
export async function onInteraction(router: Router, log: Logger, i: Interaction): Promise<void> {
  if (!i.isChatInputCommand() && !i.isButton() && !i.isAutocomplete()) return;
  try {
    const actor = actorOf(i);
    if (!actor) {
      if (!i.isAutocomplete()) {
        await i.reply({ content: '⚠️ Morale Officer works inside a server, where rolls are recorded.', flags: MessageFlags.Ephemeral });
      } else await i.respond([]);
      return;
    }
    const request = requestOf(i, actor)!;
    // Slow work (exports, charts) would miss Discord's 3 seconds: acknowledge first, answer after.
    const deferred = i.isChatInputCommand() && router.isSlow(request);
    if (deferred) await i.deferReply({ flags: MessageFlags.Ephemeral });
    const reply = await router.handle(request);
    const messageId = await deliver(i, reply, deferred);
    // The message that shows a roll is remembered beside the ledger, for links in /history.
    if (messageId && 'record' in reply && reply.record) router.messageShown(reply.record.roll_id, messageId);
  } catch (err) {
    // The roll (if any) is already in the ledger; only the delivery failed.
    log.error('could not answer the interaction', { interaction: i.id, err });
  }
}

export type Bot = { client: Client; start(): Promise<void>; stop(): Promise<void> };

export function createBot({ token, apiBase, router, log }: BotOptions): Bot {
  const client = createClient(apiBase);
  client.on(Events.InteractionCreate, (i) => void onInteraction(router, log, i));
  client.on(Events.Error, (err) => log.error('discord client error', { err }));
  client.on(Events.Warn, (msg) => log.warn('discord client warning', { msg }));
  return {
    client,
    async start() {
      const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
      await client.login(token);
      await ready;
      log.info('connected to Discord', { user: client.user?.tag, guilds: client.guilds.cache.size });
    },
    async stop() {
      await router.flushLinks();
      await client.destroy();
    },
  };
}
