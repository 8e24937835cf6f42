import type { AttachedFile } from '../core/attached-file.js';
import {
  ApplicationCommandOptionType,
  ApplicationIntegrationType,
  ChannelType,
  PermissionFlagsBits,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type CommandInteractionOption,
  type Interaction,
} from 'discord.js';
import type { Actor, ChannelFacts, UserFacts } from '../core/command.js';
import type { TransportInteraction } from '../core/responder.js';
import type { Request } from '../core/router.js';
import { callbackAnswer, InteractionReplies } from './interaction-replies.js';

type Routable = ChatInputCommandInteraction | ButtonInteraction | AutocompleteInteraction;

/** Who acts, taken from what Discord sent with the interaction; GM status from the member's permissions. */
export function actorOf(i: Routable): Actor | undefined {
  if (!i.guildId || !i.channelId) return undefined;
  const member = i.member;
  const display = member && 'displayName' in member ? member.displayName : (member?.nick ?? i.user.globalName ?? i.user.username);
  const roles = member?.roles;
  // Every member holds @everyone (its id is the guild's): it never makes anyone a GM.
  const roleIds = (Array.isArray(roles) ? roles : roles && 'cache' in roles ? [...roles.cache.keys()] : []).filter((id) => id !== i.guildId);
  return {
    guildId: i.guildId,
    channelId: i.channelId,
    userId: i.user.id,
    // Made well-formed by the router, which every transport passes through, before it can reach a hash.
    userName: display ?? i.user.username,
    isGm: i.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false,
    roleIds,
  };
}

/** The subcommand (if any) and its options as Discord sent them. */
function optionList(data: readonly CommandInteractionOption[]): { subcommand?: string; list: readonly CommandInteractionOption[] } {
  const sub = data.find((o) => o.type === ApplicationCommandOptionType.Subcommand);
  return sub ? { subcommand: sub.name, list: sub.options ?? [] } : { list: data };
}

/** What the bot needs in a channel to post a result there. */
const TO_POST = [PermissionFlagsBits.ViewChannel, PermissionFlagsBits.SendMessages, PermissionFlagsBits.EmbedLinks];
const spaced = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2');

/** Each channel option's channel: text or not, and what the bot lacks there (from the gateway's cache). */
function channelFacts(i: ChatInputCommandInteraction, list: readonly CommandInteractionOption[]): Record<string, ChannelFacts> {
  const facts: Record<string, ChannelFacts> = {};
  for (const o of list) {
    if (o.type !== ApplicationCommandOptionType.Channel || typeof o.value !== 'string') continue;
    const cached = i.guild?.channels.cache.get(o.value);
    const type = cached?.type ?? o.channel?.type;
    if (type === undefined) continue;
    const me = i.guild?.members.me;
    const permissions = cached && me ? cached.permissionsFor(me) : null;
    facts[o.value] = {
      text: type === ChannelType.GuildText || type === ChannelType.GuildAnnouncement,
      ...(permissions ? { botMissing: permissions.missing(TO_POST).map(spaced) } : {}),
    };
  }
  return facts;
}

/** Each user option's user, as Discord resolved it beside the options: their name, a bot or not, a member of this server or not. */
function userFacts(list: readonly CommandInteractionOption[]): Record<string, UserFacts> {
  const facts: Record<string, UserFacts> = {};
  for (const o of list) {
    if (o.type !== ApplicationCommandOptionType.User || typeof o.value !== 'string' || !o.user) continue;
    const member = o.member;
    const nick = member && 'displayName' in member ? member.displayName : (member?.nick ?? undefined);
    facts[o.value] = { name: nick ?? o.user.globalName ?? o.user.username, bot: o.user.bot, member: Boolean(member) };
  }
  return facts;
}

/** The files the attachment options carry, by the id each option's value is (Discord resolves them beside the options). */
function attachedFiles(list: readonly CommandInteractionOption[]): Record<string, AttachedFile> | undefined {
  const files = list.flatMap((o) =>
    o.type === ApplicationCommandOptionType.Attachment && o.attachment && typeof o.value === 'string'
      ? [[o.value, { name: o.attachment.name, size: o.attachment.size, url: o.attachment.url }] as const]
      : [],
  );
  return files.length ? Object.fromEntries(files) : undefined;
}

/** The router's request for an interaction we handle, or undefined for kinds we do not. */
export function requestOf(i: Interaction, actor: Actor): Request | undefined {
  if (i.isChatInputCommand()) {
    const { subcommand, list } = optionList(i.options.data);
    const options = Object.fromEntries(list.map((o) => [o.name, o.value]));
    return {
      type: 'command',
      name: i.commandName,
      ...(subcommand ? { subcommand } : {}),
      options,
      actor,
      interactionId: i.id,
      locale: i.locale,
      ...(i.guildLocale ? { guildLocale: i.guildLocale } : {}),
      channels: channelFacts(i, list),
      users: userFacts(list),
      ...(attachedFiles(list) ? { files: attachedFiles(list)! } : {}),
      ...(i.attachmentSizeLimit ? { attachmentLimit: i.attachmentSizeLimit } : {}),
    };
  }
  if (i.isButton()) return { type: 'button', customId: i.customId, actor, interactionId: i.id, locale: i.locale };
  if (i.isAutocomplete()) {
    const focused = i.options.getFocused(true);
    return {
      type: 'autocomplete',
      name: i.commandName,
      subcommand: i.options.getSubcommand(false) ?? undefined,
      option: focused.name,
      value: String(focused.value),
      actor,
      locale: i.locale,
    };
  }
  return undefined;
}

/** A discord.js interaction (from the gateway) as the responder's transport interaction. */
export function gatewayInteraction(i: Routable): TransportInteraction {
  const kind = i.isAutocomplete() ? 'autocomplete' : i.isButton() ? 'button' : 'command';
  const ids = { id: i.id, applicationId: i.applicationId, token: i.token, kind, ...(i.isButton() ? { message: i.message.id } : {}) } as const;
  // Answered over Discord's REST API as HTTP mode answers (interaction-replies.ts), the first answer to the callback endpoint.
  const replies = new InteractionReplies(i.client.rest, ids, callbackAnswer(i.client.rest, ids));
  return {
    kind,
    actor: () => actorOf(i),
    // Discord names who authorised the interaction: a server install carries the server's id under GuildInstall.
    installedByServer: () => !!i.guildId && i.authorizingIntegrationOwners[ApplicationIntegrationType.GuildInstall] === i.guildId,
    request: (actor) => requestOf(i, actor)!,
    defer: () => replies.defer(),
    post: async (channelId, embed) => {
      // A channel the cache does not hold is fetched; its own guild_id is checked below.
      const channel = await i.client.channels.fetch(channelId, { allowUnknownGuild: true });
      if (!channel?.isSendable() || !('guildId' in channel) || channel.guildId !== i.guildId)
        throw new Error(`channel ${channelId} is not a channel of this server the bot can post in`);
      await channel.send({ embeds: [embed] });
    },
    deliver: (reply, deferred) => replies.deliver(reply, deferred),
    edit: (reply) => replies.edit(reply),
    messageUrl: (messageId) => `https://discord.com/channels/${i.guildId}/${i.channelId}/${messageId}`,
  };
}

export const isRoutable = (i: Interaction): i is Routable => i.isChatInputCommand() || i.isButton() || i.isAutocomplete();
