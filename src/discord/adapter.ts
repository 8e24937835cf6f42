import type { AttachedFile } from '../core/attached-file.js';
import {
  ApplicationCommandOptionType,
  ApplicationIntegrationType,
  ButtonStyle,
  ChannelType,
  ComponentType,
  MessageFlags,
  PermissionFlagsBits,
  type APIActionRowComponent,
  type APIButtonComponentWithCustomId,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type CommandInteractionOption,
  type Interaction,
} from 'discord.js';
import type { Actor, ChannelFacts, Reply, UserFacts } from '../core/command.js';
import type { Button } from '../render/embed.js';
import type { TransportInteraction } from '../core/responder.js';
import type { Request } from '../core/router.js';
import type { RequestEvidence } from '../core/evidence.js';

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
export function requestOf(i: Interaction, actor: Actor, evidence?: RequestEvidence): Request | undefined {
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
      channels: channelFacts(i, list),
      users: userFacts(list),
      ...(attachedFiles(list) ? { files: attachedFiles(list)! } : {}),
      ...(i.attachmentSizeLimit ? { attachmentLimit: i.attachmentSizeLimit } : {}),
      ...(evidence ? { evidence } : {}),
    };
  }
  if (i.isButton()) return { type: 'button', customId: i.customId, actor, interactionId: i.id, locale: i.locale, ...(evidence ? { evidence } : {}) };
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

const STYLE: Record<Button['style'], ButtonStyle.Primary | ButtonStyle.Secondary | ButtonStyle.Danger> = {
  primary: ButtonStyle.Primary,
  secondary: ButtonStyle.Secondary,
  danger: ButtonStyle.Danger,
};

/** Buttons as action rows of at most five, as Discord requires. */
export function componentsOf(buttons: Button[]): APIActionRowComponent<APIButtonComponentWithCustomId>[] {
  const rows: APIActionRowComponent<APIButtonComponentWithCustomId>[] = [];
  for (let i = 0; i < buttons.length; i += 5) {
    rows.push({
      type: ComponentType.ActionRow,
      components: buttons.slice(i, i + 5).map((b) => ({
        type: ComponentType.Button,
        custom_id: b.custom_id,
        label: b.label,
        style: STYLE[b.style],
      })),
    });
  }
  return rows;
}

/**
 * Sends the router's reply the way this interaction allows, then any private follow-up and any post
 * After a defer (always ephemeral, since the reply is not known yet) a public
 * result is posted as a follow-up and the placeholder removed; a button's deferred update edits
 * the message it was pressed on. Returns the id of the message that shows the result.
 */
export async function deliver(i: Routable, reply: Reply, deferred = false): Promise<string | undefined> {
  if (i.isAutocomplete()) {
    await i.respond(reply.type === 'choices' ? reply.choices : []);
    return undefined;
  }
  if (reply.type === 'error' || reply.type === 'choices') {
    const content = reply.type === 'error' ? `⚠️ ${reply.message}` : 'Nothing to show.';
    if (deferred && i.isButton()) await i.followUp({ content, flags: MessageFlags.Ephemeral });
    else if (deferred) await i.editReply({ content });
    else await i.reply({ content, flags: MessageFlags.Ephemeral });
    return undefined;
  }
  const body = {
    embeds: [reply.embed],
    components: componentsOf(reply.type === 'bound' ? [] : reply.buttons),
    ...(reply.type === 'message' && reply.files?.length
      ? {
          files: reply.files.map((f) => ({
            attachment: 'data' in f ? f.data : f.path,
            name: f.name,
            ...(f.description ? { description: f.description } : {}),
          })),
        }
      : {}),
  };
  const ephemeral = reply.type === 'message' && reply.ephemeral;
  let messageId: string | undefined;
  if (reply.type === 'update' && i.isButton()) {
    if (deferred) await i.editReply(body);
    else await i.update(body);
    messageId = i.message.id;
  } else if (deferred && (ephemeral || !i.isChatInputCommand())) {
    messageId = i.isButton() ? (await i.followUp({ ...body, ...(ephemeral ? { flags: MessageFlags.Ephemeral } : {}) })).id : (await i.editReply(body)).id;
  } else if (deferred) {
    // The deferred placeholder is ephemeral: a public result goes out as its own message.
    messageId = (await i.followUp(body)).id;
    await i.deleteReply().catch(() => undefined);
  } else {
    const res = await i.reply({ ...body, withResponse: true, ...(ephemeral ? { flags: MessageFlags.Ephemeral } : {}) });
    messageId = res.resource?.message?.id;
  }
  if (reply.type === 'message' && reply.private) {
    await i.followUp({
      embeds: [reply.private.embed],
      components: componentsOf(reply.private.buttons),
      flags: MessageFlags.Ephemeral,
    });
  }
  return messageId;
}

/** The interaction's public reply replaced by `reply` (a refusal as text in its place). */
async function editReply(i: Routable, reply: Reply): Promise<string | undefined> {
  if (i.isAutocomplete()) return undefined;
  if (reply.type !== 'message' && reply.type !== 'update') {
    await i.editReply({ content: reply.type === 'error' ? `⚠️ ${reply.message}` : 'Nothing to show.', embeds: [], components: [] });
    return undefined;
  }
  const edited = await i.editReply({ content: '', embeds: [reply.embed], components: componentsOf(reply.buttons) });
  return edited.id;
}

/** A discord.js interaction as the responder's transport interaction; `evidence`: Discord's signed request, over HTTP. */
export function gatewayInteraction(i: Routable, evidence?: RequestEvidence): TransportInteraction {
  return {
    kind: i.isAutocomplete() ? 'autocomplete' : i.isButton() ? 'button' : 'command',
    actor: () => actorOf(i),
    // Discord names who authorised the interaction: a server install carries the server's id under GuildInstall.
    installedByServer: () => !!i.guildId && i.authorizingIntegrationOwners[ApplicationIntegrationType.GuildInstall] === i.guildId,
    request: (actor) => requestOf(i, actor, evidence)!,
    defer: async () => {
      if (i.isButton()) await i.deferUpdate();
      else if (i.isChatInputCommand()) await i.deferReply({ flags: MessageFlags.Ephemeral });
    },
    post: async (channelId, embed) => {
      // Over HTTP no guild is cached: the channel's own guild_id is checked below instead.
      const channel = await i.client.channels.fetch(channelId, { allowUnknownGuild: true });
      if (!channel?.isSendable() || !('guildId' in channel) || channel.guildId !== i.guildId)
        throw new Error(`channel ${channelId} is not a channel of this server the bot can post in`);
      await channel.send({ embeds: [embed] });
    },
    deliver: (reply, deferred) => deliver(i, reply, deferred),
    edit: (reply) => editReply(i, reply),
    messageUrl: (messageId) => `https://discord.com/channels/${i.guildId}/${i.channelId}/${messageId}`,
  };
}

export const isRoutable = (i: Interaction): i is Routable => i.isChatInputCommand() || i.isButton() || i.isAutocomplete();
