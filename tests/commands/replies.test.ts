import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { attachmentData, type Reply } from '../../src/core/command.js';
import { MessageLinks } from '../../src/core/message-links.js';
import { Responder, type TransportInteraction } from '../../src/core/responder.js';
import { CHART_THEME } from '../../src/render/chart.js';
import { alice, bob, command, expectMessage, gm, oddsRoll, queueRoller, subcommand, testApp } from '../helpers/app.js';
import { createRouter } from '../../src/app.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { sqliteStore } from '../../src/ledger/store.js';
import { createLogger } from '../../src/log.js';
import { tmpDb } from '../helpers/tmp.js';

// Replies a player reads at a glance. Each test renders a reply whose wording was changed for that
// (the embed JSON a transport sends) and checks the new wording.

describe('/mc shows the conditions its check used', () => {
  it('a plain Morale Check lists none of Heat of Battle’s; one that chained a HoB DR does', async () => {
    const app = testApp();
    app.dice.push(3, 4);
    const plain = expectMessage(await command(app, alice, 'mc', { unit: 'Russian 4-4-7', number: 2, leader_drm: -1 }));
    expect(plain.embed.description).toBe('2MC');
    app.dice.push(1, 1, 2, 2);
    const chained = expectMessage(await command(app, alice, 'mc', { unit: 'German 4-6-7' }));
    expect(chained.embed.description).toBe('NMC · Known enemy in LOS · no enemy ADJACENT');
    app.ledger.close();
  });
});

/** The RGBA of a PNG's first pixel: its first scanline's first pixel is stored raw whatever the row's filter. */
function firstPixel(png: Buffer): number[] {
  const chunks: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const len = png.readUInt32BE(at);
    const type = png.toString('ascii', at + 4, at + 8);
    if (type === 'IDAT') chunks.push(png.subarray(at + 8, at + 8 + len));
    at += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(chunks));
  return [...raw.subarray(1, 5)];
}
const hex = (rgba: number[]) =>
  `#${rgba
    .slice(0, 3)
    .map((v) => v.toString(16).padStart(2, '0'))
    .join('')}`;

describe('charts for both themes, with alt text', () => {
  it('/odds and /stats draw on a dark panel (not white) and describe the chart in words', async () => {
    const app = testApp();
    const odds = expectMessage(await command(app, alice, 'odds', oddsRoll('rally', { disorder: 2 })));
    const file = odds.type === 'message' ? odds.files![0]! : undefined;
    expect(hex(firstPixel(attachmentData(file!)))).toBe(CHART_THEME.background);
    expect(CHART_THEME.background).not.toBe('#ffffff');
    expect(file!.description).toBe('Bar chart, Odds · Rally roll. probability: Rally 33%, Retreat 50%, Rout 17%.');
    app.dice.push(4);
    expectMessage(await command(app, alice, 'rally', { disorder: 1 }));
    const stats = expectMessage(await command(app, alice, 'stats', {}));
    const chart = stats.type === 'message' ? stats.files![0]! : undefined;
    expect(hex(firstPixel(attachmentData(chart!)))).toBe(CHART_THEME.background);
    expect(chart!.description).toMatch(
      /^Bar chart, 1d6: share of rolls by Original total, against fair dice\. all: 1 0%, 2 0%, 3 0%, 4 100%, 5 0%, 6 0%\. fair dice: 1 17%/,
    );
    app.ledger.close();
  });
});

describe('autocomplete for roll ids and games', () => {
  it('a player is offered their own recent rolls in the channel, a GM everyone’s; a sealed one says sealed; games by name', async () => {
    const app = testApp();
    expectMessage(await subcommand(app, alice, 'game', 'start', { system: 'hearts-of-tin', name: 'Quatre Bras' }));
    app.dice.push(6, 2);
    const mine = expectMessage(await command(app, alice, 'rally', { disorder: 1, unit: 'Guards' })).record!.roll_id;
    const sealed = expectMessage(await command(app, bob, 'rally', { disorder: 1, sealed: true })).record!.roll_id;
    const complete = async (actor: typeof alice, name: string, value: string, subcommand?: string) => {
      const r = await app.router.handle({
        type: 'autocomplete',
        name,
        option: name === 'history' ? 'game' : 'id',
        value,
        actor,
        ...(subcommand ? { subcommand } : {}),
      });
      return r.type === 'choices' ? r.choices : [];
    };
    const forAlice = await complete(alice, 'void', '');
    expect(forAlice.map((c) => c.value)).toEqual([mine]);
    expect(forAlice[0]!.name).toMatch(new RegExp(`^${mine} · /rally Guards · Rally · \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d$`));
    const forBob = await complete(bob, 'reveal', '');
    expect(forBob.map((c) => [c.value, c.name.split(' · ')[2]])).toEqual([[sealed, 'sealed']]);
    const forGm = await complete(gm, 'roll', '', 'show');
    expect(forGm.map((c) => c.value)).toEqual([sealed, mine]);
    expect(forGm[0]!.name).toContain(' · sealed · Bob · ');
    expect((await complete(gm, 'annotate', mine.slice(0, 3))).map((c) => c.value)).toContain(mine);
    expect(await complete(gm, 'annotate', 'zzzz')).toEqual([]);
    const games = await complete(alice, 'history', 'quatre');
    expect(games).toEqual([{ name: expect.stringMatching(/^Quatre Bras · hearts-of-tin · \d{4}-\d\d-\d\d \d\d:\d\d$/), value: expect.any(String) }]);
    app.ledger.close();
  });
});

describe('the roll log channel', () => {
  it('/config log-channel: every public result is copied there in one line with its link, once the reply is out; sealed and ephemeral replies are not', async () => {
    const app = testApp();
    expectMessage(await subcommand(app, gm, 'config', 'log-channel', { channel: 'dice-log' }));
    const posts: { channelId: string; text: string }[] = [];
    const run = async (request: Record<string, unknown>, actor = alice) => {
      const transport: TransportInteraction = {
        kind: 'command',
        actor: () => actor,
        installedByServer: () => true,
        request: (a) => ({ type: 'command', actor: a, ...request }) as never,
        defer: async () => undefined,
        post: async (channelId, embed) => void posts.push({ channelId, text: String(embed.description) }),
        deliver: async (reply: Reply) => (reply.type === 'message' && !reply.ephemeral ? 'm123' : undefined),
        messageUrl: (id) => `https://discord.com/channels/g1/c1/${id}`,
      };
      await new Responder(app.router, new MessageLinks(app.ledger, app.log), app.log).respond(transport);
    };
    app.dice.push(6);
    await run({ name: 'rally', options: { disorder: 1, unit: 'Guards' } });
    const id = app.ledger.history.page({ guildId: 'g1' }, 1, 0).rows[0]!.id;
    expect(posts).toEqual([
      { channelId: 'dice-log', text: `<@alice> · **Rally · Guards — Rally** · \`${id}\` · [message](https://discord.com/channels/g1/c1/m123)` },
    ]);
    app.dice.push(2);
    await run({ name: 'rally', options: { disorder: 1, sealed: true } });
    await run({ name: 'history', options: {} });
    expect(posts).toHaveLength(1);
    // Stopped: nothing more is copied.
    expectMessage(await subcommand(app, gm, 'config', 'log-channel', {}));
    app.dice.push(5);
    await run({ name: 'rally', options: { disorder: 1 } });
    expect(posts).toHaveLength(1);
    app.ledger.close();
  });

  it('the server’s settings are read once per request, whoever asks (the GM role, the log channel)', async () => {
    const ledger = Ledger.open(tmpDb());
    ledger.settings.setGmRole('g1', 'referee');
    ledger.settings.setLogChannel('g1', 'dice-log');
    const store = sqliteStore(ledger);
    let reads = 0;
    const get = async (g: string) => {
      reads++;
      return store.settings.get(g);
    };
    const counted = { ...store, settings: { get } };
    const dice = queueRoller();
    const router = createRouter({ ledger: counted, log: createLogger({ level: 'silent' }), roller: dice, gameRoller: () => dice });
    dice.push(6);
    const r = await router.handle({ type: 'command', name: 'rally', options: { disorder: 1 }, actor: { ...alice, roleIds: ['referee'] } });
    expect(r.type === 'message' && r.log?.channelId).toBe('dice-log');
    expect(reads).toBe(1);
    ledger.close();
  });

  it('a failed read of the setting after the roll committed costs the copy, never the result', async () => {
    const ledger = Ledger.open(tmpDb());
    const store = sqliteStore(ledger);
    const broken = { ...store, settings: { get: async () => Promise.reject(new Error('settings unreadable')) } };
    const dice = queueRoller();
    const router = createRouter({ ledger: broken, log: createLogger({ level: 'silent' }), roller: dice, gameRoller: () => dice });
    dice.push(6);
    const r = await router.handle({ type: 'command', name: 'rally', options: { disorder: 1 }, actor: alice });
    expect(r.type === 'message' && r.record?.result).toBe('rally');
    expect(r.type === 'message' && r.log).toBeUndefined();
    expect(ledger.count('g1')).toBe(1);
    ledger.close();
  });
});
