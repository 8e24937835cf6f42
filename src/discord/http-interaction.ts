import type { REST } from '@discordjs/rest';
import type { APIEmbed } from 'discord.js';
import { z } from 'zod';
import type { Actor, ChannelFacts, UserFacts } from '../core/command.js';
import type { AttachedFile } from '../core/attached-file.js';
import type { RequestEvidence } from '../core/evidence.js';
import type { TransportInteraction } from '../core/responder.js';
import type { Request } from '../core/router.js';
import { type FirstAnswer, type InteractionIds, InteractionReplies } from './interaction-replies.js';

/**
 * An interaction as Discord POSTs it to the HTTP endpoint, read by our own schema (the fields the
 * bot acts on; others are ignored), and turned into the router's request: no client library's
 * objects in between. The gateway path builds the same request from discord.js's objects (adapter.ts).
 */

const Snowflake = z.string().regex(/^\d{1,20}$/);
const User = z.object({ id: Snowflake, username: z.string(), global_name: z.string().nullish(), bot: z.boolean().optional() });
const Member = z.object({
  user: User.optional(),
  nick: z.string().nullish(),
  roles: z.array(Snowflake).optional(),
  permissions: z.string().regex(/^\d+$/).optional(),
});

type Option = { name: string; type: number; value?: string | number | boolean | undefined; options?: Option[] | undefined; focused?: boolean | undefined };
const Option: z.ZodType<Option> = z.lazy(() =>
  z.object({
    name: z.string(),
    type: z.number().int(),
    value: z.union([z.string(), z.number(), z.boolean()]).optional(),
    options: z.array(Option).optional(),
    focused: z.boolean().optional(),
  }),
);

/** What Discord resolved beside the options: the users, members, channels and files they name. */
const Resolved = z.object({
  users: z.record(z.string(), User).optional(),
  members: z.record(z.string(), z.object({ nick: z.string().nullish() })).optional(),
  channels: z.record(z.string(), z.object({ type: z.number().int() })).optional(),
  attachments: z.record(z.string(), z.object({ filename: z.string(), size: z.number().nonnegative(), url: z.string() })).optional(),
});

export const RawInteraction = z.object({
  id: Snowflake,
  application_id: Snowflake,
  type: z.number().int(),
  token: z.string().min(1),
  guild_id: Snowflake.optional(),
  channel_id: Snowflake.optional(),
  channel: z.object({ id: Snowflake }).optional(),
  member: Member.optional(),
  user: User.optional(),
  locale: z.string().optional(),
  guild_locale: z.string().optional(),
  authorizing_integration_owners: z.record(z.string(), z.string()).optional(),
  attachment_size_limit: z.number().int().positive().optional(),
  data: z
    .object({
      name: z.string().optional(),
      type: z.number().int().optional(),
      options: z.array(Option).optional(),
      resolved: Resolved.optional(),
      custom_id: z.string().optional(),
      component_type: z.number().int().optional(),
    })
    .optional(),
  message: z.object({ id: Snowflake }).optional(),
});
export type RawInteraction = z.infer<typeof RawInteraction>;

/** Discord's numbers for what the bot tells apart. */
const INTERACTION = { command: 2, component: 3, autocomplete: 4 } as const;
const OPTION = { subcommand: 1, user: 6, channel: 7, attachment: 11 } as const;
const ADMINISTRATOR = 1n << 3n;
const MANAGE_GUILD = 1n << 5n;
/** Guild text and announcement channels: where a result can be posted. */
const TEXT_CHANNELS = new Set([0, 5]);
const GUILD_INSTALL = '0';

/** The kind of interaction the router takes (a slash command, a button, autocomplete), or undefined for any other. */
export function kindOf(raw: RawInteraction): InteractionIds['kind'] | undefined {
  if (raw.type === INTERACTION.command && raw.data?.name && (raw.data.type ?? 1) === 1) return 'command';
  if (raw.type === INTERACTION.autocomplete && raw.data?.name) return 'autocomplete';
  if (raw.type === INTERACTION.component && raw.data?.component_type === 2 && raw.data.custom_id !== undefined && raw.message) return 'button';
  return undefined;
}

/** Who acts, from what Discord sent with the interaction; GM status from the member's permissions (Administrator holds them all). */
export function actorOf(raw: RawInteraction): Actor | undefined {
  const guildId = raw.guild_id;
  const channelId = raw.channel?.id ?? raw.channel_id;
  const user = raw.member?.user ?? raw.user;
  if (!guildId || !channelId || !user) return undefined;
  const permissions = BigInt(raw.member?.permissions ?? '0');
  return {
    guildId,
    channelId,
    userId: user.id,
    // Made well-formed by the router, which every transport passes through, before it can reach a hash.
    userName: raw.member?.nick ?? user.global_name ?? user.username,
    isGm: (permissions & (ADMINISTRATOR | MANAGE_GUILD)) !== 0n,
    // Every member holds @everyone (its id is the guild's): it never makes anyone a GM.
    roleIds: (raw.member?.roles ?? []).filter((id) => id !== guildId),
  };
}

/** The subcommand (if any) and the options given to it. */
function optionList(raw: RawInteraction): { subcommand?: string; list: Option[] } {
  const top = raw.data?.options ?? [];
  const sub = top.find((o) => o.type === OPTION.subcommand);
  return sub ? { subcommand: sub.name, list: sub.options ?? [] } : { list: top };
}

/** What Discord resolved for the options of one type, by the id each option's value is. */
function resolvedFor<T>(list: Option[], type: number, find: (id: string) => T | undefined): Record<string, T> {
  const out: Record<string, T> = {};
  for (const o of list) {
    const found = o.type === type && typeof o.value === 'string' ? find(o.value) : undefined;
    if (found !== undefined) out[o.value as string] = found;
  }
  return out;
}

/** What the options name beyond their values: channels (text or not), users (name, bot, member) and files. */
function namedInOptions(raw: RawInteraction, list: Option[]) {
  const r = raw.data?.resolved;
  const channels = resolvedFor<ChannelFacts>(list, OPTION.channel, (id) => {
    const c = r?.channels?.[id];
    return c && { text: TEXT_CHANNELS.has(c.type) };
  });
  const users = resolvedFor<UserFacts>(list, OPTION.user, (id) => {
    const u = r?.users?.[id];
    const member = r?.members?.[id];
    return u && { name: member?.nick ?? u.global_name ?? u.username, bot: u.bot ?? false, member: Boolean(member) };
  });
  const files = resolvedFor<AttachedFile>(list, OPTION.attachment, (id) => {
    const a = r?.attachments?.[id];
    return a && { name: a.filename, size: a.size, url: a.url };
  });
  return { channels, users, ...(Object.keys(files).length ? { files } : {}) };
}

/** The router's request for an interaction of a kind it takes. */
export function requestOf(raw: RawInteraction, kind: InteractionIds['kind'], actor: Actor, evidence?: RequestEvidence): Request {
  const said = { locale: raw.locale, ...(raw.guild_locale ? { guildLocale: raw.guild_locale } : {}) };
  const { subcommand, list } = optionList(raw);
  if (kind === 'autocomplete') {
    const focused = list.find((o) => o.focused);
    return { type: 'autocomplete', name: raw.data!.name!, subcommand, option: focused?.name ?? '', value: String(focused?.value ?? ''), actor, ...said };
  }
  const signed = { interactionId: raw.id, ...said, ...(evidence ? { evidence } : {}) };
  if (kind === 'button') return { type: 'button', customId: raw.data!.custom_id!, actor, ...signed };
  return {
    type: 'command',
    name: raw.data!.name!,
    ...(subcommand ? { subcommand } : {}),
    options: Object.fromEntries(list.map((o) => [o.name, o.value])),
    actor,
    ...namedInOptions(raw, list),
    ...(raw.attachment_size_limit ? { attachmentLimit: raw.attachment_size_limit } : {}),
    ...signed,
  };
}

/** What an HTTP interaction answers with: the interaction webhook's REST (no global limit), the bot's own, and the first answer. */
export type HttpAnswering = { hooks: REST; bot: REST; first: FirstAnswer; evidence?: RequestEvidence };

/** An interaction that arrived over HTTP as the responder's transport interaction; undefined for a kind the bot does not take. */
export function httpInteraction(raw: RawInteraction, a: HttpAnswering): TransportInteraction | undefined {
  const kind = kindOf(raw);
  if (!kind) return undefined;
  const ids: InteractionIds = { id: raw.id, applicationId: raw.application_id, token: raw.token, kind, ...(raw.message ? { message: raw.message.id } : {}) };
  const replies = new InteractionReplies(a.hooks, ids, a.first);
  const guildId = raw.guild_id;
  return {
    kind,
    actor: () => actorOf(raw),
    // Discord names who authorised the interaction: a server install carries the server's id under GuildInstall.
    installedByServer: () => !!guildId && raw.authorizing_integration_owners?.[GUILD_INSTALL] === guildId,
    request: (actor) => requestOf(raw, kind, actor, a.evidence),
    defer: () => replies.defer(),
    post: (channelId, embed) => postInServer(a.bot, guildId, channelId, embed),
    deliver: (reply, deferred) => replies.deliver(reply, deferred),
    edit: (reply) => replies.edit(reply),
    messageUrl: (messageId) => `https://discord.com/channels/${guildId}/${raw.channel?.id ?? raw.channel_id}/${messageId}`,
  };
}

/** Posts an embed to a channel of this server (its own guild_id checked first: nothing is cached over HTTP). */
async function postInServer(bot: REST, guildId: string | undefined, channelId: string, embed: APIEmbed): Promise<void> {
  const channel = (await bot.get(`/channels/${encodeURIComponent(channelId)}`)) as { guild_id?: string };
  if (!guildId || channel.guild_id !== guildId) throw new Error(`channel ${channelId} is not a channel of this server the bot can post in`);
  await bot.post(`/channels/${encodeURIComponent(channelId)}/messages`, { body: { embeds: [embed], allowed_mentions: { parse: [] } } });
}
