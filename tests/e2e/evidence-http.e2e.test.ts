import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportLedger } from '../../src/core/export-files.js';
import { sqliteStore } from '../../src/ledger/store.js';
import { verifyLedger } from '../../src/core/verify-ledger.js';
import { fakeDiscordKey } from '../helpers/beacon-game.js';
import { testApp } from '../helpers/app.js';
import { lf, rehash, rowsOf as linesOf } from '../helpers/verify-corpus.js';
import { verifyInBotWithEvidence } from '../helpers/verify-corpus-evidence.js';
import { verifyExport } from '../../src/verify/verify-export.js';
import { testChain } from '../helpers/beacon-relay.js';
import { startBeaconHttpHarness, type HttpHarness } from '../helpers/discord.js';
import type { Reply } from '../../src/core/command.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { createRouter } from '../../src/app.js';
import { createLogger } from '../../src/log.js';
import { autocomplete, buttonPress, channelOf, type Member, originalEdit, slashCommand, slashSubcommand } from './fake-discord.js';

// Discord's signature as evidence: a tournament game over HTTP interactions, where every
// row commits to the request Discord signed, the bytes are kept beside the chain, an opponent's
// Acknowledge keeps Discord's copy of the result, and exports hold the bytes once they are 15 minutes old.
const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.FAKE00.ThisIsTheEvidenceTokenDoNotLogIt012345';
const GUILD = '900000000000000031';
const alice: Member = { id: '300000000000000031', username: 'alice' };
const bob: Member = { id: '300000000000000032', username: 'bob' };
const { chain, sign } = testChain(37, 1);
let h: HttpHarness;

beforeAll(async () => {
  h = await startBeaconHttpHarness(TOKEN, [GUILD], chain, sign);
});

afterAll(() => h?.stop());

const gameStart = (options: Record<string, unknown>, member: Member) => slashSubcommand('game', 'start', options, { guildId: GUILD, member });

const rowsOf = () => h.app.ledger.history.page({ guildId: GUILD, kinds: 'all' }, 100, 0).rows;

async function exportText(now: number): Promise<string> {
  const result = await exportLedger(sqliteStore(h.app.ledger), { filter: { guildId: GUILD, kinds: 'all' }, limit: 8 * 1024 * 1024, stamp: `t${now}`, now });
  if (!result.ok) throw new Error('the export did not fit');
  return fs.readFileSync(result.files.find((f) => f.name.endsWith('.jsonl'))!.path, 'utf8');
}

describe('a tournament game over HTTP interactions', () => {
  it('every row commits to the request Discord signed; an opponent acknowledges; all verifiers check it', async () => {
    const start = gameStart({ system: 'hearts-of-tin', name: 'Waterloo', fair: 'tournament' }, alice);
    const started = await h.fake.postInteraction(h.url, start);
    expect(started.status).toBe(200);
    expect(started.body.data.embeds?.[0]?.title, JSON.stringify(started.body)).toBe('Game started · Waterloo');
    const first = rowsOf().find((r) => r.result === 'game_started')!;
    expect(first.input).toMatchObject({ discord_key: h.fake.publicKeyHex, fair: 'tournament', evidence: { interaction: start.id } });

    const rally = slashCommand('rally', { disorder: 1, unit: 'Blücher' }, { guildId: GUILD, member: alice });
    expect((await h.fake.postInteraction(h.url, rally)).status).toBe(200);
    const edit = await originalEdit(h.fake, rally.token);
    const roll = rowsOf().find((r) => r.kind === 'roll')!;
    // The result offers the opponent an Acknowledge naming the roll.
    const ack = edit.body.components
      .flatMap((c: { components: { custom_id: string; label: string }[] }) => c.components)
      .find((b: { label: string }) => b.label === 'Acknowledge');
    expect(ack.custom_id).toBe(`v1:ack:${roll.id}`);
    // Kept exactly as Discord sent it: the bytes the fake signed.
    const kept = h.app.ledger.history.evidenceOf([rally.id]).get(rally.id)!;
    expect(inflateRawSync(kept.body).toString('utf8')).toBe(JSON.stringify(rally));
    expect(roll.input).toMatchObject({ evidence: { interaction: rally.id } });

    // The roller's own press is refused; the opponent's is kept with Discord's copy of the message.
    const own = await h.fake.postInteraction(
      h.url,
      buttonPress(ack.custom_id, { id: '700000000000000031', embeds: edit.body.embeds }, { guildId: GUILD, member: alice }),
    );
    expect(own.body.data.content).toMatch(/Acknowledge is for your opponent/);
    const press = buttonPress(ack.custom_id, { id: '700000000000000031', embeds: edit.body.embeds }, { guildId: GUILD, member: bob });
    const acked = await h.fake.postInteraction(h.url, press);
    expect(acked.body.data.embeds[0].title).toBe('Acknowledged');
    expect(acked.body.data.flags).toBe(64);
    const note = rowsOf().find((r) => r.command === 'acknowledge')!;
    expect(note).toMatchObject({ parent_id: roll.id, user_id: bob.id, input: { evidence: { interaction: press.id } } });

    // /verify in the bot checks the kept bytes (the same check as /verify's, on the bot's own store).
    const inBot = await verifyLedger(sqliteStore(h.app.ledger), GUILD);
    expect(inBot.promises.ok).toBe(true);
    expect(inBot.promises.lines.join('\n')).toMatch(/tournament: every roll asked through Discord; 3 rows signed by Discord under application key/);

    // An export now leaves every request out (their reply tokens still work), and never holds a token.
    const young = await exportText(Date.now());
    expect(young).not.toContain(rally.token);
    expect(young).not.toContain(press.token);
    // Nor does the log: the bodies (each with its token) are never written there.
    expect(h.app.logs.join('\n')).not.toContain('aW50ZXJhY3Rpb24');
    expect(young.match(/"pending":true/g)).toHaveLength(3);
    const youngReport = verifyExport(young);
    expect(youngReport.ok).toBe(true);
    expect(youngReport.lines.join('\n')).toMatch(
      /0 rows signed by Discord under application key [0-9a-f]{64} \(compare it with Discord's verify_key\), 3 younger than 15 minutes, left out/,
    );

    // Fifteen minutes on, the bytes are in the export and the offline verifier checks each one.
    const later = await exportText(Date.now() + 16 * 60_000);
    const report = verifyExport(later);
    expect(report.lines.join('\n')).toMatch(/tournament: every roll asked through Discord; 3 rows signed by Discord under application key/);
    expect(report.ok).toBe(true);

    // An acknowledgement moved onto another row (the chain made whole again) is named: Discord's copy shows the roll.
    const moved = linesOf(later);
    moved.find((r) => r.command === 'acknowledge')!.parent_id = first.id;
    const forged = verifyExport(lf(rehash(moved)));
    expect(forged.ok).toBe(false);
    expect(forged.lines.join('\n')).toContain(`Discord's signed request names a message that is not roll ${first.id}'s result, as the acknowledgement's`);
  }, 60_000);

  it('fair:tournament is refused without a beacon, and its game refuses a roll that is not Discord-signed', async () => {
    const { router } = h.app;
    const actor = { guildId: GUILD, channelId: '800000000000000099', userId: alice.id, userName: 'alice', isGm: false };
    const unsigned = await router.handle({
      type: 'command',
      name: 'game',
      subcommand: 'start',
      options: { system: 'hearts-of-tin', name: 'Ligny', fair: 'tournament' },
      actor,
    });
    expect(unsigned).toMatchObject({ type: 'error' });
    expect((unsigned as { message: string }).message).toMatch(/^fair:tournament needs the bot in HTTP interactions mode/);
    // The running tournament game's channel: a roll typed into the console on the bot's file is refused.
    const channel = rowsOf()[0]!.channel_id;
    const roll = await router.handle({ type: 'command', name: 'rally', options: { disorder: 1, unit: 'Forged' }, actor: { ...actor, channelId: channel } });
    expect((roll as { message: string }).message).toMatch(/is a tournament game: its rolls are taken only as requests Discord signed/);
    // Signed, but on a bot without a beacon: refused, saying why.
    const noBeacon = testApp();
    const key = fakeDiscordKey();
    const req = {
      name: 'game',
      subcommand: 'start',
      options: { system: 'hearts-of-tin', name: 'Ligny', fair: 'tournament' },
      actor,
      interactionId: '1300000000000000001',
    };
    const refused = await noBeacon.router.handle({ type: 'command', ...req, evidence: key.sign(req, Date.now()) });
    expect((refused as { message: string }).message).toMatch(/^fair:tournament needs dice from the public beacon \(BEACON_CHAIN\)/);
    noBeacon.ledger.close();
  });
});

/**
 * Between Discord and the bot, as the host who runs it sits: every signed request is kept as it
 * came (timestamp, signature, body); `intercept` keeps one from the bot, answered here instead.
 */
async function hostsDoor(target: () => string) {
  const kept = new Map<string, { timestamp: string; signature: string; body: string }>();
  const intercept = new Set<string>();
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const id = (JSON.parse(body.toString('utf8')) as { id: string }).id;
    const headers = {
      'x-signature-timestamp': String(req.headers['x-signature-timestamp']),
      'x-signature-ed25519': String(req.headers['x-signature-ed25519']),
    };
    kept.set(id, { timestamp: headers['x-signature-timestamp'], signature: headers['x-signature-ed25519'], body: body.toString('base64') });
    if (intercept.has(id)) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"type":5}');
    const answer = await fetch(target(), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, kept, intercept, close: () => new Promise((r) => server.close(r)) };
}

/** An interaction as Discord sends it from another channel of the guild (a game of its own). */
const from = <T extends Record<string, any>>(i: T, channel: string): T => ({ ...i, channel_id: channel, channel: { ...i.channel, id: channel } });

describe('a hostile host holding the signatures Discord sent', () => {
  it('an autocomplete keystroke as a roll, an option added, a stale pending line, an unsigned Acknowledge: every verifier names each', async () => {
    const door = await hostsDoor(() => h.url);
    const actor = (m: Member, channelId: string) => ({ guildId: GUILD, channelId, userId: m.id, userName: m.username, isGm: false });
    const rolled = async (reply: Reply) => {
      const done = reply.type === 'bound' ? await reply.result : reply;
      if (done.type !== 'message') throw new Error(JSON.stringify(done));
      return done.record!.roll_id;
    };
    const start = async (channel: string, name: string) =>
      expect((await h.fake.postInteraction(door.url, from(gameStart({ system: 'hearts-of-tin', name, fair: 'tournament' }, alice), channel))).status).toBe(200);
    const judge = async () => ({
      inBot: (await verifyLedger(sqliteStore(h.app.ledger), GUILD)).promises.lines.join('\n'),
      later: await exportText(Date.now() + 16 * 60_000),
    });
    try {
      // 1. Alice types /rally in channel A: her keystroke in `unit` reaches the bot as an autocomplete, signed.
      const [a, b, c, d] = [1, 2, 3, 4].map((n) => String(BigInt(channelOf(GUILD)) + BigInt(n * 100)));
      await start(a!, 'Quatre Bras');
      const keystroke = from(autocomplete('rally', { disorder: 1, unit: 'Blü' }, 'unit', { guildId: GUILD, member: alice }), a!);
      expect((await h.fake.postInteraction(door.url, keystroke)).body.type).toBe(8);
      // The host rolls it as her command, with the signed keystroke as its request.
      const fromKeystroke = await rolled(
        await h.app.router.handle({
          type: 'command',
          name: 'rally',
          options: { disorder: 1, unit: 'Blü' },
          actor: actor(alice, a!),
          interactionId: keystroke.id,
          evidence: { ...door.kept.get(keystroke.id)!, key: h.fake.publicKeyHex },
        }),
      );
      let found = await judge();
      const typed = `row ${fromKeystroke}: Discord's signed request is an autocomplete request (type 4), not a request for this row`;
      expect(found.inBot).toContain(typed);
      expect(verifyExport(found.later).lines.join('\n')).toContain(typed);

      // 2. In channel B the host keeps Alice's /rally from the bot and rolls it himself, with `band` added.
      await start(b!, 'Ligny');
      const asked = from(slashCommand('rally', { disorder: 2, unit: 'Zieten' }, { guildId: GUILD, member: alice }), b!);
      door.intercept.add(asked.id);
      await h.fake.postInteraction(door.url, asked);
      const withBand = await rolled(
        await h.app.router.handle({
          type: 'command',
          name: 'rally',
          options: { disorder: 2, unit: 'Zieten', band: true },
          actor: actor(alice, b!),
          interactionId: asked.id,
          evidence: { ...door.kept.get(asked.id)!, key: h.fake.publicKeyHex },
        }),
      );
      found = await judge();
      // The bot's own code commits what it filled: named as its word in every door …
      const filled = `options filled by the bot, not asked (its word: a roster's value or a pack's default): row ${withBand} band true`;
      expect(verifyExport(found.later).lines.join('\n')).toContain(filled);
      // … and added in the database instead, with the chain made whole again, it fails.
      const edited = linesOf(found.later).map((r) =>
        r.id === withBand ? { ...r, input: { ...r.input, evidence: { ...r.input.evidence, unasked: undefined } } } : r,
      );
      const added = verifyExport(lf(rehash(edited)));
      expect(added.lines.join('\n')).toContain(
        `row ${withBand}: the row holds option band true, which Discord's signed request does not carry (its declared default is false)`,
      );

      // 3. In channel C Bob rolls and Alice acknowledges; twenty minutes on, a GM notes the game
      // closed (the clock of a second handle on the bot's file, moved), so the export's time is then.
      await start(c!, 'Wavre');
      const bobs = from(slashCommand('rally', { disorder: 1, unit: 'Bülow' }, { guildId: GUILD, member: bob }), c!);
      expect((await h.fake.postInteraction(door.url, bobs)).status).toBe(200);
      const edit = await originalEdit(h.fake, bobs.token);
      const bobRoll = rowsOf().find((r) => r.channel_id === c && r.kind === 'roll')!;
      const ack = from(buttonPress(`v1:ack:${bobRoll.id}`, { id: '700000000000000033', embeds: edit.body.embeds }, { guildId: GUILD, member: alice }), c!);
      expect((await h.fake.postInteraction(door.url, ack)).body.data.embeds[0].title).toBe('Acknowledged');
      const later = Ledger.open(h.app.file, { now: () => new Date(Date.now() + 20 * 60_000) });
      const gmRouter = createRouter({ ledger: later, log: createLogger({ level: 'silent' }) });
      await gmRouter.handle({ type: 'command', name: 'annotate', options: { id: bobRoll.id, note: 'closed' }, actor: { ...actor(bob, d!), isGm: true } });
      later.close();
      const text = await exportText(Date.now() + 21 * 60_000);
      const wavre = `game ${bobRoll.game_id}: `;
      const lineOf = (t: string) => verifyExport(t).lines.find((l) => l.startsWith(wavre))!;
      expect(lineOf(text)).toContain('tournament: every roll asked through Discord; 3 rows signed by Discord');
      // The host marks Bob's request pending, to keep it from every verifier.
      const hidden = text.replace(
        new RegExp(`\\{"evidence":\\{"interaction":"${bobs.id}"[^\\n]*`),
        JSON.stringify({ evidence: { interaction: bobs.id, pending: true } }),
      );
      expect(lineOf(hidden)).toContain(
        `roll ${bobRoll.id} of a tournament game has no signed request: the export marks it pending (younger than 15 minutes), but the row or the interaction it names is not younger than 15 minutes at the export's time`,
      );

      // 4. And he strips the evidence of Alice's Acknowledge: now an acknowledgement nobody pressed.
      const ackRow = rowsOf().find((r) => r.channel_id === c && r.command === 'acknowledge')!;
      const stripped = linesOf(text).map((r) => (r.id === ackRow.id ? { ...r, input: { note: 'acknowledged as shown' } } : r));
      const unsigned = `acknowledgement ${ackRow.id} of roll ${bobRoll.id} carries no Discord-signed press: it was not pressed through Discord`;
      expect(lineOf(lf(rehash(stripped)))).toContain(unsigned);
      expect(await verifyInBotWithEvidence(lf(rehash(stripped)))).toContain(unsigned);
    } finally {
      await door.close();
    }
  }, 60_000);
});
