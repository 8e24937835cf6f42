import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { BaseInteraction, Client } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessageLinks } from '../../src/core/message-links.js';
import type { Request } from '../../src/core/router.js';
import { createBot, type Bot } from '../../src/discord/bot.js';
import { createHttpBot, type HttpBot } from '../../src/discord/http-bot.js';
import { publicKeyFromHex } from '../../src/discord/signature.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { autocomplete, buttonPress, channelOf, FakeDiscord, gmRoomOf, type Member, PERMISSION_MANAGE_GUILD, slashCommand } from './fake-discord.js';

// The two doors (the gateway through discord.js, HTTP on its own rails) answer the same
// interactions with the same replies, every body one Discord's OpenAPI schema takes; HTTP mode
// never makes a discord.js client or interaction object, and keeps its REST connections alive.
const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.FAKE00.ThisIsTheRailsTestTokenDoNotLogIt0123456';
const GUILD = '900000000000000061';
const alice: Member = { id: '300000000000000061', username: 'alice' };
const referee: Member = { id: '300000000000000063', username: 'referee', permissions: PERMISSION_MANAGE_GUILD };
const where = (member: Member) => ({ guildId: GUILD, member });

/** Counts discord.js clients and interaction objects made while it is on, as their constructors assign their first field. */
function constructions() {
  const seen = { clients: 0, interactions: 0 };
  const watch = (proto: object, field: string, count: () => void) => {
    Object.defineProperty(proto, field, {
      configurable: true,
      set(value: unknown) {
        count();
        Object.defineProperty(this, field, { value, writable: true, enumerable: true, configurable: true });
      },
    });
    return () => void Reflect.deleteProperty(proto, field);
  };
  const undo = [watch(Client.prototype, 'actions', () => seen.clients++), watch(BaseInteraction.prototype, 'type', () => seen.interactions++)];
  return {
    seen,
    off: () => {
      for (const u of undo) u();
    },
  };
}

/** The request bodies Discord's OpenAPI spec gives for what the bot sends (tests/fixtures), one validator each. */
function discordBodies() {
  const spec = JSON.parse(fs.readFileSync('tests/fixtures/discord-message-schema.json', 'utf8'));
  const body = (route: string, method: string) => spec.paths[route][method].requestBody.content['application/json'].schema;
  // The spec's own formats (snowflake, int32…) are not JSON Schema's: their types still hold.
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({
    $id: 'discord',
    components: spec.components,
    $defs: {
      callback: body('/interactions/{interaction_id}/{interaction_token}/callback', 'post'),
      followUp: body('/webhooks/{webhook_id}/{webhook_token}', 'post'),
      edit: body('/webhooks/{webhook_id}/{webhook_token}/messages/@original', 'patch'),
      channelMessage: body('/channels/{channel_id}/messages', 'post'),
    },
  });
  const of = (name: string) => ajv.compile({ $ref: `discord#/$defs/${name}` });
  return { callback: of('callback'), followUp: of('followUp'), edit: of('edit'), channelMessage: of('channelMessage') };
}

let fake: FakeDiscord;
let app: TestApp;
let dir: string;
let open: () => void = () => undefined;
// A rally of "Slowpoke" waits until the test has seen its defer.
const router = {
  handle: async (req: Request) => {
    if (req.type === 'command' && req.options.unit === 'Slowpoke') await new Promise<void>((r) => (open = r));
    return app.router.handle(req);
  },
};
// Deferred after 1 s, well inside Discord's 3 s for a first answer (as the gateway tests do).
const bots = { token: TOKEN, router, deferAfterMs: 1_000 };

beforeAll(async () => {
  fake = await new FakeDiscord([GUILD]).start();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'morale-officer-rails-'));
  app = testApp(path.join(dir, 'ledger.db'), { secrets: [TOKEN] });
  app.ledger.settings.setGmChannel(GUILD, gmRoomOf(GUILD));
  // A unit both doors' autocomplete offers.
  app.dice.push(3);
  const actor = { guildId: GUILD, channelId: channelOf(GUILD), userId: alice.id, userName: alice.username, isGm: false };
  await app.router.handle({ type: 'command', name: 'rally', options: { disorder: 1, unit: 'Grenadiers' }, actor });
});

afterAll(async () => {
  await fake?.stop();
  app?.ledger.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A door: sends an interaction the way its transport gets it, and resolves with its first answer as Discord received it. */
type Door = { send(i: Record<string, any>): Promise<{ type: number; data?: any }>; idle(): Promise<void> };

/** What both doors are asked, in order; the first answers and every body sent meanwhile, for the comparisons below. */
async function scenarios(door: Door) {
  const before = { callbacks: fake.callbacks.length, edits: fake.webhookEdits.length, posts: fake.channelMessages.length };
  const firsts: { type: number; data?: any }[] = [];
  const ask = async (i: Record<string, any>) => {
    const first = await door.send(i);
    firsts.push(first);
    return first;
  };
  app.dice.push(1);
  const rolled = await ask(slashCommand('rally', { disorder: 2, commander_near: true }, where(alice)));
  const button = rolled.data.components[0].components[0];
  app.dice.push(5);
  await ask(buttonPress(button.custom_id, { id: '500000000000000061', embeds: rolled.data.embeds, components: rolled.data.components }, where(referee)));
  await ask(slashCommand('rally', { disorder: 99 }, where(alice)));
  await ask(autocomplete('rally', { disorder: 1, unit: 'Gren' }, 'unit', where(alice)));
  app.dice.push(4);
  // A GM's sealed roll: its result to the GMs' channel, the notice public, the result privately to the GM.
  await ask(slashCommand('rally', { disorder: 2, unit: 'Hidden', sealed: true }, where(referee)));
  await ask(slashCommand('export', {}, where(referee)));
  // Held past the defer: a public result follows as its own message, a refusal is edited in.
  app.dice.push(4);
  await afterDefer(ask, slashCommand('rally', { disorder: 2, unit: 'Slowpoke' }, where(alice)), 'POST');
  await afterDefer(ask, slashCommand('rally', { disorder: 99, unit: 'Slowpoke' }, where(alice)), 'PATCH');
  await door.idle();
  return {
    firsts,
    callbacks: fake.callbacks.slice(before.callbacks),
    edits: fake.webhookEdits.slice(before.edits).filter((e) => e.method === 'POST' || e.method === 'PATCH'),
    posts: fake.channelMessages.slice(before.posts),
  };
}

/** Asks a held interaction and waits for what follows its defer over the interaction's webhook (a follow-up, or an edit). */
async function afterDefer(ask: (i: Record<string, any>) => Promise<unknown>, i: Record<string, any>, method: 'POST' | 'PATCH') {
  await ask(i);
  const key = encodeURIComponent(i.token).slice(0, 20);
  const sentBy = () => fake.webhookEdits.find((e) => e.method === method && (e.path.includes(i.token) || e.path.includes(key)));
  await expect.poll(sentBy, { timeout: 30_000 }).toBeDefined();
}

/** A defer seen opens Slowpoke's gate: its result is then posted over the interaction's webhook. */
const opened = <T extends { type: number }>(first: T) => {
  if (first.type === 5) open();
  return first;
};

describe('the two doors', () => {
  const sent: Record<'http' | 'gateway', Awaited<ReturnType<typeof scenarios>>> = {} as never;
  const made: Record<'http' | 'gateway', { clients: number; interactions: number }> = {} as never;

  it('HTTP mode answers every scenario with no discord.js client or interaction object made, over kept-alive connections', async () => {
    const probe = constructions();
    let bot: HttpBot | undefined;
    try {
      bot = createHttpBot({
        ...bots,
        apiBase: fake.apiBase,
        links: new MessageLinks(app.ledger, app.log),
        log: app.log,
        publicKey: publicKeyFromHex(fake.publicKeyHex),
        port: 0,
        host: '127.0.0.1',
      });
      await bot.start();
      const url = `http://127.0.0.1:${bot.port()}/interactions`;
      const door: Door = {
        async send(i) {
          const res = await fake.postInteraction(url, i);
          if (res.status === 200) return opened(res.body);
          // A reply with files went to the callback endpoint, its exchange answered 202 (Discord's rule).
          expect(res.status).toBe(202);
          await expect.poll(() => fake.callbacks.find((c) => c.interactionId === i.id), { timeout: 30_000 }).toBeDefined();
          return fake.callbacks.find((c) => c.interactionId === i.id)!;
        },
        idle: () => bot!.idle(),
      };
      sent.http = await scenarios(door);
      // Twenty rolls one after another, each followed by the fetch of its message for /history: a
      // connection per request without keep-alive, a few at most with it.
      const connections = fake.connections;
      for (let n = 0; n < 20; n++) {
        app.dice.push(3);
        await door.send(slashCommand('rally', { disorder: 2, unit: `Line ${n}` }, where(alice)));
      }
      await bot.idle();
      expect(fake.connections - connections).toBeLessThanOrEqual(4);
    } finally {
      await bot?.stop();
      probe.off();
    }
    made.http = { ...probe.seen };
    expect(made.http).toEqual({ clients: 0, interactions: 0 });
  });

  it('the gateway answers the same scenarios through discord.js (which the probe sees: it would see HTTP mode make one)', async () => {
    const probe = constructions();
    let bot: Bot | undefined;
    try {
      bot = createBot({ ...bots, apiBase: fake.apiBase, links: new MessageLinks(app.ledger, app.log), log: app.log });
      await bot.start();
      sent.gateway = await scenarios({
        send: async (i) => opened(await fake.send(i, 30_000)),
        // What follows a first answer is awaited by each scenario itself.
        idle: async () => undefined,
      });
    } finally {
      await bot?.stop();
      probe.off();
    }
    made.gateway = { ...probe.seen };
    expect(made.gateway.clients).toBe(1);
    expect(made.gateway.interactions).toBeGreaterThanOrEqual(8);
  });

  it('give the same first answers: the same kinds, refusals, choices and results', () => {
    const shape = (f: { type: number; data?: any }) => ({
      type: f.type,
      flags: f.data?.flags ?? 0,
      content: f.data?.content,
      titles: f.data?.embeds?.map((e: { title: string }) => e.title.replace(/roll \w+/g, 'roll …')),
      buttons: f.data?.components?.flatMap((r: { components: { label: string }[] }) => r.components.map((b) => b.label)),
      choices: f.data?.choices,
    });
    expect(sent.http.firsts.map(shape)).toEqual(sent.gateway.firsts.map(shape));
    expect(sent.http.firsts.map((f) => f.type)).toEqual([4, 7, 4, 8, 4, 4, 5, 5]);
    expect(sent.http.firsts[3]!.data.choices).toEqual([{ name: 'Grenadiers', value: 'Grenadiers' }]);
  });

  it('send every body in a shape Discord’s OpenAPI schema takes, on both doors', () => {
    const valid = discordBodies();
    for (const door of ['http', 'gateway'] as const) {
      const s = sent[door];
      const bodies = [
        ...s.firsts.map((f) => ['callback', { type: f.type, ...(f.data ? { data: f.data } : {}) }] as const),
        ...s.callbacks.map((c) => ['callback', { type: c.type, ...(c.data ? { data: c.data } : {}) }] as const),
        ...s.edits.map((e) => [e.method === 'PATCH' ? 'edit' : 'followUp', withoutFiles(e.body)] as const),
        ...s.posts.map((p) => ['channelMessage', p.body] as const),
      ];
      // Replies, an update, choices, a defer; a follow-up and an edit; a post to the GMs' channel.
      expect(new Set(bodies.map(([kind]) => kind)), door).toEqual(new Set(['callback', 'followUp', 'edit', 'channelMessage']));
      for (const [kind, body] of bodies)
        expect(valid[kind](body), `${door} ${kind} ${JSON.stringify(body).slice(0, 300)}: ${JSON.stringify(valid[kind].errors)}`).toBe(true);
    }
  });

  it('carry the same files the same way: a multipart answer at the callback endpoint', () => {
    const files = (door: 'http' | 'gateway') =>
      sent[door].callbacks.filter((c) => c.files.length).map((c) => c.files.map((f: { filename: string }) => f.filename.replace(/\d{4}-\d\d-\d\d/, 'day')));
    expect(files('http')).toEqual(files('gateway'));
    expect(files('http')[0]).toEqual(expect.arrayContaining(['ledger-day.csv', 'ledger-day.jsonl']));
  });
});

const withoutFiles = ({ _files, ...body }: Record<string, unknown>) => body;
