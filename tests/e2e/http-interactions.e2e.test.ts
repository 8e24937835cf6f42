import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessageLinks } from '../../src/core/message-links.js';
import type { Request } from '../../src/core/router.js';
import { createHttpBot, type HttpBot } from '../../src/discord/http-bot.js';
import { publicKeyFromHex } from '../../src/discord/signature.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { autocomplete, buttonPress, FakeDiscord, gmRoomOf, type Member, PERMISSION_MANAGE_GUILD, slashCommand } from './fake-discord.js';

// HTTP interactions mode: the fake Discord signs and POSTs each interaction to the bot's
// endpoint on loopback, as Discord does; the bot answers in the HTTP response (or defers there and
// edits over REST), through the same router and ledger as the gateway.
const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.FAKE00.ThisIsTheHttpTestTokenDoNotLogIt012345678';
const GUILD = '900000000000000001';
const alice: Member = { id: '300000000000000001', username: 'alice', nick: 'Alice of the 1st' };
const referee: Member = { id: '300000000000000003', username: 'referee', permissions: PERMISSION_MANAGE_GUILD };

let fake: FakeDiscord;
let app: TestApp;
let bot: HttpBot;
let url: string;
let dir: string;
let links: MessageLinks;
let slowGate: Promise<void> | undefined;
let slowArrived: () => void = () => undefined;

// A rally of the unit "Slowpoke" takes longer than the defer threshold: until a test opens its
// gate, or 400 ms without one.
const router = {
  handle: async (req: Request) => {
    if (req.type === 'command' && req.options.unit === 'Slowpoke') {
      slowArrived();
      await (slowGate ?? new Promise((r) => setTimeout(r, 400)));
    }
    return app.router.handle(req);
  },
};
beforeAll(async () => {
  fake = await new FakeDiscord([GUILD]).start();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'morale-officer-http-'));
  app = testApp(path.join(dir, 'ledger.db'), { secrets: [TOKEN] });
  links = new MessageLinks(app.ledger, app.log);
  bot = createHttpBot({
    token: TOKEN,
    apiBase: fake.apiBase,
    router,
    links,
    log: app.log,
    // Far past what any command takes on a busy machine: only the test below that holds a roll
    // at its gate sees a defer, from a bot of its own.
    deferAfterMs: 60_000,
    publicKey: publicKeyFromHex(fake.publicKeyHex),
    port: 0,
    host: '127.0.0.1',
  });
  await bot.start();
  url = `http://127.0.0.1:${bot.port()}/interactions`;
});

afterAll(async () => {
  await bot?.stop();
  await fake?.stop();
  app?.ledger.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('HTTP interactions: signatures', () => {
  it('answers a signed PING with PONG, and writes nothing', async () => {
    const before = app.ledger.count(GUILD);
    const res = await fake.postInteraction(url, { id: '1', type: 1, token: 't', application_id: '110000000000000001', version: 1 });
    expect(res).toEqual({ status: 200, body: { type: 1 } });
    expect(app.ledger.count(GUILD)).toBe(before);
  });

  it('refuses with 401 a missing, wrong or stale signature, and a body other than the one signed — nothing is rolled', async () => {
    const before = app.ledger.count(GUILD);
    const rally = () => slashCommand('rally', { disorder: 2 }, { member: alice });
    const stale = String(Math.floor(Date.now() / 1000) - 10 * 60);
    for (const forge of [
      { signature: null },
      { signature: 'ab'.repeat(64) },
      { signature: 'not hex' },
      { timestamp: stale },
      { timestamp: 'soon' },
      { sentBody: JSON.stringify({ ...rally(), type: 1 }) },
    ]) {
      const res = await fake.postInteraction(url, rally(), forge);
      expect(res, JSON.stringify(forge)).toEqual({ status: 401, body: { message: 'invalid request signature' } });
    }
    expect(app.ledger.count(GUILD)).toBe(before);
    // A refusal is not silent (a wrong DISCORD_PUBLIC_KEY refuses everything), but six in a
    // row make one warn line a minute, with the first reason, never the headers' values.
    const lines = app.logs.map((l) => JSON.parse(l)).filter((l) => l.msg === 'refused a request whose signature is not Discord’s (401)');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', reason: 'the X-Signature-Ed25519 or X-Signature-Timestamp header is missing', refused_since_last_line: 1 });
  });

  it('only POST /interactions is served', async () => {
    expect((await fetch(url.replace('/interactions', '/other'), { method: 'POST' })).status).toBe(404);
    expect((await fetch(url)).status).toBe(404);
  });
});

describe('HTTP interactions: commands, buttons, autocomplete', () => {
  it('a slash command is answered in the HTTP response, after its row is in the ledger', async () => {
    const before = app.ledger.count(GUILD);
    app.dice.push(4);
    const interaction = slashCommand('rally', { disorder: 2, unit: '1st Foot' }, { member: alice });
    const res = await fake.postInteraction(url, interaction);
    expect(res.status).toBe(200);
    expect(res.body.type).toBe(4);
    const [embed] = res.body.data.embeds;
    expect(embed.title.split(' — ')[0]).toBe('Rally · 1st Foot');
    expect(embed.author.name).toBe('Alice of the 1st');
    expect(embed.fields.find((f: any) => f.name === 'Result').value).toContain('**Retreat**');
    const id = /roll (\w+)/.exec(embed.footer.text)![1]!;
    expect(app.ledger.get(GUILD, id)).toMatchObject({ user_id: alice.id, result: 'retreat', dice: [4] });
    expect(app.ledger.count(GUILD)).toBe(before + 1);
    // Nothing went to the callback endpoint: the answer was the HTTP response.
    expect(fake.callbackAttempts.get(interaction.id)).toBeUndefined();
  });

  it('a roll is linked to its message for /history, fetched only once no other interaction waits for its answer', async () => {
    app.dice.push(4, 4);
    // Ordered by events, never by time (a busy machine slows everything alike). Slowpoke's roll is
    // held until the quick one is answered: a quick reply held behind it never comes, and the test
    // fails on its timeout. Slowpoke is answered (a reply, or the defer after 200 ms) once the gate opens.
    let open: () => void = () => undefined;
    slowGate = new Promise<void>((r) => {
      open = r;
    });
    const arrived = new Promise<void>((r) => {
      slowArrived = r;
    });
    const quick = slashCommand('rally', { disorder: 2, unit: 'Quick' }, { member: alice });
    const quickFetches = () => fake.webhookEdits.filter((e) => e.method === 'GET' && e.path.includes(quick.token.split('/')[0]!));
    let fetchedBeforeSlowAnswered = -1;
    const slow = fake.postInteraction(url, slashCommand('rally', { disorder: 2, unit: 'Slowpoke' }, { member: alice })).then((r) => {
      fetchedBeforeSlowAnswered = quickFetches().length;
      return r;
    });
    await arrived;
    const res = await fake.postInteraction(url, quick);
    open();
    slowGate = undefined;
    expect((await slow).status).toBe(200);
    await bot.idle();
    await links.flush();
    // The quick roll's message is fetched for its link, and only after Slowpoke was answered.
    expect(fetchedBeforeSlowAnswered).toBe(0);
    expect(quickFetches().map((e) => e.path)).toEqual([expect.stringMatching(/\/messages\/@original$/)]);
    const id = /roll (\w+)/.exec(res.body.data.embeds[0].footer.text)![1]!;
    const linked = app.ledger.db.prepare('SELECT message_id FROM roll_messages WHERE roll_id = ?').get(id) as { message_id: string } | undefined;
    expect(linked?.message_id).toMatch(/^\d{17,20}$/);
  });

  it("a refusal is in the player's language, naming the option as their client shows it", async () => {
    const before = app.ledger.count(GUILD);
    const german = { ...slashCommand('rally', { disorder: 99 }, { member: alice }), locale: 'de' };
    const res = await fake.postInteraction(url, german);
    expect(res.status).toBe(200);
    expect(res.body.data.flags).toBe(64);
    expect(res.body.data.content).toBe('⚠️ `unordnung` muss eine ganze Zahl von 1 bis 30 sein (du gabst 99).');
    const french = { ...slashCommand('rally', { disorder: 99 }, { member: alice }), locale: 'fr' };
    expect((await fake.postInteraction(url, french)).body.data.content).toBe('⚠️ `désordre` doit être un nombre entier de 1 à 30 (tu as donné 99).');
    expect(app.ledger.count(GUILD)).toBe(before);
  });

  it('a button press updates its message in the HTTP response; a second press is refused', async () => {
    app.dice.push(1);
    const first = await fake.postInteraction(url, slashCommand('rally', { disorder: 2, commander_near: true }, { member: alice }));
    const button = first.body.data.components[0].components[0];
    const message = { id: '500000000000000009', embeds: first.body.data.embeds, components: first.body.data.components };
    app.dice.push(5);
    const pressed = await fake.postInteraction(url, buttonPress(button.custom_id, message, { member: referee }));
    expect(pressed.status).toBe(200);
    expect(pressed.body.type).toBe(7);
    expect(pressed.body.data.components).toEqual([]);
    const again = await fake.postInteraction(url, buttonPress(button.custom_id, message, { member: referee }));
    expect(again.body).toMatchObject({ type: 4, data: { flags: 64 } });
    expect(again.body.data.content).toContain('already joined');
  });

  it("autocomplete answers with this channel's units", async () => {
    app.dice.push(3);
    await fake.postInteraction(url, slashCommand('rally', { disorder: 1, unit: 'Grenadiers' }, { member: alice }));
    const res = await fake.postInteraction(url, autocomplete('rally', { disorder: 1, unit: 'gre' }, 'unit', { member: alice }));
    expect(res).toEqual({ status: 200, body: { type: 8, data: { choices: [{ name: 'Grenadiers', value: 'Grenadiers' }] } } });
  });

  it("autocomplete's hints are in the player's language", async () => {
    const german = { ...autocomplete('odds', { roll: 'rally dis' }, 'roll', { member: alice }), locale: 'de' };
    const res = await fake.postInteraction(url, german);
    // An English name typed is matched, and the option offered under the name a German client shows.
    expect(res.body.data.choices).toEqual([{ name: 'rally unordnung: eine ganze Zahl von 1 bis 30', value: 'rally unordnung:' }]);
  });

  it('slow work is deferred in the HTTP response and the result edited in over REST', async () => {
    // A bot that defers at once, and Slowpoke held at its gate until the defer is in hand.
    const deferring = createHttpBot({
      token: TOKEN,
      apiBase: fake.apiBase,
      router,
      links,
      log: app.log,
      deferAfterMs: 0,
      publicKey: publicKeyFromHex(fake.publicKeyHex),
      port: 0,
      host: '127.0.0.1',
    });
    await deferring.start();
    let open: () => void = () => undefined;
    slowGate = new Promise<void>((r) => {
      open = r;
    });
    const edits = fake.webhookEdits.length;
    app.dice.push(4);
    const interaction = slashCommand('rally', { disorder: 2, unit: 'Slowpoke' }, { member: alice });
    const res = await fake.postInteraction(`http://127.0.0.1:${deferring.port()}/interactions`, interaction);
    open();
    slowGate = undefined;
    expect(res).toEqual({ status: 200, body: { type: 5, data: { flags: 64 } } });
    // The result follows over REST on the interaction's webhook.
    await expect
      .poll(() => fake.webhookEdits.slice(edits).some((e) => e.body?.embeds?.[0]?.title?.startsWith('Rally · Slowpoke — ')), { timeout: 60_000 })
      .toBe(true);
    const result = fake.webhookEdits.slice(edits).find((e) => e.body?.embeds?.[0]?.title?.startsWith('Rally · Slowpoke — '));
    expect(result?.path).toContain(interaction.token.split('/')[0]);
    expect(fake.callbackAttempts.get(interaction.id)).toBeUndefined();
    await deferring.idle();
    await deferring.stop();
  });
});

describe('HTTP interactions: posting to another channel', () => {
  it("a sealed roll's result goes to the GMs' channel over REST, with no guild cached", async () => {
    app.ledger.settings.setGmChannel(GUILD, gmRoomOf(GUILD));
    const posted = fake.channelMessages.length;
    app.dice.push(4);
    const res = await fake.postInteraction(url, slashCommand('rally', { disorder: 2, unit: 'Hidden', sealed: true }, { member: alice }));
    expect(res.status).toBe(200);
    expect(res.body.data.embeds[0].title).toBe('Sealed roll · /rally · Hidden');
    expect(res.body.data.embeds[0].description).not.toContain('could not be posted');
    const post = fake.channelMessages.slice(posted).find((m) => m.channelId === gmRoomOf(GUILD));
    expect(post?.body.embeds[0].title).toContain('Hidden');
  });
});

describe('HTTP interactions: replays and hostile clients', () => {
  it('the same signed request posted five times records one roll; the others are told it was handled', async () => {
    const before = app.ledger.count(GUILD);
    app.dice.push(4, 4, 4, 4, 4);
    const interaction = slashCommand('rally', { disorder: 2, unit: 'Replayed' }, { member: alice });
    const replies = [];
    for (let i = 0; i < 5; i++) replies.push(await fake.postInteraction(url, interaction));
    app.dice.clear();
    expect(app.ledger.count(GUILD)).toBe(before + 1);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(replies[0]!.body.data.embeds[0].title.split(' — ')[0]).toBe('Rally · Replayed');
    for (const r of replies.slice(1)) {
      expect(r.body.data.flags).toBe(64);
      expect(r.body.data.content).toContain('This interaction was already handled');
    }
  });

  const raw = (body: string | Buffer, headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }).then(async (r) => ({
      status: r.status,
      body: await r.text(),
    }));

  it('a signed null, array or number body is a 400, never a hang or a crash', async () => {
    for (const body of ['null', '[]', '7', '"text"', '{"type":2}']) {
      const res = await fake.postInteraction(url, {}, { sentBody: body, signBody: true });
      expect(res.status, body).toBe(400);
    }
  });

  it('a body past 64 KiB is refused with 413, by its length or as it arrives', async () => {
    expect((await raw('x'.repeat(64 * 1024 + 1))).status).toBe(413);
    // No Content-Length: the body is counted as it comes and refused once past the cap.
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 80; i++) c.enqueue(new Uint8Array(1024));
        c.close();
      },
    });
    const res = await fetch(url, { method: 'POST', body: stream, duplex: 'half' } as RequestInit).then((r) => r.status);
    expect(res).toBe(413);
  });

  it('500 aborted uploads leave no error line and the server still answers', async () => {
    const net = await import('node:net');
    const port = bot.port();
    const errors = () => app.logs.filter((l) => /"level":"(error|warn)"/.test(l)).length;
    const before = errors();
    await Promise.all(
      Array.from(
        { length: 500 },
        () =>
          new Promise<void>((resolve) => {
            const s = net.connect(port, '127.0.0.1', () => {
              s.write('POST /interactions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"id":');
              setTimeout(() => s.destroy(), 5);
            });
            s.on('close', () => resolve());
            s.on('error', () => resolve());
          }),
      ),
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(errors() - before).toBe(0);
    const ping = await fake.postInteraction(url, { id: '2', type: 1, token: 't', application_id: '110000000000000001', version: 1 });
    expect(ping).toEqual({ status: 200, body: { type: 1 } });
  });

  it('a stalled client is cut off by the timeouts, and connections past the cap are refused', async () => {
    const net = await import('node:net');
    const botWith = (limits: { headersTimeoutMs: number; requestTimeoutMs: number }) =>
      createHttpBot({
        token: TOKEN,
        apiBase: fake.apiBase,
        router: app.router,
        links: new MessageLinks(app.ledger, app.log),
        log: app.log,
        publicKey: publicKeyFromHex(fake.publicKeyHex),
        port: 0,
        host: '127.0.0.1',
        maxConnections: 2,
        timeoutCheckMs: 50,
        ...limits,
      });
    const open = (port: number, data: string) => {
      const s = net.connect(port, '127.0.0.1', () => s.write(data));
      const connected = new Promise<void>((r) => s.on('connect', () => r()));
      const closed = new Promise<{ reply: string }>((resolve) => {
        let reply = '';
        s.on('data', (d) => {
          reply += d.toString();
        });
        s.on('close', () => resolve({ reply }));
        s.on('error', () => undefined);
      });
      return { s, connected, closed };
    };
    // Headers that never end, and a body that never comes: both answered 408 and closed by the limits
    // (the test waits for the close itself: however busy the machine, no time is asserted).
    const small = botWith({ headersTimeoutMs: 200, requestTimeoutMs: 300 });
    await small.start();
    const stalled = await Promise.all([
      open(small.port(), 'POST /interactions HTTP/1.1\r\nHost: x\r\n').closed,
      open(small.port(), 'POST /interactions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{').closed,
    ]);
    for (const s of stalled) expect(s.reply).toMatch(/^HTTP\/1\.1 408/);
    await small.stop();
    // Two connections held open, with limits no test outlasts: a third is closed unanswered while they
    // still are.
    const capped = botWith({ headersTimeoutMs: 600_000, requestTimeoutMs: 600_000 });
    await capped.start();
    let heldClosed = 0;
    const held = [open(capped.port(), 'POST /interactions HTTP/1.1\r\n'), open(capped.port(), 'POST /interactions HTTP/1.1\r\n')];
    for (const h of held) void h.closed.then(() => heldClosed++);
    await Promise.all(held.map((h) => h.connected));
    const third = await open(capped.port(), 'POST /interactions HTTP/1.1\r\n').closed;
    expect(heldClosed).toBe(0);
    expect(third.reply).toBe('');
    for (const h of held) h.s.destroy();
    await Promise.all(held.map((h) => h.closed));
    await capped.stop();
  });
});
