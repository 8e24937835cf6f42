import { REST } from '@discordjs/rest';
import { type Client, Events, type Guild, Routes, ShardClientUtil } from 'discord.js';
import type { GuildPresence } from '../core/retention.js';
import type { Logger } from '../log.js';

/** Discord's largest page of GET /users/@me/guilds. */
export const GUILDS_PAGE = 200;

/**
 * Every server the bot is in, as Discord lists them to its token (GET /users/@me/guilds, a page of
 * 200 at a time after the last id): HTTP mode has no gateway to say when the bot leaves one. Throws
 * when a page fails: a list cut short must never read as servers left.
 */
export async function listBotGuilds(rest: REST): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let after: string | undefined; ; ) {
    const query = new URLSearchParams({ limit: String(GUILDS_PAGE), ...(after ? { after } : {}) });
    const page = (await rest.get(Routes.userGuilds(), { query })) as { id: string }[];
    for (const g of page) ids.add(g.id);
    if (page.length < GUILDS_PAGE) return ids;
    after = page[page.length - 1]!.id;
  }
}

/**
 * HTTP mode: the bot's servers looked at now (`first`) and every `everyMs` (the timer never keeps
 * the process alive), the servers left and back recorded; a look that fails is logged and changes nothing.
 */
export function watchGuildList(o: { token: string; apiBase?: string | undefined; presence: GuildPresence; log: Logger; everyMs: number }): {
  first: Promise<void>;
  look(): Promise<void>;
  stop(): void;
} {
  const rest = new REST({ version: '10', ...(o.apiBase ? { api: o.apiBase } : {}) }).setToken(o.token);
  const look = async () => {
    try {
      const seenAt = new Date().toISOString();
      const changed = await o.presence.reconcile(await listBotGuilds(rest), seenAt);
      if (changed.left || changed.back) o.log.info("looked at the bot's servers", changed);
    } catch (err) {
      o.log.warn("could not look at the bot's servers: nothing is marked left until a look succeeds", { err });
    }
  };
  const first = look();
  const timer = setInterval(() => void look(), o.everyMs);
  timer.unref();
  return { first, look, stop: () => clearInterval(timer) };
}

/** Whether a server's events come to this client's shards (a snowflake only: anything else is no server of Discord's). */
function ownShard(client: Client): (guildId: string) => boolean {
  const shards = Array.isArray(client.options.shards) ? client.options.shards : [0];
  const count = client.options.shardCount ?? 1;
  return (guildId) => /^\d{17,20}$/.test(guildId) && shards.includes(ShardClientUtil.shardIdForGuildId(guildId, count));
}

/**
 * Gateway mode: the bot leaving a server (guildDelete; one unavailable through an outage is not
 * left) and joining one (guildCreate); at ready, the servers it was removed from or added back to
 * while it was not running, from the guilds the gateway listed to this shard.
 */
export function watchGuildEvents(client: Client, presence: GuildPresence, log: Logger): void {
  const failed = (what: string, guildId: string) => (err: unknown) => log.warn(`could not record that the bot ${what} a server`, { guild: guildId, err });
  client.on(Events.GuildDelete, (guild: Guild) => {
    if (guild.available === false) return;
    presence.left(guild.id).catch(failed('left', guild.id));
  });
  client.on(Events.GuildCreate, (guild: Guild) => {
    presence.back(guild.id).catch(failed('joined', guild.id));
  });
  client.once(Events.ClientReady, () => {
    const seenAt = new Date().toISOString();
    presence.reconcile(new Set(client.guilds.cache.keys()), seenAt, ownShard(client)).catch((err: unknown) => {
      log.warn("could not compare the bot's servers with the ledger's", { err });
    });
  });
}
