import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KeyObject } from 'node:crypto';
import { REST } from '@discordjs/rest';
import { Responder } from '../core/responder.js';
import type { BotOptions, Transport } from './bot.js';
import { signatureProblem } from './signature.js';
import { answerOps, type Ops } from '../ops/ops-http.js';
import type { RequestEvidence } from '../core/evidence.js';
import { WhenQuiet } from './when-quiet.js';
import { httpInteraction, RawInteraction } from './http-interaction.js';
import { CALLBACK, callbackAnswer, type FirstAnswer, type FirstResponse, type InteractionIds, originalMessage } from './interaction-replies.js';

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

/**
 * `idle()`: resolves once every interaction in hand is done, its deferred work (message links)
 * included. `rest`: the bot token's REST (posts to channels), bound by the global limit.
 */
export type HttpBot = Transport & { port(): number; idle(): Promise<void>; rest: REST };

/** The bot's first answer to an interaction: its body for the HTTP response, a 202 (sent to the callback endpoint), or none. */
type Answer = { body: FirstResponse } | { accepted: true } | { failed: true };

/** The HTTP exchange an interaction arrived on, waiting for the bot's first answer (given once). */
class Exchange {
  settled = false;
  private resolve: (a: Answer) => void = () => undefined;
  readonly answered = new Promise<Answer>((r) => {
    this.resolve = r;
  });

  settle(a: Answer): void {
    if (this.settled) return;
    this.settled = true;
    this.resolve(a);
  }
}

/**
 * The first answer over HTTP: written into the waiting response, as Discord documents. Files cannot
 * ride in it: a reply that carries some goes to the callback endpoint, and the exchange gets a 202
 * with no body. A reply's message id (for /history's links) is fetched once Discord has it, when no
 * other interaction waits for its answer: a link can wait, a player should not.
 */
function firstOverHttp(exchange: Exchange, hooks: REST, ids: Pick<InteractionIds, 'id' | 'applicationId' | 'token'>, quiet: WhenQuiet): FirstAnswer {
  const viaCallback = callbackAnswer(hooks, ids);
  return async (response, files, wantsId = true) => {
    if (files.length) {
      exchange.settle({ accepted: true });
      return viaCallback(response, files);
    }
    exchange.settle({ body: response });
    // A reply that shows no roll (a beacon roll's binding: its result's edit answers with the id) is not fetched.
    if (response.type !== CALLBACK.reply || !wantsId) return undefined;
    const message = await quiet.run(() => originalMessage(hooks, ids)).catch(() => undefined);
    return message?.id;
  };
}

/**
 * Interactions over HTTP (Discord POSTs each one to our endpoint) instead of the gateway: the same
 * router, responder and replies (interaction-replies.ts), with no gateway connection and no client
 * library between the verified bytes and the router, so any number of these processes can stand
 * behind a load balancer. The body is read by our own schema (http-interaction.ts); the first answer
 * (a reply, a defer, choices) goes back in the HTTP response; edits, follow-ups and files go over
 * @discordjs/rest on kept-alive connections.
 */
export function createHttpBot(o: HttpBotOptions): HttpBot {
  const api = { version: '10', ...(o.apiBase ? { api: o.apiBase } : {}) };
  const rest = new REST(api).setToken(o.token);
  // Discord does not count requests made with an interaction's token against the bot's global limit.
  const hooks = new REST({ ...api, globalRequestsPerSecond: Number.MAX_SAFE_INTEGER });
  let waiting = 0; // interactions whose first answer is still to be given
  const quiet = new WhenQuiet(() => waiting > 0);
  const responder = new Responder(o.router, o.links, o.log, o.deferAfterMs, o.observe);
  const handling = new Set<Promise<void>>();
  const appKey = hexOfKey(o.publicKey);
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
    const signature = asString(req.headers['x-signature-ed25519']);
    const timestamp = asString(req.headers['x-signature-timestamp']);
    const problem = signatureProblem(o.publicKey, signature, timestamp, body);
    if (problem) {
      refusals.note(problem);
      return reply(res, 401, { message: 'invalid request signature' });
    }
    const raw = interactionOf(body);
    if (raw === 'ping') return reply(res, 200, { type: 1 });
    if (!raw) return reply(res, 400, { message: 'malformed body: an interaction is a JSON object with an id, a type and a token' });
    // Only a triple whose signature held reaches here: kept as Discord sent it, for the rows it writes.
    const evidence = { key: appKey, timestamp: timestamp!, signature: signature!, body: body.toString('base64') };
    return reply(res, ...(await answer(raw, evidence)));
  }

  /** The interaction routed through the responder; its first answer, as the HTTP reply. */
  async function answer(raw: RawInteraction, evidence: RequestEvidence): Promise<[number, unknown?]> {
    const exchange = new Exchange();
    const first = firstOverHttp(exchange, hooks, { id: raw.id, applicationId: raw.application_id, token: raw.token }, quiet);
    const t = httpInteraction(raw, { hooks, bot: rest, first, evidence });
    if (!t) return [400, { message: 'an interaction of a kind this bot does not take' }];
    waiting++;
    const done = responder.respond(t);
    handling.add(done);
    void done.finally(() => handling.delete(done));
    const answered = await Promise.race([exchange.answered, done.then((): Answer => ({ failed: true }))]);
    waiting--;
    quiet.pump();
    if ('body' in answered) return [200, answered.body];
    if ('accepted' in answered) return [202];
    return [500, { message: 'the interaction could not be answered' }];
  }

  return {
    rest,
    ready: () => server.listening,
    port: () => (server.address() as AddressInfo | null)?.port ?? 0,
    idle: () => Promise.allSettled(handling).then(() => undefined),
    async start() {
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
      await Promise.allSettled(handling);
      await o.links.flush();
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

/** The body as an interaction (or a PING), or undefined when it is not one: not JSON, null, not an object, or not of Discord's shape. */
function interactionOf(body: Buffer): RawInteraction | 'ping' | undefined {
  let v: unknown;
  try {
    v = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (v && typeof v === 'object' && (v as { type?: unknown }).type === 1) return 'ping';
  const parsed = RawInteraction.safeParse(v);
  return parsed.success ? parsed.data : undefined;
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
