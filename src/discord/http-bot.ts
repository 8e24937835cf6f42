import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KeyObject } from 'node:crypto';
import { Events, type Interaction } from 'discord.js';
import { Responder } from '../core/responder.js';
import { gatewayInteraction, isRoutable } from './adapter.js';
import type { Bot, BotOptions } from './bot.js';
import { createClient } from './bot.js';
import { signatureProblem } from './signature.js';
import { answerOps, type Ops } from '../ops/ops-http.js';
import type { RequestEvidence } from '../core/evidence.js';
import { WhenQuiet } from './when-quiet.js';

export type HttpBotOptions = BotOptions & {
  publicKey: KeyObject;
  port: number;
  host?: string;
  /** Bodies past this are refused with 413 (default MAX_BODY_BYTES). */
  maxBodyBytes?: number;
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Connections open at once; past it new ones are refused. */
  maxConnections?: number;
  /**
   * Connections one address may hold open at once (0: no cap); past it its new ones are closed
   * unanswered, so one client trickling headers cannot take every connection from Discord's.
   */
  connectionsPerAddress?: number;
  /** How often the timeouts are checked. */
  timeoutCheckMs?: number;
  /** GET /metrics, /healthz and /readyz, served beside POST /interactions. */
  ops?: Ops;
};

/** `idle()`: resolves once every interaction in hand is done, its deferred work (message links) included. */
export type HttpBot = Bot & { port(): number; idle(): Promise<void> };

/** The HTTP exchange an interaction arrived on, waiting for the bot's first answer. */
type Exchange = { answer: (a: Answer) => void; appId: string; token: string };
type Answer = { body: unknown } | { accepted: true } | { failed: true };

const CALLBACK = /\/interactions\/(\d+)\/([^/?]+)\/callback(?:\?|$)/;

/**
 * discord.js's REST requests, with the first answer to an interaction that arrived over HTTP caught
 * and written into its waiting HTTP response instead of the callback endpoint.
 */
function catchingCallbacks(exchanges: Map<string, Exchange>, quiet: WhenQuiet) {
  return async (url: string, init: RequestInit): Promise<Response> => {
    const m = CALLBACK.exec(url);
    const exchange = m && init.method === 'POST' ? exchanges.get(m[1]!) : undefined;
    if (!m || !exchange) return fetch(url, init);
    exchanges.delete(m[1]!);
    if (typeof init.body !== 'string') {
      exchange.answer({ accepted: true });
      return fetch(url, init);
    }
    const body = JSON.parse(init.body) as { type: number; data?: { flags?: number } };
    exchange.answer({ body });
    if (new URL(url, 'http://x').searchParams.get('with_response') !== 'true') return new Response(null, { status: 204 });
    // The message's id (for /history's links) comes from the original response, once Discord has
    // it, fetched when no other interaction waits for its answer: a link can wait, a player should not.
    const root = url.slice(0, url.indexOf('/interactions/'));
    const message = await quiet
      .run(() => fetch(`${root}/webhooks/${exchange.appId}/${exchange.token}/messages/@original`))
      .then((r) => (r.ok ? r.json() : undefined))
      .catch(() => undefined);
    return Response.json({
      interaction: { id: m[1], type: 2, response_message_loading: false, response_message_ephemeral: Boolean((body.data?.flags ?? 0) & 64) },
      resource: { type: body.type, ...(message ? { message } : {}) },
    });
  };
}

/**
 * Interactions over HTTP (Discord POSTs each one to our endpoint) instead of the gateway: the same
 * router, responder and discord.js interaction objects, with no gateway connection, so any number of
 * these processes can stand behind a load balancer. The first answer (a reply, a defer, choices) goes
 * back in the HTTP response, as Discord documents; later edits and follow-ups go over REST as in
 * gateway mode. discord.js sends that first answer to the callback endpoint; the REST layer here
 * catches it and writes it into the waiting HTTP response instead. A first answer that carries files
 * (multipart) goes to the callback endpoint itself, with 202 on the HTTP exchange.
 */
export function createHttpBot(o: HttpBotOptions): HttpBot {
  const exchanges = new Map<string, Exchange>();
  const quiet = new WhenQuiet(() => exchanges.size > 0);
  const client = createClient(o.apiBase, catchingCallbacks(exchanges, quiet));
  const responder = new Responder(o.router, o.links, o.log, o.deferAfterMs, o.observe);
  const handling = new Map<string, Promise<void>>();
  const signed = new Map<string, RequestEvidence>(); // Discord's signed bytes of each request in hand, for its rows
  const appKey = hexOfKey(o.publicKey);
  client.on(Events.InteractionCreate, (i: Interaction) => {
    if (isRoutable(i)) handling.set(i.id, responder.respond(gatewayInteraction(i, signed.get(i.id))));
  });

  const server = guardedServer(o, (req, res) => serve(req, res));
  const refusals = rejectedLog(o.log);

  async function serve(req: http.IncomingMessage, res: http.ServerResponse) {
    if (o.ops && (await answerOps(req, res, o.ops))) return undefined;
    if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://x').pathname !== '/interactions') return reply(res, 404, { message: 'not found' });
    const limit = o.maxBodyBytes ?? MAX_BODY_BYTES;
    // Refused before a byte is read when the client says it is too large; else counted as it comes.
    if (Number(req.headers['content-length'] ?? 0) > limit) return tooLarge(req, res);
    const body = await readBody(req, limit);
    if (body === 'too large') return tooLarge(req, res);
    if (body === 'aborted') return undefined;
    const signature = req.headers['x-signature-ed25519'];
    const timestamp = req.headers['x-signature-timestamp'];
    const problem = signatureProblem(o.publicKey, asString(signature), asString(timestamp), body);
    if (problem) {
      refusals.note(problem);
      return reply(res, 401, { message: 'invalid request signature' });
    }
    const raw = interactionOf(body);
    if (!raw) return reply(res, 400, { message: 'malformed body: an interaction is a JSON object with an id, a type and a token' });
    if (raw.type === 1) return reply(res, 200, { type: 1 });
    // Only a triple whose signature held reaches here: kept as Discord sent it, for the rows it writes.
    signed.set(raw.id, { key: appKey, timestamp: asString(timestamp)!, signature: asString(signature)!, body: body.toString('base64') });
    return reply(res, ...(await answer(raw).finally(() => signed.delete(raw.id))));
  }

  /** The interaction handed to discord.js and the responder; its first answer, as the HTTP reply. */
  async function answer(raw: RawInteraction): Promise<[number, unknown?]> {
    const answered = new Promise<Answer>((resolve) => exchanges.set(raw.id, { answer: resolve, appId: raw.application_id, token: raw.token }));
    try {
      (client as unknown as { actions: { InteractionCreate: { handle(d: unknown): void } } }).actions.InteractionCreate.handle(raw);
    } catch (err) {
      o.log.warn('could not read an interaction', { err });
    }
    const done = handling.get(raw.id) ?? Promise.resolve();
    const first = await Promise.race([answered, done.then((): Answer => ({ failed: true }))]);
    exchanges.delete(raw.id);
    quiet.pump();
    void done.finally(() => handling.delete(raw.id));
    if ('body' in first) return [200, first.body];
    if ('accepted' in first) return [202];
    return [500, { message: 'the interaction could not be answered' }];
  }

  return {
    client,
    ready: () => server.listening,
    port: () => (server.address() as AddressInfo | null)?.port ?? 0,
    idle: () => Promise.allSettled(handling.values()).then(() => undefined),
    async start() {
      client.rest.setToken(o.token);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(o.port, o.host ?? '0.0.0.0', () => resolve());
      });
      o.log.info('serving interactions over HTTP', { port: (server.address() as AddressInfo).port });
    },
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
      await Promise.allSettled(handling.values());
      await o.links.flush();
      await client.destroy();
    },
  };
}

/**
 * The HTTP server with its guards: every request answered (no failure of one, an aborted upload,
 * escapes as an unhandled rejection), and no slow or stalled client holding a connection for long:
 * Discord sends a whole interaction in one go, so headers get 5 s and the whole request 10 s.
 */
function guardedServer(o: HttpBotOptions, serve: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>): http.Server {
  // Node checks the two timeouts on this interval (30 s by default, which would double them).
  const server = http.createServer({ connectionsCheckingInterval: o.timeoutCheckMs ?? 1_000 }, (req, res) => {
    serve(req, res).catch((err: unknown) => {
      o.log.warn('an HTTP interaction failed', { err });
      if (!res.headersSent && !res.destroyed) reply(res, 500, { message: 'the interaction could not be answered' });
    });
  });
  server.headersTimeout = o.headersTimeoutMs ?? 5_000;
  server.requestTimeout = o.requestTimeoutMs ?? 10_000;
  server.maxConnections = o.maxConnections ?? 512;
  capPerAddress(server, o.connectionsPerAddress ?? DEFAULT_CONNECTIONS_PER_ADDRESS);
  return server;
}

/** How often at most a refused signature is logged: once a minute, with how many came since. */
export const REJECTED_LOG_EVERY_MS = 60_000;

/**
 * Refused signatures, logged at `warn` once a minute at most with the reason and the count since
 * the last line: a wrong DISCORD_PUBLIC_KEY refuses every request, and must not stay silent (nor
 * flood the log when a scanner probes the endpoint).
 */
function rejectedLog(log: HttpBotOptions['log'], every = REJECTED_LOG_EVERY_MS) {
  let last = Number.NEGATIVE_INFINITY;
  let since = 0;
  return {
    note(reason: string) {
      since++;
      const now = Date.now();
      if (now - last < every) return;
      log.warn('refused a request whose signature is not Discord’s (401)', { reason, refused_since_last_line: since });
      last = now;
      since = 0;
    },
  };
}

/** Connections one address may hold at once by default: far more than Discord sends from one, far fewer than the server's cap. */
export const DEFAULT_CONNECTIONS_PER_ADDRESS = 32;

/** Closes, unanswered, a connection from an address that already holds `cap` (0: no cap). */
function capPerAddress(server: http.Server, cap: number): void {
  if (cap <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress ?? '';
    const n = (open.get(address) ?? 0) + 1;
    if (n > cap) {
      socket.destroy();
      return;
    }
    open.set(address, n);
    socket.once('close', () => {
      const left = open.get(address)! - 1;
      if (left) open.set(address, left);
      else open.delete(address);
    });
  });
}

/** The application's public key as 64 hex digits, as the Developer Portal and a game's first row show it. */
const hexOfKey = (key: KeyObject) => Buffer.from(key.export({ format: 'jwk' }).x!, 'base64url').toString('hex');

const asString = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** Discord's interactions are a few kilobytes: 64 KiB is far past any, and bounds what one connection holds. */
export const MAX_BODY_BYTES = 64 * 1024;

type RawInteraction = { id: string; type: number; token: string; application_id: string };

/** The body as an interaction, or undefined when it is not one (not JSON, null, not an object, no id, type or token). */
function interactionOf(body: Buffer): RawInteraction | undefined {
  let v: unknown;
  try {
    v = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const r = v as Partial<RawInteraction>;
  if (r.type === 1) return r as RawInteraction;
  return typeof r.id === 'string' && typeof r.type === 'number' && typeof r.token === 'string' ? (r as RawInteraction) : undefined;
}

function reply(res: http.ServerResponse, status: number, body?: unknown) {
  res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
  res.end(body === undefined ? undefined : JSON.stringify(body));
}

/** 413, and the connection closed once it is sent: the rest of the body is never read. */
function tooLarge(req: http.IncomingMessage, res: http.ServerResponse) {
  res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify({ message: `body too large: at most ${MAX_BODY_BYTES} bytes` }), () => req.destroy());
}

/** The whole body; 'too large' past `limit` bytes (reading stops); 'aborted' when the client went away. */
function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer | 'too large' | 'aborted'> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size <= limit) return void parts.push(c);
      req.off('data', onData);
      req.pause();
      resolve('too large');
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(parts)));
    // An aborted upload is the client's doing: nothing to answer, nothing to log.
    req.on('error', () => resolve('aborted'));
    req.on('close', () => resolve(req.complete ? Buffer.concat(parts) : 'aborted'));
  });
}
