import fs from 'node:fs';
import type { RawFile, REST } from '@discordjs/rest';
import type { APIActionRowComponent, APIButtonComponentWithCustomId, APIEmbed, APIMessage } from 'discord.js';
import type { Attachment, Reply } from '../core/command.js';
import type { Button } from '../render/embed.js';

/**
 * How the bot answers an interaction, for both transports: a reply rendered as Discord's message
 * body, and the sequence of calls Discord takes for it (a reply, an update, an edit after a defer,
 * a follow-up). Only the first answer differs between transports (the gateway POSTs it to the
 * callback endpoint; HTTP mode writes it into the waiting response), so that one call is theirs.
 */

const EPHEMERAL = 1 << 6;
/** Nothing the bot sends pings anyone: a unit named "@everyone" stays text. */
const NO_PINGS = { parse: [] as string[] };
const BUTTON_STYLE: Record<Button['style'], 1 | 2 | 4> = { primary: 1, secondary: 2, danger: 4 };

/** Discord's interaction callback types the bot uses. */
export const CALLBACK = { reply: 4, defer: 5, deferUpdate: 6, update: 7, choices: 8 } as const;

/** Buttons as action rows of at most five, as Discord requires. */
export function componentsOf(buttons: Button[]): APIActionRowComponent<APIButtonComponentWithCustomId>[] {
  const rows: APIActionRowComponent<APIButtonComponentWithCustomId>[] = [];
  for (let i = 0; i < buttons.length; i += 5) {
    rows.push({
      type: 1,
      components: buttons.slice(i, i + 5).map((b) => ({ type: 2, custom_id: b.custom_id, label: b.label, style: BUTTON_STYLE[b.style] })),
    });
  }
  return rows;
}

/** A message body as Discord takes it (callback data, an edit, a follow-up), with the files sent beside it. */
export type MessageBody = {
  content?: string;
  embeds?: APIEmbed[];
  components?: APIActionRowComponent<APIButtonComponentWithCustomId>[];
  flags?: number;
  attachments?: { id: string; filename: string; description?: string }[];
  allowed_mentions: { parse: string[]; users?: string[] };
};
export type Rendered = { body: MessageBody; files: RawFile[] };

/** An interaction's first answer, as Discord's callback body. */
export type FirstResponse = { type: number; data?: MessageBody | { flags: number } | { choices: { name: string; value: string }[] } };

/**
 * The transport's first answer to its interaction; resolves with the id of the message it made when
 * it is a new message (a reply), the transport can know it, and `wantsId` (the default) asks for it.
 */
export type FirstAnswer = (response: FirstResponse, files: RawFile[], wantsId?: boolean) => Promise<string | undefined>;

/** Whether the responder uses the id of the message a reply makes: to link the roll it shows, or in a roll log's line. */
const usesMessageId = (reply: Reply) =>
  Boolean(('record' in reply && reply.record) || (reply.type === 'message' && reply.shows) || ('log' in reply && reply.log));

/** A file's bytes, read off the thread from its spool file (an export) when it has one. */
async function fileOf(f: Attachment, index: number): Promise<RawFile> {
  return { key: `files[${index}]`, name: f.name, data: 'data' in f ? f.data : await fs.promises.readFile(f.path) };
}

// Tokens may hold characters a path may not (Discord's own routes encode them too).
const webhookOf = (ids: Pick<InteractionIds, 'applicationId' | 'token'>) =>
  `/webhooks/${encodeURIComponent(ids.applicationId)}/${encodeURIComponent(ids.token)}` as const;
const callbackOf = (ids: Pick<InteractionIds, 'id' | 'token'>) =>
  `/interactions/${encodeURIComponent(ids.id)}/${encodeURIComponent(ids.token)}/callback` as const;

/** The interaction's original response, as Discord holds it (the message a reply made). */
export const originalMessage = (rest: REST, ids: Pick<InteractionIds, 'applicationId' | 'token'>) =>
  rest.get(`${webhookOf(ids)}/messages/@original`, { auth: false }) as Promise<APIMessage>;

/**
 * A first answer POSTed to the interaction's callback endpoint (the gateway's way, and HTTP mode's
 * for a reply carrying files); a reply asks Discord for the message it made.
 */
export function callbackAnswer(rest: REST, ids: Pick<InteractionIds, 'id' | 'token'>): FirstAnswer {
  return async (response, files) => {
    const withResponse = response.type === CALLBACK.reply;
    const query = new URLSearchParams({ with_response: String(withResponse) });
    const res = (await rest.post(callbackOf(ids), { body: response, files, auth: false, query })) as { resource?: { message?: { id: string } } } | null;
    return withResponse ? res?.resource?.message?.id : undefined;
  };
}

/** An embed and its buttons (and files) as a message body; `ephemeral` sets the flag. */
export async function render(
  embed: APIEmbed,
  buttons: Button[],
  o: { ephemeral?: boolean; files?: Attachment[]; content?: string; mention?: string | undefined } = {},
): Promise<Rendered> {
  const files = o.files ?? [];
  return {
    body: {
      // Discord pings only who the content names (never an embed): a named user is named there too.
      ...(o.content !== undefined || o.mention ? { content: [o.mention ? `<@${o.mention}>` : '', o.content ?? ''].filter(Boolean).join(' ') } : {}),
      embeds: [embed],
      components: componentsOf(buttons),
      ...(o.ephemeral ? { flags: EPHEMERAL } : {}),
      ...(files.length
        ? { attachments: files.map((f, id) => ({ id: String(id), filename: f.name, ...(f.description ? { description: f.description } : {}) })) }
        : {}),
      // One user pinged when the reply names one (a requested roll's player); else nobody.
      allowed_mentions: o.mention ? { parse: [], users: [o.mention] } : NO_PINGS,
    },
    files: await Promise.all(files.map(fileOf)),
  };
}

/** A refusal (or an empty list where a message was due) as text. */
const textOf = (reply: Reply) => (reply.type === 'error' ? `⚠️ ${reply.message}` : 'Nothing to show.');

/** Which interaction this is, as Discord names it; `message`: the message a button was pressed on. */
export type InteractionIds = { id: string; applicationId: string; token: string; kind: 'command' | 'button' | 'autocomplete'; message?: string };

/**
 * One interaction's answers: the first through the transport's `first`, every later one (edits,
 * follow-ups) over the interaction's webhook with its token (`rest`, no bot token needed).
 */
export class InteractionReplies {
  constructor(
    private readonly rest: REST,
    private readonly ids: InteractionIds,
    private readonly first: FirstAnswer,
  ) {}

  private get original() {
    return `${webhookOf(this.ids)}/messages/@original` as const;
  }

  private async editOriginal(r: Rendered): Promise<APIMessage> {
    return (await this.rest.patch(this.original, { body: r.body, files: r.files, auth: false })) as APIMessage;
  }

  private async followUp(r: Rendered): Promise<APIMessage> {
    const query = new URLSearchParams({ wait: 'true' });
    return (await this.rest.post(webhookOf(this.ids), { body: r.body, files: r.files, auth: false, query })) as APIMessage;
  }

  /** Acknowledge now, answer later: a command's ephemeral placeholder, or a button's deferred update. */
  async defer(): Promise<void> {
    if (this.ids.kind === 'button') await this.first({ type: CALLBACK.deferUpdate }, []);
    else if (this.ids.kind === 'command') await this.first({ type: CALLBACK.defer, data: { flags: EPHEMERAL } }, []);
  }

  /**
   * Sends the router's reply the way this interaction allows, then any private follow-up. After a
   * defer (always ephemeral, since the reply is not known yet) a public result is posted as a
   * follow-up and the placeholder removed; a button's deferred update edits the message it was
   * pressed on. Returns the id of the message that shows the result.
   */
  async deliver(reply: Reply, deferred: boolean): Promise<string | undefined> {
    if (this.ids.kind === 'autocomplete') {
      await this.first({ type: CALLBACK.choices, data: { choices: reply.type === 'choices' ? reply.choices : [] } }, []);
      return undefined;
    }
    if (reply.type === 'error' || reply.type === 'choices') {
      await this.refusal(textOf(reply), deferred);
      return undefined;
    }
    // The responder shows a bound roll's binding as a public message of its own.
    if (reply.type === 'bound') return this.deliver({ type: 'message', ephemeral: false, embed: reply.embed, buttons: [] }, deferred);
    const ephemeral = reply.type === 'message' && reply.ephemeral;
    const r = await render(reply.embed, reply.buttons, reply.type === 'message' ? { files: reply.files ?? [], mention: reply.mention } : {});
    const messageId = await this.shown(reply.type === 'update', ephemeral, r, deferred, usesMessageId(reply));
    if (reply.type === 'message' && reply.private) await this.followUp(await render(reply.private.embed, reply.private.buttons, { ephemeral: true }));
    return messageId;
  }

  private async refusal(content: string, deferred: boolean): Promise<void> {
    const body = { content, allowed_mentions: NO_PINGS };
    if (deferred && this.ids.kind === 'button') await this.followUp({ body: { ...body, flags: EPHEMERAL }, files: [] });
    else if (deferred) await this.editOriginal({ body, files: [] });
    else await this.first({ type: CALLBACK.reply, data: { ...body, flags: EPHEMERAL } }, []);
  }

  /** The result shown where this interaction allows; the id of its message. */
  private async shown(update: boolean, ephemeral: boolean, r: Rendered, deferred: boolean, wantsId: boolean): Promise<string | undefined> {
    const button = this.ids.kind === 'button';
    if (update && button) {
      if (deferred) await this.editOriginal(r);
      else await this.first({ type: CALLBACK.update, data: r.body }, r.files);
      return this.ids.message;
    }
    const flagged: Rendered = ephemeral ? { ...r, body: { ...r.body, flags: EPHEMERAL } } : r;
    if (deferred && (ephemeral || button)) return (button ? await this.followUp(flagged) : await this.editOriginal(r)).id;
    if (deferred) {
      // The deferred placeholder is ephemeral: a public result goes out as its own message.
      const id = (await this.followUp(r)).id;
      await this.rest.delete(this.original, { auth: false }).catch(() => undefined);
      return id;
    }
    return this.first({ type: CALLBACK.reply, data: flagged.body }, flagged.files, wantsId);
  }

  /** The interaction's public reply replaced by `reply` (a refusal as text in its place). */
  async edit(reply: Reply): Promise<string | undefined> {
    if (this.ids.kind === 'autocomplete') return undefined;
    if (reply.type !== 'message' && reply.type !== 'update') {
      await this.editOriginal({ body: { content: textOf(reply), embeds: [], components: [], allowed_mentions: NO_PINGS }, files: [] });
      return undefined;
    }
    const r = await render(reply.embed, reply.buttons, { content: '' });
    return (await this.editOriginal(r)).id;
  }
}
