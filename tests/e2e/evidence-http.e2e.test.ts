import fs from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportLedger } from '../../src/core/export-files.js';
import { sqliteStore } from '../../src/ledger/store.js';
import { verifyLedger } from '../../src/core/verify-ledger.js';
import { fakeDiscordKey } from '../helpers/beacon-game.js';
import { testApp } from '../helpers/app.js';
import { lf, rehash, rowsOf as linesOf } from '../helpers/verify-corpus.js';
import { verifyExport } from '../../src/verify/verify-export.js';
import { testChain } from '../helpers/beacon-relay.js';
import { startBeaconHttpHarness, type HttpHarness } from '../helpers/discord.js';
import { buttonPress, type Member, originalEdit, slashCommand, slashSubcommand } from './fake-discord.js';

// Issue 45, Discord's signature as evidence: a tournament game over HTTP interactions, where every
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
