import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KeyObject } from 'node:crypto';
import { Events, type Interaction } from 'discord.js';
import { Responder } from '../core/responder.js';
import { gatewayInteraction, isRoutable } from './adapter.js';
import type { Bot, BotOptions } from './bot.js';
import { createClient } from './bot.js';
import { signedByDiscord } from './signature.js';

export type HttpBotOptions = BotOptions & {
  publicKey: KeyObject;
  port: number;
  host?: string;
  /** Bodies past this are refused (Discord's interactions are a few kilobytes). */
  maxBodyBytes?: number;
};

export type HttpBot = Bot & { port(): number };

/** The HTTP exchange an interaction arrived on, waiting for the bot's first answer. */
type Exchange = { answer: (a: Answer) => void; appId: string; token: string };
type Answer = { body: unknown } | { accepted: true } | { failed: true };

const CALLBACK = /\/interactions\/(\d+)\/([^/?]+)\/callback(?:\?|$)/;

/**
 * discord.js's REST requests, with the first answer to an interaction that arrived over HTTP caught
 * and written into its waiting HTTP response instead of the callback endpoint.
 */
function catchingCallbacks(exchanges: Map<string, Exchange>) {
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
    // The message's id (for /history's links) comes from the original response, once Discord has it.
    const root = url.slice(0, url.indexOf('/interactions/'));
    const message = await fetch(`${root}/webhooks/${exchange.appId}/${exchange.token}/messages/@original`)
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
  const client = createClient(o.apiBase, catchingCallbacks(exchanges));
  const responder = new Responder(o.router, o.links, o.log, o.deferAfterMs);
  const handling = new Map<string, Promise<void>>();
  client.on(Events.InteractionCreate, (i: Interaction) => {
    if (isRoutable(i)) handling.set(i.id, responder.respond(gatewayInteraction(i)));
  });

  const server = http.createServer((req, res) => void serve(req, res));
  const reply = (res: http.ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };

  async function serve(req: http.IncomingMessage, res: http.ServerResponse) {
    if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://x').pathname !== '/interactions') return reply(res, 404, { message: 'not found' });
    const body = await readBody(req, o.maxBodyBytes ?? 1 << 20);
    if (!body) return reply(res, 413, { message: 'body too large' });
    const signature = req.headers['x-signature-ed25519'];
    const timestamp = req.headers['x-signature-timestamp'];
    if (!signedByDiscord(o.publicKey, asString(signature), asString(timestamp), body)) return reply(res, 401, { message: 'invalid request signature' });
    let raw: { id: string; type: number; token: string; application_id: string };
    try {
      raw = JSON.parse(body.toString('utf8'));
    } catch {
      return reply(res, 400, { message: 'malformed body' });
    }
    if (raw.type === 1) return reply(res, 200, { type: 1 });
    const answered = new Promise<Answer>((answer) => exchanges.set(raw.id, { answer, appId: raw.application_id, token: raw.token }));
    try {
      (client as unknown as { actions: { InteractionCreate: { handle(d: unknown): void } } }).actions.InteractionCreate.handle(raw);
    } catch (err) {
      o.log.warn('could not read an interaction', { err });
    }
    const done = handling.get(raw.id) ?? Promise.resolve();
    const first = await Promise.race([answered, done.then((): Answer => ({ failed: true }))]);
    exchanges.delete(raw.id);
    void done.finally(() => handling.delete(raw.id));
    if ('body' in first) return reply(res, 200, first.body);
    if ('accepted' in first) return reply(res, 202);
    return reply(res, 500, { message: 'the interaction could not be answered' });
  }

  return {
    client,
    ready: () => server.listening,
    port: () => (server.address() as AddressInfo | null)?.port ?? 0,
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

const asString = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The whole body, or undefined past `limit` bytes. */
function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        resolve(undefined);
        req.destroy();
      } else parts.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}
