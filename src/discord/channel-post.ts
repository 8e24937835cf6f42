import { REST } from '@discordjs/rest';
import { type APIChannel, type APIMessage, Routes } from 'discord.js';
import type { ChannelPost } from '../core/late-delivery.js';
import { componentsOf } from './interaction-replies.js';

/**
 * Posts a message to a channel through Discord's REST API, outside any interaction (a roll that
 * never reached its channel, late-delivery.ts): only into a channel of the roll's own server, and
 * pinging its roller alone.
 */
export function channelPoster(token: string, apiBase?: string): ChannelPost {
  const rest = new REST({ version: '10', ...(apiBase ? { api: apiBase } : {}) }).setToken(token);
  return async (guildId, channelId, m) => {
    const channel = (await rest.get(Routes.channel(channelId))) as APIChannel & { guild_id?: string };
    if (channel.guild_id !== guildId) throw new Error(`channel ${channelId} is not a channel of server ${guildId}`);
    const body = { content: m.content, embeds: [m.embed], components: componentsOf(m.buttons), allowed_mentions: { parse: [], users: [m.mention] } };
    return ((await rest.post(Routes.channelMessages(channelId), { body })) as APIMessage).id;
  };
}
