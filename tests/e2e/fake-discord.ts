import { generateKeyPairSync, sign } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * A small Discord for the end-to-end tests: REST and the gateway on 127.0.0.1, enough for the
 * real discord.js client to log in, receive interactions and answer them. It behaves like Discord
 * where the bot could get it wrong: one callback per interaction, within 3 seconds.
 */

export type Callback = { interactionId: string; token: string; type: number; data: any; files: any[]; at: number };
export type Member = { id: string; username: string; permissions?: bigint; nick?: string; roles?: string[] };

export const APP_ID = '110000000000000001';
export const BOT_USER_ID = '110000000000000001';
export const PERMISSION_MANAGE_GUILD = 1n << 5n;
/** A role every fake guild has (Discord sends a guild's roles with GUILD_CREATE). */
export const GM_ROLE_ID = '800000000000000001';
/** The bot's own role: View Channel, Send Messages and Embed Links. */
export const BOT_ROLE_ID = '800000000000000002';
const BOT_ROLE_PERMISSIONS = (1n << 10n) | (1n << 11n) | (1n << 14n);
/** Channels every fake guild has besides #general: the GMs' room, one where the bot may not post, a voice channel. */
export const gmRoomOf = (guildId: string) => String(BigInt(guildId) + 2000n);
export const lockedChannelOf = (guildId: string) => String(BigInt(guildId) + 3000n);
export const voiceChannelOf = (guildId: string) => String(BigInt(guildId) + 4000n);

/** Ids as Discord makes them: the milliseconds since Discord's epoch, then a counter (a beacon roll binds by that time). */
let serial = 0n;
export const nextId = () => String(((BigInt(Date.now()) - 1420070400000n) << 22n) | (serial++ & 0x3fffffn));

type Pending = { resolve: (c: Callback) => void; reject: (e: Error) => void; timer: NodeJS.Timeout };

export class FakeDiscord {
  readonly callbacks: Callback[] = [];
  /** Each edit or follow-up the bot made through the interaction webhook, with when it arrived (ms). */
  readonly webhookEdits: { method: string; path: string; body: any; at: number }[] = [];
  readonly registered = new Map<string, any[]>();
  readonly unknownRoutes: string[] = [];
  readonly authHeaders = new Set<string>();
  /** Each application whose public key was asked for (GET /applications/{id}/rpc, as a verifier pinning Discord's key asks). */
  readonly keyLookups: string[] = [];
  /** Messages the bot posted to channels (not as interaction replies). */
  readonly channelMessages: { channelId: string; body: any; id?: string }[] = [];
  /** Each page of GET /users/@me/guilds the bot asked for: its `after` and `limit`. */
  readonly guildListings: { after: string | null; limit: string | null }[] = [];
  /** The next this many requests for the bot's servers fail with 500 (Discord down). */
  failGuildListings = 0;
  /** Every edit of a channel message the bot made (PATCH), in order. */
  readonly messageEdits: { channelId: string; messageId: string; body: any }[] = [];
  /**
   * The next channel posts fail: with `status` (Discord down), or, with `lost`, the message is
   * made and only its answer fails (a retry must then not show it twice: Discord's nonce).
   */
  readonly failChannelPosts: { status: number; lost?: boolean }[] = [];
  private readonly nonces = new Map<string, any>();
  /** Answers to give the next interaction callbacks instead of accepting them (429, 500 …). */
  readonly failCallbacks: { status: number; retryAfter?: number }[] = [];
  /**
   * Interactions whose callback the fake receives (and counts) but never answers: the bot has
   * committed and is replying when it dies (the crash test's window between commit and reply).
   */
  readonly holdCallbacks = new Set<string>();
  /** Every callback attempt, failed or not, by interaction id. */
  readonly callbackAttempts = new Map<string, number>();
  /** The message id the fake gave each answered interaction. */
  readonly messageIds = new Map<string, string>();
  identified = 0;
  resumed = 0;
  /** TCP connections made to the fake (REST, and a gateway's socket): a kept-alive one is reused, not counted again. */
  connections = 0;

  private server = http.createServer((req, res) => void this.rest(req, res));
  private wss = new WebSocketServer({ noServer: true });
  private sockets = new Set<WebSocket>();
  private seq = 0;
  private issued = new Map<string, { token: string; at: number; answered: boolean }>();
  private waiting = new Map<string, Pending>();
  private port = 0;

  /** The shard each gateway connection identified as ([id, count]), by connection. */
  private readonly shardOf = new Map<WebSocket, number>();
  /** Every IDENTIFY's shard id, in order. */
  readonly identifiedShards: number[] = [];

  /**
   * `shards`: what GET /gateway/bot recommends; each guild's events go to the connection of its shard.
   * `token`: the bot token it knows; GET /users/@me and /applications/@me refuse any other with 401,
   * as Discord does (unset: any token is the bot's).
   */
  constructor(
    readonly guilds: string[] = ['900000000000000001'],
    readonly options: { shards?: number; token?: string } = {},
  ) {
    this.server.on('connection', () => this.connections++);
    this.server.on('upgrade', (req, socket, head) => {
      this.wss.handleUpgrade(req, socket, head, (ws) => this.gateway(ws));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  get apiBase() {
    return `http://127.0.0.1:${this.port}/api`;
  }

  async stop() {
    for (const p of this.waiting.values()) clearTimeout(p.timer);
    for (const ws of this.sockets) ws.terminate();
    this.wss.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /**
   * The bot leaves a server (GUILD_DELETE to its shard's connection), or with `unavailable` the
   * server only goes dark in an outage and stays the bot's.
   */
  removeGuild(id: string, o: { unavailable?: boolean } = {}) {
    if (!o.unavailable && this.guilds.includes(id)) this.guilds.splice(this.guilds.indexOf(id), 1);
    for (const ws of this.socketsOf(id)) this.dispatch(ws, 'GUILD_DELETE', { id, ...(o.unavailable ? { unavailable: true } : {}) });
  }

  /** The bot is added to a server (GUILD_CREATE, as for a server joined while connected). */
  addGuild(id: string) {
    this.guilds.push(id);
    const guild = { id, name: `Guild ${id.slice(-4)}`, unavailable: false, owner_id: '1', member_count: 1, features: [], channels: [], roles: [], members: [] };
    for (const ws of this.socketsOf(id)) this.dispatch(ws, 'GUILD_CREATE', { ...guild, joined_at: new Date().toISOString(), preferred_locale: 'en-US' });
  }

  private socketsOf(guildId: string) {
    return [...this.sockets].filter((w) => (this.shardOf.get(w) ?? 0) === this.shardFor(guildId));
  }

  /** Asks the connected client to reconnect (op 7): it should come back with RESUME. */
  requestReconnect() {
    for (const ws of this.sockets) ws.send(JSON.stringify({ op: 7, d: null }));
  }

  // ---- gateway ---------------------------------------------------------------------------------

  private gateway(ws: WebSocket) {
    this.sockets.add(ws);
    ws.on('close', () => {
      this.sockets.delete(ws);
      this.shardOf.delete(ws);
    });
    ws.send(JSON.stringify({ op: 10, d: { heartbeat_interval: 41_250 } }));
    ws.on('message', (raw) => {
      const msg = JSON.parse(String(raw));
      if (msg.op === 1) ws.send(JSON.stringify({ op: 11 }));
      else if (msg.op === 2) this.identify(ws, msg.d?.shard);
      else if (msg.op === 6) {
        this.resumed++;
        this.dispatch(ws, 'RESUMED', {});
      }
    });
  }

  private dispatch(ws: WebSocket, t: string, d: unknown) {
    ws.send(JSON.stringify({ op: 0, t, s: ++this.seq, d }));
  }

  /** A guild's shard as Discord computes it: (guild_id >> 22) % shard count. */
  shardFor(guildId: string, count = this.options.shards ?? 1): number {
    return Number((BigInt(guildId) >> 22n) % BigInt(count));
  }

  private identify(ws: WebSocket, shard: [number, number] = [0, 1]) {
    this.identified++;
    this.shardOf.set(ws, shard[0]);
    this.identifiedShards.push(shard[0]);
    const guilds = this.guilds.filter((g) => this.shardFor(g, shard[1]) === shard[0]);
    this.dispatch(ws, 'READY', {
      v: 10,
      user: { id: BOT_USER_ID, username: 'Morale Officer', discriminator: '0', bot: true, avatar: null },
      guilds: guilds.map((id) => ({ id, unavailable: true })),
      shard,
      session_id: `session-${this.identified}`,
      resume_gateway_url: `ws://127.0.0.1:${this.port}`,
      application: { id: APP_ID, flags: 0 },
    });
    for (const id of guilds) {
      this.dispatch(ws, 'GUILD_CREATE', {
        id,
        name: `Guild ${id.slice(-4)}`,
        unavailable: false,
        owner_id: '1',
        member_count: 2,
        joined_at: new Date().toISOString(),
        features: [],
        channels: [
          { id: channelOf(id), type: 0, name: 'general', guild_id: id, position: 0, permission_overwrites: [] },
          { id: gmRoomOf(id), type: 0, name: 'gm-room', guild_id: id, position: 1, permission_overwrites: [] },
          // The bot's role is denied Send Messages here.
          {
            id: lockedChannelOf(id),
            type: 0,
            name: 'locked',
            guild_id: id,
            position: 2,
            permission_overwrites: [{ id: BOT_ROLE_ID, type: 0, allow: '0', deny: String(1n << 11n) }],
          },
          { id: voiceChannelOf(id), type: 2, name: 'voice', guild_id: id, position: 3, permission_overwrites: [], bitrate: 64000, user_limit: 0 },
        ],
        threads: [],
        roles: [
          { id, name: '@everyone', permissions: '0', position: 0, color: 0, hoist: false, managed: false, mentionable: false, flags: 0 },
          { id: GM_ROLE_ID, name: 'Referee', permissions: '0', position: 1, color: 0, hoist: false, managed: false, mentionable: false, flags: 0 },
          {
            id: BOT_ROLE_ID,
            name: 'Morale Officer',
            permissions: String(BOT_ROLE_PERMISSIONS),
            position: 2,
            color: 0,
            hoist: false,
            managed: true,
            mentionable: false,
            flags: 0,
          },
        ],
        // Discord sends the bot's own member with GUILD_CREATE.
        members: [
          {
            user: { id: BOT_USER_ID, username: 'Morale Officer', discriminator: '0', bot: true, avatar: null },
            roles: [BOT_ROLE_ID],
            joined_at: new Date().toISOString(),
            deaf: false,
            mute: false,
            flags: 0,
          },
        ],
        emojis: [],
        stickers: [],
        presences: [],
        voice_states: [],
        stage_instances: [],
        guild_scheduled_events: [],
        premium_tier: 0,
        preferred_locale: 'en-US',
      });
    }
  }

  // ---- interactions ----------------------------------------------------------------------------

  /** Sends an interaction to the bot and resolves with the callback it answers with. */
  send(interaction: Record<string, any>, timeoutMs = 5_000): Promise<Callback> {
    const shard = interaction.guild_id ? this.shardFor(interaction.guild_id) : 0;
    const ws = [...this.sockets].find((w) => (this.shardOf.get(w) ?? 0) === shard) ?? [...this.sockets][0];
    if (!ws) throw new Error('no client is connected');
    this.issued.set(interaction.id, { token: interaction.token, at: Date.now(), answered: false });
    const answer = new Promise<Callback>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(interaction.id);
        reject(new Error(`no callback for interaction ${interaction.id} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.set(interaction.id, { resolve, reject, timer });
    });
    this.dispatch(ws, 'INTERACTION_CREATE', interaction);
    return answer;
  }

  // ---- HTTP interactions -------------------------------------------------------------------------

  /** The app's Ed25519 key pair: the bot verifies with the public half what the fake signs with the private one. */
  private readonly keys = generateKeyPairSync('ed25519');

  /** The app's public key as the Developer Portal shows it: 64 hex characters. */
  get publicKeyHex(): string {
    return Buffer.from((this.keys.publicKey.export({ format: 'jwk' }) as { x: string }).x, 'base64url').toString('hex');
  }

  /**
   * POSTs an interaction to a bot's HTTP endpoint as Discord does: signed over the timestamp and
   * the raw body. `forge` changes what is sent (a stale timestamp, another signature, another body
   * than the one signed). Resolves with the HTTP status and the parsed answer.
   */
  async postInteraction(
    url: string,
    interaction: Record<string, any>,
    /** `signBody`: sign `sentBody` itself (a signed body that is not an interaction). */
    forge: { timestamp?: string; signature?: string | null; sentBody?: string; signBody?: boolean } = {},
  ): Promise<{ status: number; body: any }> {
    this.issued.set(interaction.id, { token: interaction.token, at: Date.now(), answered: false });
    const body = forge.signBody && forge.sentBody !== undefined ? forge.sentBody : JSON.stringify(interaction);
    const timestamp = forge.timestamp ?? String(Math.floor(Date.now() / 1000));
    const signature = forge.signature === undefined ? sign(null, Buffer.from(timestamp + body), this.keys.privateKey).toString('hex') : forge.signature;
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-signature-timestamp': timestamp,
        ...(signature === null ? {} : { 'x-signature-ed25519': signature }),
      },
      body: forge.sentBody ?? body,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  // ---- REST ------------------------------------------------------------------------------------

  /** Every body POSTed to create a guild command, as sent (checked against Discord's OpenAPI schema by the tests). */
  readonly commandBodies: any[] = [];

  private guildCommand(method: string | undefined, rest: string[], body: unknown, json: (status: number, data?: unknown) => void) {
    const scope = `guild:${rest[3]}`;
    const saved = this.registered.get(scope) ?? [];
    if (method === 'GET' && rest.length === 5) return json(200, saved);
    if (method === 'POST' && rest.length === 5) {
      this.commandBodies.push(body);
      const made = { ...(body as object), id: nextId(), application_id: rest[1], guild_id: rest[3], version: nextId() };
      this.registered.set(scope, [...saved.filter((c) => c.name !== (body as { name: string }).name), made]);
      return json(201, made);
    }
    if (method === 'DELETE' && rest.length === 6) {
      if (!saved.some((c) => c.id === rest[5])) return json(404, { message: 'Unknown application command', code: 10063 });
      this.registered.set(
        scope,
        saved.filter((c) => c.id !== rest[5]),
      );
      return json(204);
    }
    return json(405, { message: '405: Method Not Allowed', code: 0 });
  }

  private async rest(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://x');
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const body = await readBody(req);
    if (req.headers.authorization) this.authHeaders.add(req.headers.authorization);
    const json = (status: number, data?: unknown) => {
      res.writeHead(status, data === undefined ? {} : { 'content-type': 'application/json' });
      res.end(data === undefined ? undefined : JSON.stringify(data));
    };
    const [api, version, ...rest] = parts;
    if (api !== 'api' || version !== 'v10') return this.unknown(req, json);
    const route = rest.join('/');

    // Who the token is (npm run setup checks it): the bot user, and its application with the public key.
    if (req.method === 'GET' && (route === 'users/@me' || route === 'applications/@me')) {
      if (this.options.token && req.headers.authorization !== `Bot ${this.options.token}`) return json(401, { message: '401: Unauthorized', code: 0 });
      return route === 'users/@me'
        ? json(200, { id: '120000000000000001', username: 'Morale Officer', discriminator: '0', bot: true })
        : json(200, { id: APP_ID, name: 'Morale Officer', verify_key: this.publicKeyHex, bot_public: false });
    }
    // The bot's servers, a page at a time in id order after `after` (at most 200).
    if (req.method === 'GET' && route === 'users/@me/guilds') return this.guildList(url.searchParams, json);
    // An application's public record, unauthenticated as Discord serves it: its verify_key is the key it signs with.
    if (req.method === 'GET' && rest[0] === 'applications' && rest[2] === 'rpc' && rest.length === 3) {
      this.keyLookups.push(rest[1]!);
      return rest[1] === APP_ID
        ? json(200, { id: APP_ID, name: 'Morale Officer', description: '', summary: '', type: null, hook: true, verify_key: this.publicKeyHex, flags: 0 })
        : json(404, { message: 'Unknown Application', code: 10002 });
    }
    if (req.method === 'GET' && route === 'gateway/bot') {
      return json(200, {
        url: `ws://127.0.0.1:${this.port}`,
        shards: this.options.shards ?? 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 0, max_concurrency: 1 },
      });
    }
    // A server's own command (a rule pack's): created or replaced by name; listed; deleted by id.
    if (req.method !== 'PUT' && rest[0] === 'applications' && rest[2] === 'guilds' && rest[4] === 'commands')
      return this.guildCommand(req.method, rest, body, json);
    if (req.method === 'PUT' && rest[0] === 'applications' && rest.at(-1) === 'commands') {
      const scope = rest.length === 5 ? `guild:${rest[3]}` : 'global';
      const saved = (body as any[]).map((c) => ({ ...c, id: nextId(), application_id: rest[1], version: nextId() }));
      this.registered.set(scope, saved);
      return json(200, saved);
    }
    if (req.method === 'POST' && rest[0] === 'interactions' && rest[3] === 'callback') {
      return this.callback(rest[1]!, rest[2]!, body, json, url.searchParams.get('with_response') === 'true');
    }
    if (req.method === 'GET' && rest[0] === 'channels' && rest.length === 2) {
      const guild = this.guilds.find((g) => channelOf(g) === rest[1]) ?? this.guilds[0]!;
      return json(200, { id: rest[1], type: 0, name: 'gm-room', guild_id: guild, position: 1, permission_overwrites: [] });
    }
    if (req.method === 'POST' && rest[0] === 'channels' && rest[2] === 'messages') {
      // A verbose upstream error that echoes the credentials it was sent: the bot logs the error,
      // so only its logger's redaction keeps the token out of the log.
      if (this.guilds.some((g) => lockedChannelOf(g) === rest[1]))
        return json(403, { code: 50013, message: `Missing Permissions (request authorised as ${req.headers.authorization})` });
      return this.channelPost(rest[1]!, body, json);
    }
    if (req.method === 'PATCH' && rest[0] === 'channels' && rest[2] === 'messages' && rest.length === 4) {
      // A message the bot posted in the channel, or one it made as an interaction's reply.
      const made =
        this.channelMessages.find((m) => m.channelId === rest[1] && m.id === rest[3]) ??
        ([...this.messageIds.values()].includes(rest[3]!) ? { body: {} } : undefined);
      if (!made) return json(404, { code: 10008, message: 'Unknown Message' });
      this.messageEdits.push({ channelId: rest[1]!, messageId: rest[3]!, body });
      return json(200, { ...messageObject(rest[1]!, { ...made.body, ...(body as object) }), id: rest[3] });
    }
    if (rest[0] === 'webhooks' && rest[1] === APP_ID) {
      this.webhookEdits.push({ method: req.method!, path: route, body, at: Date.now() });
      return json(200, { id: nextId(), channel_id: '1', content: '', embeds: [], components: [], ...(body ?? {}) });
    }
    return this.unknown(req, json);
  }

  private guildList(q: URLSearchParams, json: (s: number, d?: unknown) => void) {
    this.guildListings.push({ after: q.get('after'), limit: q.get('limit') });
    if (this.failGuildListings > 0) {
      this.failGuildListings--;
      return json(500, { message: 'Internal Server Error', code: 0 });
    }
    const after = BigInt(q.get('after') ?? '0');
    const page = this.guilds
      .filter((g) => BigInt(g) > after)
      .sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))
      .slice(0, Math.min(200, Number(q.get('limit') ?? 200)));
    return json(
      200,
      page.map((id) => ({ id, name: `Guild ${id.slice(-4)}`, icon: null, owner: false, permissions: '0', features: [] })),
    );
  }

  /** A message posted in a channel: one per enforced nonce, as Discord keeps them for a few minutes. */
  private channelPost(channelId: string, body: any, json: (s: number, d?: unknown) => void) {
    const fail = this.failChannelPosts.shift();
    if (fail && !fail.lost) return json(fail.status, { message: 'Service Unavailable', code: 0 });
    const again = body?.enforce_nonce && body.nonce !== undefined ? this.nonces.get(String(body.nonce)) : undefined;
    const message = again ?? messageObject(channelId, body);
    if (!again) {
      this.channelMessages.push({ channelId, body, id: message.id });
      if (body?.enforce_nonce && body.nonce !== undefined) this.nonces.set(String(body.nonce), message);
    }
    if (fail) return json(fail.status, { message: 'Service Unavailable', code: 0 });
    return json(200, message);
  }

  private callback(id: string, token: string, body: any, json: (s: number, d?: unknown) => void, withResponse = false) {
    const issued = this.issued.get(id);
    this.callbackAttempts.set(id, (this.callbackAttempts.get(id) ?? 0) + 1);
    if (this.holdCallbacks.has(id)) return;
    if (!issued || issued.token !== token) return json(404, { code: 10062, message: 'Unknown interaction' });
    const fail = this.failCallbacks.shift();
    if (fail?.status === 429) return json(429, { message: 'You are being rate limited.', retry_after: fail.retryAfter ?? 0.05, global: false });
    if (fail) return json(fail.status, { message: 'Internal Server Error', code: 0 });
    if (Date.now() - issued.at > 3_000) return json(404, { code: 10062, message: 'Unknown interaction' });
    if (issued.answered) return json(400, { code: 40060, message: 'Interaction has already been acknowledged.' });
    issued.answered = true;
    const cb: Callback = { interactionId: id, token, type: body.type, data: body.data, files: body._files ?? [], at: Date.now() };
    this.callbacks.push(cb);
    const waiter = this.waiting.get(id);
    if (waiter) {
      clearTimeout(waiter.timer);
      this.waiting.delete(id);
      waiter.resolve(cb);
    }
    if (!withResponse) return json(204);
    const message = messageObject('1', body.data ?? {});
    this.messageIds.set(id, message.id);
    json(200, {
      interaction: {
        id,
        type: 2,
        response_message_id: message.id,
        response_message_loading: false,
        response_message_ephemeral: Boolean((body.data?.flags ?? 0) & 64),
      },
      resource: { type: body.type, message },
    });
  }

  private unknown(req: http.IncomingMessage, json: (s: number, d?: unknown) => void) {
    this.unknownRoutes.push(`${req.method} ${req.url}`);
    json(404, { code: 0, message: '404: Not Found' });
  }
}

export const channelOf = (guildId: string) => String(BigInt(guildId) + 1000n);

/** A message as Discord returns it for something the bot sent. */
function messageObject(channelId: string, body: any) {
  return {
    id: nextId(),
    channel_id: channelId,
    type: 0,
    content: body.content ?? '',
    author: { id: BOT_USER_ID, username: 'Morale Officer', discriminator: '0', bot: true, avatar: null },
    embeds: body.embeds ?? [],
    components: body.components ?? [],
    attachments: [],
    mentions: [],
    mention_roles: [],
    pinned: false,
    mention_everyone: false,
    tts: false,
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    flags: body.flags ?? 0,
  };
}

async function readBody(req: http.IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const buf = Buffer.concat(chunks);
  if (!buf.length) return undefined;
  const type = req.headers['content-type'] ?? '';
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(type);
  if (type.startsWith('multipart/form-data') && boundary) {
    // Parts: payload_json, and one per file; the files are kept as { filename, bytes } under _files.
    const sep = `--${boundary[1] ?? boundary[2]}`;
    let payload: any = {};
    const files: { name: string; filename: string; bytes: number; png: boolean }[] = [];
    for (const part of buf.toString('latin1').split(sep).slice(1, -1)) {
      const [head = '', ...bodyParts] = part.replace(/^\r\n/, '').split('\r\n\r\n');
      const body = bodyParts.join('\r\n\r\n').replace(/\r\n$/, '');
      const name = /name="([^"]+)"/.exec(head)?.[1] ?? '';
      const filename = /filename="([^"]+)"/.exec(head)?.[1];
      if (name === 'payload_json') payload = JSON.parse(Buffer.from(body, 'latin1').toString('utf8'));
      else if (filename) files.push({ name, filename, bytes: body.length, png: body.startsWith('\x89PNG') });
    }
    return { ...payload, _files: files };
  }
  return JSON.parse(buf.toString('utf8'));
}

// ---- interaction payloads as Discord sends them ----------------------------------------------

/** `installedBy: 'user'`: the interaction comes through a user's personal install, not the server's. */
type Where = { guildId?: string | null; member: Member; installedBy?: 'server' | 'user' };

function base(type: number, where: Where) {
  const user = { id: where.member.id, username: where.member.username, discriminator: '0', global_name: null, avatar: null };
  const guildId = where.guildId === undefined ? '900000000000000001' : where.guildId;
  const common = {
    id: nextId(),
    application_id: APP_ID,
    type,
    token: `tok:${nextId()}/aW50ZXJhY3Rpb24`,
    version: 1,
    locale: 'en-GB',
    entitlements: [],
    app_permissions: '2248473465835073',
  };
  if (guildId === null) {
    return { ...common, user, channel: { id: '1', type: 1 }, channel_id: '1', context: 1, authorizing_integration_owners: { '1': user.id } };
  }
  return {
    ...common,
    guild_id: guildId,
    guild_locale: 'en-US',
    channel: { id: channelOf(guildId), type: 0, name: 'general', guild_id: guildId },
    channel_id: channelOf(guildId),
    context: 0,
    authorizing_integration_owners: where.installedBy === 'user' ? { '1': user.id } : { '0': guildId },
    member: {
      user,
      roles: where.member.roles ?? [],
      permissions: String(where.member.permissions ?? 0n),
      joined_at: '2026-01-01T00:00:00.000Z',
      nick: where.member.nick ?? null,
      deaf: false,
      mute: false,
      flags: 0,
    },
  };
}

const optionType = (v: unknown) => (typeof v === 'boolean' ? 5 : typeof v === 'number' ? 4 : 3);

function commandData(name: string, options: Record<string, unknown>, focused?: string) {
  return {
    id: nextId(),
    name,
    type: 1,
    options: Object.entries(options).map(([k, v]) => ({ name: k, type: optionType(v), value: v, ...(k === focused ? { focused: true } : {}) })),
  };
}

export const slashCommand = (name: string, options: Record<string, unknown>, where: Where) => ({
  ...base(2, where),
  data: commandData(name, options),
});

/** A command with a subcommand (`/game start system:… name:…`), its options nested under it as Discord sends them. */
export function slashSubcommand(name: string, subcommand: string, options: Record<string, unknown>, where: Where) {
  const i = slashCommand(name, {}, where);
  const { options: nested } = commandData(subcommand, options);
  i.data.options = [{ name: subcommand, type: 1, options: nested }] as never;
  return i;
}

export const autocomplete = (name: string, options: Record<string, unknown>, focused: string, where: Where) => ({
  ...base(4, where),
  data: commandData(name, options, focused),
});

export function buttonPress(customId: string, message: { id: string; embeds?: unknown[]; components?: unknown[] }, where: Where) {
  const b = base(3, where);
  return {
    ...b,
    data: { custom_id: customId, component_type: 2 },
    message: { ...messageObject(b.channel_id, message), id: message.id, type: 20 },
  };
}

/** The edit of an interaction's original reply, once the bot makes it (a beacon roll's result); throws after `timeoutMs`. */
export async function originalEdit(fake: FakeDiscord, token: string, timeoutMs = 10_000): Promise<{ method: string; path: string; body: any }> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const edit = fake.webhookEdits.find((e) => e.method === 'PATCH' && e.path.includes(token) && e.path.endsWith('/messages/@original'));
    if (edit) return edit;
    if (Date.now() > until) throw new Error('the original reply was never edited');
    await new Promise((r) => setTimeout(r, 50));
  }
}
