import { DiscordAPIError, REST } from '@discordjs/rest';
import { type APIChannel, type APIMessage, Routes } from 'discord.js';
import type { ClockPost } from '../core/schedule.js';

/** Discord's "Unknown Message" and "Unknown Channel": the card was deleted (or its channel was). */
const GONE = new Set([10008, 10003]);

/**
 * The scheduler's voice on Discord's REST API, outside any interaction (a reminder, a game's status
 * card): only into a channel of the game's own server, pinging the player reminded and nobody else.
 */
export function clockPoster(token: string, apiBase?: string): ClockPost {
  const rest = new REST({ version: '10', ...(apiBase ? { api: apiBase } : {}) }).setToken(token);
  const inServer = async (guildId: string, channelId: string) => {
    const channel = (await rest.get(Routes.channel(channelId))) as APIChannel & { guild_id?: string };
    if (channel.guild_id !== guildId) throw new Error(`channel ${channelId} is not a channel of server ${guildId}`);
  };
  return {
    async post(guildId, channelId, m) {
      await inServer(guildId, channelId);
      const body = {
        ...(m.content ? { content: m.content } : {}),
        ...(m.embed ? { embeds: [m.embed] } : {}),
        allowed_mentions: { parse: [], users: m.mention ? [m.mention] : [] },
        ...(m.nonce ? { nonce: m.nonce, enforce_nonce: true } : {}),
      };
      return ((await rest.post(Routes.channelMessages(channelId), { body })) as APIMessage).id;
    },
    async edit(_guildId, channelId, messageId, embed) {
      try {
        await rest.patch(Routes.channelMessage(channelId, messageId), { body: { embeds: [embed], components: [], allowed_mentions: { parse: [] } } });
        return true;
      } catch (err) {
        if (err instanceof DiscordAPIError && typeof err.code === 'number' && GONE.has(err.code)) return false;
        throw err;
      }
    },
  };
}
