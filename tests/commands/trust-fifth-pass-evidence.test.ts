import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createRouter } from '../../src/app.js';
import type { Actor, Reply } from '../../src/core/command.js';
import { exportLedger } from '../../src/core/export-files.js';
import { verifyLedger } from '../../src/core/verify-ledger.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { sqliteStore } from '../../src/ledger/store.js';
import { createLogger } from '../../src/log.js';
import { evidenceDigest } from '../../src/verify/evidence.js';
import { verifyExport } from '../../src/verify/verify-export.js';
import { alice, bob, expectMessage, gm, queueRoller, testApp, type TestApp } from '../helpers/app.js';
import { fakeDiscordKey } from '../helpers/beacon-game.js';
import { tmpDb } from '../helpers/tmp.js';
import { renumber, signedAutocomplete, signedClient, signedPress, verifyInBotWithEvidence } from '../helpers/verify-corpus-evidence.js';
import { lf, rehash, rowsOf } from '../helpers/verify-corpus.js';

// A hostile host holding real Discord signatures: a request is evidence of what it
// asked, nothing more. Each forgery goes through the router as an HTTP bot drives it (requests a
// stand-in for Discord's key signed), and the bot's /verify and the export's verifier name it.

let app: TestApp | undefined;
afterEach(() => {
  app?.ledger.close();
  app = undefined;
});

const at = (actor: Actor, channelId: string): Actor => ({ ...actor, channelId });
const rollOf = (reply: Reply) => expectMessage(reply).record!.roll_id;

/** The export the bot would write at `now` (ms), as text. */
async function exported(a: TestApp, now: number): Promise<string> {
  const result = await exportLedger(sqliteStore(a.ledger), { filter: { guildId: 'g1', kinds: 'all' }, limit: 1 << 22, stamp: `t${now}`, now });
  if (!result.ok) throw new Error('the export did not fit');
  return fs.readFileSync(result.files.find((f) => f.name.endsWith('.jsonl'))!.path, 'utf8');
}

/** What every door says of the ledger: the bot's /verify (its game lines), and the export read 16 minutes on. */
async function judged(a: TestApp): Promise<{ inBot: string[]; offline: string[]; ok: boolean }> {
  const inBot = await verifyLedger(sqliteStore(a.ledger), 'g1');
  const report = verifyExport(await exported(a, Date.now() + 16 * 60_000));
  expect(report.ok, report.lines.join('\n')).toBe(inBot.promises.ok);
  return { inBot: inBot.promises.lines, offline: report.lines, ok: report.ok };
}

describe('honest requests, every command that decides a row', () => {
  it('hold in every verifier: slash commands, presses of the buttons that write rows, and options the roster filled, named', async () => {
    app = testApp();
    const key = fakeDiscordKey();
    const d = signedClient(app.router, key);
    const hot = (x: Actor) => at(x, 'c1');
    expectMessage(await d.ask(hot(alice), 'game', { system: 'hearts-of-tin', name: 'Ligny' }, 'start'));
    expectMessage(await d.ask(hot(alice), 'unit', { name: 'Landwehr', fields: 'original:10 quality:militia disorder:3 brigade:Picton' }, 'add'));
    expectMessage(await d.ask(hot(alice), 'unit', { name: 'Guard', fields: 'original:8 brigade:Picton' }, 'add'));
    app.dice.push(1);
    const rout = expectMessage(await d.ask(hot(alice), 'rally', { unit: 'Landwehr', commander_near: true }));
    app.dice.push(6);
    expectMessage(await d.press(hot(alice), rout.buttons[0]!.custom_id, [rout.embed]));
    app.dice.push(4);
    const bobs = expectMessage(await d.ask(hot(bob), 'rally', { disorder: 1 }));
    expectMessage(await d.press(hot(alice), `v1:ack:${bobs.record!.roll_id}`, [bobs.embed]));
    expectMessage(await d.ask(hot(alice), 'disorder', { unit: 'Guard', lost: 1 }));
    expectMessage(await d.ask(hot(alice), 'brigade', { brigade: 'Picton' }));
    expectMessage(await d.ask(hot(gm), 'annotate', { id: bobs.record!.roll_id, note: 'agreed' }));
    expectMessage(await d.ask(hot(gm), 'void', { id: rout.record!.roll_id, reason: 'table bumped' }));

    const asl = (x: Actor) => at(x, 'c2');
    expectMessage(await d.ask(asl(alice), 'game', { system: 'asl', name: 'Stalingrad' }, 'start'));
    app.dice.push(3, 5);
    const dr = expectMessage(await d.ask(asl(alice), 'dr', { category: 'TH', drm: 2 }));
    app.dice.push(2, 2);
    expectMessage(await d.press(asl(alice), dr.buttons[0]!.custom_id, [dr.embed]));
    app.dice.push(4, 2);
    const hob = expectMessage(await d.ask(asl(alice), 'hob', { unit: 'German 4-6-7', broken: true }));
    expectMessage(await d.press(asl(alice), hob.buttons[0]!.custom_id, [hob.embed]));
    app.dice.push(3, 3);
    expectMessage(await d.ask(asl(alice), 'mc', { unit: 'German 4-6-7', number: 1 }));

    expectMessage(await d.ask(at(alice, 'c3'), 'game', { system: 'lightning-war', name: 'Sedan' }, 'start'));
    app.dice.push(3, 3, 3, 3);
    expectMessage(await d.ask(at(alice, 'c3'), 'morale', { morale: 'professional' }));
    expectMessage(await d.ask(at(alice, 'c4'), 'game', { system: 'wacht-am-rhein', name: 'Bulge' }, 'start'));
    expectMessage(await d.ask(at(alice, 'c4'), 'unit', { name: 'A', fields: 'attack:4 defense:4 movement:4' }, 'add'));
    expectMessage(await d.ask(at(alice, 'c4'), 'fatigue', { unit: 'A', event: 'overkill' }, 'event'));

    const found = await judged(app);
    expect(found.ok, found.offline.join('\n')).toBe(true);
    const games = found.offline.filter((l) => l.startsWith('game '));
    expect(games).toHaveLength(4);
    // The roster's values the first rally took are named as the bot's word, the rest as declared defaults.
    expect(games[0]).toContain(`row ${rout.record!.roll_id} disorder 3 quality "militia"`);
    expect(games[0]).toMatch(/\d+ options not in the request, at their command's declared default/);
    expect(found.inBot.join('\n')).not.toContain('FAILED');
  });
});

describe('a request is evidence of what it asked', () => {
  it('an autocomplete keystroke Discord signed, recorded as a roll’s request, is named by every verifier', async () => {
    app = testApp();
    const key = fakeDiscordKey();
    const d = signedClient(app.router, key);
    expectMessage(await d.ask(alice, 'game', { system: 'hearts-of-tin', name: 'Ligny' }, 'start'));
    // Alice types /rally: each keystroke in `unit` is a request Discord signs and sends (type 4).
    const id = d.nextId();
    const keystroke = signedAutocomplete(key, id, alice, 'rally', { disorder: 1, unit: 'Old Gu' }, 'unit', Date.now());
    expect((await app.router.handle({ type: 'autocomplete', name: 'rally', option: 'unit', value: 'Old Gu', actor: alice, interactionId: id })).type).toBe(
      'choices',
    );
    // The host's modified code rolls it as if she had sent the command.
    app.dice.push(6);
    const roll = rollOf(await d.raw(alice, 'rally', { disorder: 1, unit: 'Old Gu' }, id, keystroke));
    const line = `row ${roll}: Discord's signed request is an autocomplete request (type 4), not a request for this row`;
    const found = await judged(app);
    expect(found.ok).toBe(false);
    expect(found.offline.join('\n')).toContain(line);
    expect(found.inBot.join('\n')).toContain(line);
  });

  it('an option added to a roll is named: failed when the row does not commit it as filled, named as the bot’s word when it does', async () => {
    app = testApp();
    const key = fakeDiscordKey();
    const d = signedClient(app.router, key);
    expectMessage(await d.ask(alice, 'game', { system: 'hearts-of-tin', name: 'Ligny' }, 'start'));
    app.dice.push(3);
    const honest = rollOf(await d.ask(alice, 'rally', { disorder: 2, unit: 'Old Guard' }));
    // The host's transport hands the router Alice's signed request with `band` added (+1 to her rally).
    const id = d.nextId();
    const signed = key.sign({ name: 'rally', options: { disorder: 2, unit: 'Young Guard' }, actor: alice, interactionId: id }, Date.now());
    app.dice.push(3);
    const laundered = rollOf(await d.raw(alice, 'rally', { disorder: 2, unit: 'Young Guard', band: true }, id, signed));
    const found = await judged(app);
    expect(found.ok).toBe(true);
    expect(found.offline.join('\n')).toContain(
      `options filled by the bot, not asked (its word: a roster's value or a pack's default): row ${laundered} band true`,
    );
    // With the database in hand instead, he adds it to Alice's honest roll and makes the chain whole again.
    const text = await exported(app, Date.now() + 16 * 60_000);
    const forged = lf(rehash(rowsOf(text).map((r) => (r.id === honest ? { ...r, input: { ...r.input, band: true } } : r))));
    const line = `row ${honest}: the row holds option band true, which Discord's signed request does not carry (its declared default is false)`;
    const report = verifyExport(forged);
    expect(report.ok).toBe(false);
    expect(report.lines.join('\n')).toContain(line);
    expect(await verifyInBotWithEvidence(forged)).toContain(line);
  });

  it('a press Discord signed for one button, recorded as another button’s row, is named', async () => {
    app = testApp();
    const key = fakeDiscordKey();
    const d = signedClient(app.router, key);
    expectMessage(await d.ask(alice, 'game', { system: 'hearts-of-tin', name: 'Ligny' }, 'start'));
    app.dice.push(1);
    const bobs = expectMessage(await d.ask(bob, 'rally', { disorder: 3, quality: 'militia', commander_near: true }));
    const reroll = bobs.buttons[0]!.custom_id;
    expect(reroll).toBe(`v1:reroll:${bobs.record!.roll_id}`);
    // Alice presses Bob's "commander joins" (the bot would refuse her, but Discord signs any press);
    // the host keeps the bytes and hands the router an Acknowledge of Bob's roll with them.
    const id = d.nextId();
    const evidence = signedPress(key, id, alice, reroll, [bobs.embed], Date.now());
    expectMessage(await app.router.handle({ type: 'button', customId: `v1:ack:${bobs.record!.roll_id}`, actor: alice, interactionId: id, evidence }));
    const ack = app.ledger.history.page({ guildId: 'g1', kinds: 'all' }, 50, 0).rows.find((r) => r.command === 'acknowledge')!;
    const line = `row ${ack.id}: Discord's signed request is a press of "${reroll}", not of a button that writes this row`;
    const found = await judged(app);
    expect(found.ok).toBe(false);
    expect(found.offline.join('\n')).toContain(line);
    expect(found.inBot.join('\n')).toContain(line);
  });
});

describe('an Acknowledge is an opponent’s press', () => {
  it('the roller’s own press of Acknowledge (Discord signs it; the bot refuses it), recorded as the acknowledgement, is named', async () => {
    app = testApp();
    const key = fakeDiscordKey();
    const d = signedClient(app.router, key);
    expectMessage(await d.ask(alice, 'game', { system: 'hearts-of-tin', name: 'Ligny' }, 'start'));
    app.dice.push(4);
    const bobs = expectMessage(await d.ask(bob, 'rally', { disorder: 1 }));
    const roll = bobs.record!.roll_id;
    expect(expectMessage(await d.press(alice, `v1:ack:${roll}`, [bobs.embed])).embed.title).toBe('Acknowledged');
    // Bob presses his own Acknowledge: refused, but the host holds the signed bytes.
    const id = d.nextId();
    const own = signedPress(key, id, bob, `v1:ack:${roll}`, [bobs.embed], Date.now());
    expect((await app.router.handle({ type: 'button', customId: `v1:ack:${roll}`, actor: bob, interactionId: d.nextId(), evidence: own })).type).toBe('error');
    // He makes Alice's acknowledgement Bob's, with Bob's press as its request.
    const rows = rowsOf(await exported(app, Date.now() + 16 * 60_000));
    const ack = rows.find((r) => r.command === 'acknowledge')!;
    const line = rows.find((r) => 'evidence' in r && r.evidence.interaction === ack.input.evidence.interaction)!;
    Object.assign(line.evidence, { interaction: id, timestamp: own.timestamp, signature: own.signature, body: own.body });
    Object.assign(ack, { user_id: 'bob', user_name: 'Bob', once_key: `ack:${roll}:bob` });
    ack.input.evidence = { interaction: id, sha256: evidenceDigest(own.timestamp, Buffer.from(own.body, 'base64')) };
    const report = verifyExport(lf(rehash(rows)));
    expect(report.lines.join('\n')).toContain(
      `row ${ack.id}: Discord's signed request is a press of "v1:ack:${roll}" by the roller: only an opponent acknowledges`,
    );
  });
});

describe('one request, one row', () => {
  it('a signed request replayed after its claim is deleted writes a second roll: every verifier names it', async () => {
    app = testApp();
    const key = fakeDiscordKey();
    const d = signedClient(app.router, key);
    expectMessage(await d.ask(alice, 'game', { system: 'hearts-of-tin', name: 'Ligny' }, 'start'));
    const req = { name: 'rally', options: { disorder: 1 }, actor: alice, interactionId: d.nextId() };
    const evidence = key.sign(req, Date.now());
    app.dice.push(1);
    const first = rollOf(await app.router.handle({ type: 'command', ...req, evidence }));
    // Replayed as it is, the interaction is answered once; the host deletes its claim and replays it for better dice.
    app.dice.push(6);
    expect((await app.router.handle({ type: 'command', ...req, evidence })).type).not.toBe('message');
    app.ledger.db.prepare('DELETE FROM interactions WHERE id = ?').run(req.interactionId);
    const second = rollOf(await app.router.handle({ type: 'command', ...req, evidence }));
    const line = `row ${second} claims the Discord-signed request that already backs row ${first} (interaction ${req.interactionId}): one request backs one row`;
    const found = await judged(app);
    expect(found.ok).toBe(false);
    expect(found.offline.join('\n')).toContain(line);
    expect(found.inBot.join('\n')).toContain(line);
  });
});

describe('"pending" has an age', () => {
  it('a request left out as pending is allowed for a row younger than 15 minutes at the export’s own time, and named as no signed request when older', async () => {
    let clock = Date.now();
    const ledger = Ledger.open(tmpDb(), { now: () => new Date(clock) });
    const dice = queueRoller();
    const router = createRouter({ ledger, log: createLogger({ level: 'silent' }), roller: dice, gameRoller: () => dice });
    const d = signedClient(router, fakeDiscordKey(), () => clock);
    try {
      expectMessage(await d.ask(alice, 'game', { system: 'hearts-of-tin', name: 'Ligny' }, 'start'));
      dice.push(4);
      const early = rollOf(await d.ask(alice, 'rally', { disorder: 1 }));
      // Twenty minutes on, Bob rolls in another channel (a plain roll): the chain's head, and so the export's time, is his row's.
      clock += 20 * 60_000;
      dice.push(5);
      const late = rollOf(await d.ask({ ...bob, channelId: 'c9' }, 'rally', { disorder: 2 }));
      const text = await exported({ ledger } as TestApp, clock + 60_000);
      expect(text.match(/"pending":true/g)).toHaveLength(1);
      const honest = verifyExport(text);
      expect(honest.ok).toBe(true);
      expect(honest.lines.join('\n')).toContain('2 rows signed by Discord under application key');
      // The host marks Alice's old request pending too, to keep it from being checked.
      const interaction = rowsOf(text).find((r) => r.id === early)!.input.evidence.interaction;
      const hidden = text.replace(
        new RegExp(`\\{"evidence":\\{"interaction":"${interaction}"[^\\n]*`),
        JSON.stringify({ evidence: { interaction, pending: true } }),
      );
      const report = verifyExport(hidden);
      expect(report.lines.join('\n')).toContain(`1 marked pending though older than 15 minutes at the export's time: no signed request (1 row ${early})`);
      expect(report.lines.join('\n')).not.toContain(late);
    } finally {
      ledger.close();
    }
  });
});

describe('Acknowledge only from a signed press', () => {
  it('the bot refuses an unsigned press; an Acknowledge the host appends with none is named by every verifier', async () => {
    app = testApp();
    const d = signedClient(app.router, fakeDiscordKey());
    expectMessage(await d.ask(alice, 'game', { system: 'hearts-of-tin', name: 'Ligny' }, 'start'));
    app.dice.push(4);
    const roll = rollOf(await d.ask(bob, 'rally', { disorder: 1 }));
    // Over the gateway (or the console) nothing is signed: the bot takes no Acknowledge.
    const unsigned = await app.router.handle({ type: 'button', customId: `v1:ack:${roll}`, actor: alice, interactionId: d.nextId() });
    expect(unsigned.type).toBe('error');
    // The host appends one in Alice's name, on the game's chain made whole again.
    const rows = rowsOf(await exported(app, Date.now() + 16 * 60_000));
    const bobs = rows.find((r) => r.id === roll)!;
    const ack = { ...bobs, id: 'forgedack2', kind: 'annotation', command: 'acknowledge', user_id: 'alice', user_name: 'Alice', game_seq: null, dice: [] };
    Object.assign(ack, { parent_id: roll, once_key: `ack:${roll}:alice`, input: { note: 'acknowledged as shown' }, seq: 0, guild_seq: 0 });
    rows.splice(rows.indexOf(bobs) + 1, 0, ack);
    const forged = lf(rehash(renumber(rows)));
    const line = `acknowledgement forgedack2 of roll ${roll} carries no Discord-signed press: it was not pressed through Discord`;
    const report = verifyExport(forged);
    expect(report.ok).toBe(false);
    expect(report.lines.join('\n')).toContain(line);
    expect(await verifyInBotWithEvidence(forged)).toContain(line);
  });
});
