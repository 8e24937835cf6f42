import { createHash } from 'node:crypto';
import { forgedHash } from './forge.js';
import fs from 'node:fs';
import canonicalize from 'canonicalize';
import path from 'node:path';
import type { Reply } from '../../src/core/command.js';
import { attachmentData } from '../../src/core/command.js';
import { GENESIS_HASH, sealCommitment } from '../../src/ledger/chain.js';
import { loadOrCreateKeys } from '../../src/ops/signing-key.js';
import { receiptPayload, receiptText, type ReceiptFields } from '../../src/verify/receipt.js';
import { alice, bob, command, gm, testApp } from './app.js';
import { erasePerson } from '../../src/core/privacy.js';
import { blankErased, PERSON_FIELDS } from '../../src/ledger/people.js';
import { sqliteStore } from '../../src/ledger/store.js';
import { QUICKNET } from '../../src/beacon/chain.js';
import { evidenceDigest } from '../../src/verify/evidence.js';
import { createRouter } from '../../src/app.js';
import { createLogger } from '../../src/log.js';
import { fakeDiscordKey, playBeaconGame, type FakeDiscordKey } from './beacon-game.js';
import { testChain } from './beacon-relay.js';
import { tmpDir } from './tmp.js';
import { installThrough, nervePack } from './packs.js';

/**
 * The crafted exports every door of the verifier must read alike: each known attack on it,
 * line-end and encoding variants, truncations, duplicates, reordered rows, a second guild,
 * a huge line, and files large enough to be read in ranges by several threads. `ok` and `says` are
 * written here by hand; the differential test asks the CLI and the page for the same report.
 */
export type CorpusEntry = {
  name: string;
  bytes: Buffer;
  ok: boolean;
  says: string;
  head?: string;
  receipt?: string;
  key?: string;
  receiptOk?: boolean;
  /** Discord's application key the reader pins (--discord-key, the page's Discord key field). */
  discordKey?: string;
};

const ROOT = path.resolve(import.meta.dirname, '../..');
export const SAMPLE = fs.readFileSync(path.join(ROOT, 'tests/fixtures/sample-export.jsonl'), 'utf8');
type R = Record<string, any>;
export const rowsOf = (text: string): R[] =>
  text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
export const lf = (all: R[]) => `${all.map((x) => JSON.stringify(x)).join('\n')}\n`;

/** A forger's rows made whole again: each guild's chain recomputed in file order. */
export function rehash(all: R[]): R[] {
  const prev = new Map<string, string>();
  for (const r of all) {
    if ('signing_key' in r || 'evidence' in r) continue;
    r.prev_hash = prev.get(r.guild_id) ?? GENESIS_HASH;
    r.hash = forgedHash(r.prev_hash, r as never);
    prev.set(r.guild_id, r.hash);
  }
  return all;
}

/** A real export made through the router: a sealed roll and its reveal, a To Hit, a voided roll, a receipt, in one guild. */
export async function realExport() {
  const app = testApp();
  app.dice.push(4, 2);
  const sealed = (await command(app, alice, 'rally', { disorder: 1, unit: 'Hidden', sealed: true })) as Extract<Reply, { type: 'message' }>;
  await command(app, alice, 'reveal', { id: sealed.record!.roll_id });
  app.dice.push(3, 5);
  const noted = (await command(app, alice, 'dr', { category: 'TH', note: 'Morale Officer receipt · as my note says' })) as Extract<Reply, { type: 'message' }>;
  const receiptReply = (await app.router.handle({
    type: 'command',
    name: 'roll',
    subcommand: 'receipt',
    options: { id: noted.record!.roll_id },
    actor: alice,
  })) as Extract<Reply, { type: 'message' }>;
  await command(app, gm, 'void', { id: noted.record!.roll_id, reason: 'wrong target' });
  const exported = (await command(app, gm, 'export', {})) as Extract<Reply, { type: 'message' }>;
  const text = attachmentData(exported.files!.find((f) => f.name.endsWith('.jsonl'))!).toString();
  app.ledger.close();
  const block = /```\n([\s\S]*?)\n```/.exec(receiptReply.embed.description!)![1]!;
  return { text, sealedId: sealed.record!.roll_id, receipt: block, key: app.signer.publicKey, rollId: noted.record!.roll_id };
}

/** A valid export of `n` rows of about 1.2 KB, several MB: read in ranges by worker threads. */
function bigExport(n: number, note = ''): R[] {
  const template = rowsOf(SAMPLE).find((r) => r.kind === 'roll' && !r.game_id) ?? rowsOf(SAMPLE)[1]!;
  const out: R[] = [];
  for (let i = 0; i < n; i++) {
    out.push({
      ...template,
      seq: i + 1,
      id: `big${String(i).padStart(7, '0')}`,
      guild_id: 'big-guild',
      guild_seq: i + 1,
      game_id: null,
      turn: null,
      phase: null,
      game_seq: null,
      kind: 'roll',
      input: { i, note: note || 'x'.repeat(1000) },
      dice: [(i % 6) + 1],
      parent_id: null,
      once_key: null,
    });
  }
  return rehash(out);
}

/**
 * A real export after a player's erasure: Alice's sealed rally (revealed by the GM), a roll of a
 * pack with her note, a To Hit with her note; Bob's roll beside them. Her values are blank, her salt
 * gone; Bob's stay, with his salt.
 */
export async function erasedExport(): Promise<string> {
  const app = testApp();
  await installThrough(app.router, nervePack());
  app.dice.push(4, 2);
  const sealed = (await command(app, alice, 'rally', { disorder: 1, unit: 'Alice’s Hidden', sealed: true })) as Extract<Reply, { type: 'message' }>;
  await command(app, gm, 'reveal', { id: sealed.record!.roll_id });
  app.dice.push(3, 2);
  await command(app, alice, 'nerve-test', { nerve: 7, pins: 2 });
  app.dice.push(3, 5);
  await command(app, alice, 'dr', { category: 'TH', note: 'Alice aims at the bridge' });
  app.dice.push(6, 1);
  await command(app, bob, 'dr', { note: 'Bob keeps his note' });
  await erasePerson(sqliteStore(app.ledger), 'alice');
  const exported = (await command(app, gm, 'export', {})) as Extract<Reply, { type: 'message' }>;
  app.ledger.close();
  return attachmentData(exported.files!.find((f) => f.name.endsWith('.jsonl'))!).toString();
}

/** The exports of an erasure: the real one, which holds, and edits a host might hide behind it, which do not. */
export async function erasedCorpus(): Promise<CorpusEntry[]> {
  const erased = await erasedExport();
  const utf8 = (t: string) => Buffer.from(t, 'utf8');
  /** The erased export with one change to its rows, hashes untouched (an edit beside the chained text). */
  const besides = (change: (rows: R[]) => void) => {
    const all = rowsOf(erased);
    change(all);
    return utf8(lf(all));
  };
  const bobs = (all: R[]) => all.find((x) => x.user_id === 'bob')!;
  return [
    {
      name: 'a player erased: every row holds, hers with their person values erased',
      bytes: utf8(erased),
      ok: true,
      says: "of them hold a person's values that were erased (their commitments stay; dice, outcomes and every other value verified)",
    },
    {
      name: "an erased player's dice edited beside an intact chained text",
      bytes: besides((all) => (all.find((x) => x.user_id === '' && x.command === 'dr')!.dice = [6, 6])),
      ok: false,
      says: 'hash does not match the row contents: the row was edited',
    },
    {
      name: "a kept player's name edited beside its commitment",
      bytes: besides((all) => (bobs(all).user_name = 'Mallory')),
      ok: false,
      says: 'hash does not match the row contents: the row was edited',
    },
    {
      name: 'a salt withheld from an export whose values it keeps',
      bytes: besides((all) => (bobs(all).salts = {})),
      ok: false,
      says: 'hash does not match the row contents: the row was edited',
    },
    {
      name: "a kept player's values blanked and his salt withheld, with no erasure row naming it",
      bytes: besides((all) => {
        for (const r of all.filter((x) => x.user_id === 'bob')) {
          const chained = JSON.parse(r.chained) as Record<string, unknown>;
          const gone = new Set(Object.keys(r.salts));
          for (const k of PERSON_FIELDS) r[k] = blankErased(r[k] ?? null, chained[k] ?? null, gone, k === 'user_id' || k === 'user_name' ? '' : null);
          r.salts = {};
        }
      }),
      ok: false,
      says: 'but no erasure row of its chain names it: withheld, not erased',
    },
    {
      name: "an erased player's reveal given another payload under the same commitment",
      bytes: besides((all) => (all.find((x) => x.kind === 'reveal')!.input.payload.dice = [6, 6])),
      ok: false,
      says: 'hash does not match the row contents: the row was edited',
    },
  ];
}

/** A real export with a rule pack installed and two rolls of it: a pass, and a double 6 into the panic table. */
export async function packExport(): Promise<string> {
  const app = testApp();
  await installThrough(app.router, nervePack());
  app.dice.push(3, 2);
  await command(app, alice, 'nerve-test', { nerve: 7, pins: 2 });
  app.dice.push(6, 6, 1);
  await command(app, alice, 'nerve-test', { nerve: 7 });
  const exported = (await command(app, gm, 'export', {})) as Extract<Reply, { type: 'message' }>;
  app.ledger.close();
  return attachmentData(exported.files!.find((f) => f.name.endsWith('.jsonl'))!).toString();
}

/** A pack export with its rows changed, then every hash made whole again (a forger with the whole file). */
export function tamperPacks(text: string, change: (packRow: R, pass: R, panic: R) => void): string {
  const all = rowsOf(text);
  const rolls = all.filter((r) => r.system === 'pack:nerve-test');
  change(all.find((r) => r.kind === 'pack')!, rolls[0]!, rolls[1]!);
  return lf(rehash(all));
}

// quicknet's round 42, as drand's relays publish it (a real round of the League of Entropy).
export const QUICKNET_R42 = {
  round: 42,
  signature: '95a9f9f5b231b7714de1553105d8ffdf3dcda24cfdb1e689319bccf79a9c8ce430a91b811fbfaf763900bc998b5d686a',
};

/**
 * The export of a beacon game played through the router on a clock moved by hand: on quicknet,
 * one roll bound to its real round 42 (asked during round 40); on a test chain, `rolls` rolls.
 */
export async function beaconExport(on: 'quicknet' | 'test', rolls = 1, discord?: FakeDiscordKey): Promise<string> {
  const file = path.join(tmpDir(), 'beacon.db');
  const test = testChain(13, 3);
  const chain = on === 'quicknet' ? QUICKNET : test.chain;
  const sign = on === 'quicknet' ? (r: number) => (r === 42 ? QUICKNET_R42 : { round: r, signature: '00' }) : test.sign;
  // The first roll is asked 1.5 s into round 40 (each roll comes a period after the clock's start).
  const startMs = (chain.genesis_time + 39 * chain.period) * 1000 + 1500 - chain.period * 1000;
  const { ledger } = await playBeaconGame(file, chain, sign, { rolls, startMs, ...(discord ? { discord } : {}) });
  try {
    const router = createRouter({ ledger, log: createLogger({ level: 'silent' }) });
    const exported = (await router.handle({ type: 'command', name: 'export', options: {}, actor: { ...gm, guildId: 'g1' } })) as Extract<
      Reply,
      { type: 'message' }
    >;
    return attachmentData(exported.files!.find((f) => f.name.endsWith('.jsonl'))!).toString();
  } finally {
    ledger.close();
  }
}

/**
 * A tournament game's export (every request signed by a stand-in for Discord's key) with one thing
 * changed by an operator who holds the database but not Discord's key, the chain made whole again.
 */
export function tamperTournament(text: string, change: (rows: R[], roll: R, start: R, evidence: R[]) => void): string {
  const all = rowsOf(text);
  const rows = all.filter((r) => !('evidence' in r) && !('signing_key' in r));
  const roll = rows.find((r) => r.kind === 'roll')!;
  change(
    all,
    roll,
    rows.find((r) => r.result === 'game_started')!,
    all.filter((r) => 'evidence' in r),
  );
  return lf(rehash(all));
}

/** The evidence line of a row. */
export const evidenceOfRow = (evidence: R[], row: R) => evidence.find((e) => e.evidence.interaction === row.input.evidence.interaction)!.evidence;

/** One beacon roll's signature with one bit flipped, the chain made whole again: only the beacon check can catch it. */
export function flipBeaconBit(text: string): string {
  const all = rowsOf(text);
  const roll = all.find((r) => r.kind === 'roll')!;
  const sig: string = roll.input.beacon.signature;
  roll.input.beacon.signature = sig.slice(0, 20) + (Number.parseInt(sig[20]!, 16) ^ 1).toString(16) + sig.slice(21);
  return lf(rehash(all));
}

export async function verifyCorpus(): Promise<CorpusEntry[]> {
  const s = rowsOf(SAMPLE);
  const guild = s[0]!.guild_id as string;
  const real = await realExport();
  const r = rowsOf(real.text);
  const realGuild = r[0]!.guild_id as string;
  const head = `guild ${guild}: chain intact, 14 rows, head hash ${s[13]!.hash}`;
  const utf8 = (t: string) => Buffer.from(t, 'utf8');
  // A second guild, forged on its own genesis chain, ending the sample's game with no seed.
  const game = s.find((x) => x.result === 'game_started')!;
  const forgedEnd = rehash([
    {
      ...s.find((x) => x.result === 'game_ended')!,
      id: 'forgedend1',
      guild_id: 'forged',
      guild_seq: 1,
      input: { ...game.input, ended: true, server_seed: null },
    },
  ]);
  // … and one lending the real sealed roll's id to a commitment over an edited payload, with its reveal.
  const realSealed = r.find((x) => x.id === real.sealedId)!;
  const edited = { dice: [6], outcome: { result: 'huzzah' }, result: 'huzzah', effects: [] };
  const salt = 'ab'.repeat(32);
  const lent = rehash([
    { ...realSealed, guild_id: 'forged', guild_seq: 1, outcome: { ...realSealed.outcome, commitment: sealCommitment(salt, edited) } },
    { ...r.find((x) => x.kind === 'reveal')!, id: 'forgedrev1', guild_id: 'forged', guild_seq: 2, input: { roll: real.sealedId, salt, payload: edited } },
  ]);
  // A receipt for a roll that never happened, signed with a key the forger added to the export.
  const forger = loadOrCreateKeys(path.join(tmpDir(), 'forger.json'));
  const never: ReceiptFields = {
    v: 1,
    roll: 'never00001',
    guild: realGuild,
    seq: 99,
    game: null,
    game_name: null,
    turn: null,
    phase: null,
    player: 'alice',
    player_id: 'alice',
    command: '/dr category:TH',
    dice: [1, 1],
    result: '2',
    voided: null,
    hash: 'cd'.repeat(32),
    at: '2026-12-01T10:00:00.000Z',
    signed_at: '2026-12-01T10:01:00.000Z',
    key: forger.signer.fingerprint,
  };
  const forgedReceipt = receiptText(never, forger.signer.sign(receiptPayload(never)));
  const withForgerKey = `${real.text}${JSON.stringify({ signing_key: forger.records[0] })}\n`;
  const lines = SAMPLE.trimEnd().split('\n');
  const big = bigExport(8_000);
  const bigEdited = bigExport(8_000);
  bigEdited[5_555]!.input.i = -1;
  const bigReordered = bigExport(8_000);
  [bigReordered[4_000], bigReordered[4_001]] = [bigReordered[4_001]!, bigReordered[4_000]!];
  const hugeLine = bigExport(3, 'y'.repeat(9 * 1024 * 1024));
  const quicknetGame = await beaconExport('quicknet');
  const privateGame = await beaconExport('test', 20);
  const tournament = await beaconExport('test', 3, fakeDiscordKey());
  const body = (e: R, edit: (s: string) => string) => {
    e.body = Buffer.from(edit(Buffer.from(e.body, 'base64').toString('utf8'))).toString('base64');
  };
  const packs = await packExport();
  const erasedEntries = await erasedCorpus();
  return [
    ...erasedEntries,
    {
      name: 'rule pack rolls, each re-adjudicated against its pack row',
      bytes: utf8(packs),
      ok: true,
      says: 'pack rolls: 2 re-adjudicated from their dice, input and pack row; all hold',
    },
    {
      name: 'a pack roll whose result was edited',
      bytes: utf8(
        tamperPacks(packs, (_p, pass) => {
          pass.result = pass.outcome.result = pass.outcome.steps[0].result = 'fail';
        }),
      ),
      ok: false,
      says: 'recorded fail, but its dice and input give pass under pack nerve-test version 1',
    },
    {
      name: 'a pack roll whose input was edited under its result',
      bytes: utf8(tamperPacks(packs, (_p, pass) => (pass.input.options.pins = 0))),
      ok: false,
      says: 'recorded pass, but its dice and input give pass under pack nerve-test version 1 (its modifiers, totals or unit change differ)',
    },
    {
      name: 'a pack row whose pack was edited',
      bytes: utf8(tamperPacks(packs, (p) => (p.input.pack.tests[0].clamp_target.max = 12))),
      ok: false,
      says: 'its pack does not hash to the SHA-256 it records',
    },
    {
      name: 'a pack row edited and its hash recomputed',
      bytes: utf8(
        tamperPacks(packs, (p) => {
          p.input.pack.tests[0].clamp_target.max = 12;
          p.input.sha256 = createHash('sha256').update(canonicalize(p.input.pack)!).digest('hex');
        }),
      ),
      ok: false,
      says: 'it names pack hash ',
    },
    {
      name: 'a pack roll naming a pack row that is not on the chain',
      bytes: utf8(tamperPacks(packs, (_p, _pass, panic) => (panic.input.pack.row = 'nosuchrow0'))),
      ok: false,
      says: "the pack row it names (nosuchrow0) is not on its server's chain",
    },
    {
      name: 'a tournament game: every request signed by Discord',
      bytes: utf8(tournament),
      ok: true,
      says: 'tournament: every roll asked through Discord; 5 rows signed by Discord under application key ',
    },
    {
      name: 'a tournament game with a roll whose signed request the operator removed',
      bytes: utf8(tamperTournament(tournament, (_all, roll) => delete roll.input.evidence)),
      ok: false,
      says: 'of a tournament game carries no Discord-signed request: it was not asked through Discord',
    },
    {
      name: 'a tournament game with a roll moved to another player',
      bytes: utf8(tamperTournament(tournament, (_all, roll) => (roll.user_id = 'p7'))),
      ok: false,
      says: "Discord's signed request names user p0, the row p7",
    },
    {
      name: 'a tournament game with a roll moved to another channel',
      bytes: utf8(tamperTournament(tournament, (_all, roll) => (roll.channel_id = 'c2'))),
      ok: false,
      says: "Discord's signed request names channel c1, the row c2",
    },
    {
      name: 'a tournament game with a roll’s option changed',
      bytes: utf8(tamperTournament(tournament, (_all, roll) => (roll.input.disorder = 3))),
      ok: false,
      says: "Discord's signed request names option disorder 1, the row 3",
    },
    {
      name: 'a tournament game with a roll recorded under another command',
      bytes: utf8(tamperTournament(tournament, (_all, roll) => (roll.command = 'morale'))),
      ok: false,
      says: "Discord's signed request names command /rally, the row /morale",
    },
    {
      name: 'a tournament game whose first row was moved 20 minutes later',
      bytes: utf8(
        tamperTournament(tournament, (_all, _roll, start) => (start.created_at = new Date(Date.parse(start.created_at) + 20 * 60_000).toISOString())),
      ),
      ok: false,
      says: "more than 15 minutes from the row's",
    },
    {
      name: 'a tournament game with one byte of a kept request changed',
      bytes: utf8(
        tamperTournament(tournament, (_all, roll, _s, ev) =>
          body(evidenceOfRow(ev, roll), (s) => s.replace('"disorder","type":4,"value":1', '"disorder","type":4,"value":3')),
        ),
      ),
      ok: false,
      says: 'is not the one its row commits to (SHA-256 differs): it was changed',
    },
    {
      name: 'a tournament game with a kept request re-signed under another key and its digest made to match',
      bytes: utf8(
        tamperTournament(tournament, (_all, roll, _s, ev) => {
          const forged = fakeDiscordKey().sign(
            {
              name: 'rally',
              options: { disorder: 3, unit: 'Unit 0' },
              actor: { guildId: 'g1', channelId: 'c1', userId: 'p0', userName: 'Player 0', isGm: false },
              interactionId: roll.input.evidence.interaction,
            },
            Date.parse(roll.created_at),
          );
          Object.assign(evidenceOfRow(ev, roll), { timestamp: forged.timestamp, signature: forged.signature, body: forged.body });
          roll.input.evidence.sha256 = evidenceDigest(forged.timestamp, Buffer.from(forged.body, 'base64'));
        }),
      ),
      ok: false,
      says: "Discord's signature on the request of row",
    },
    {
      name: 'a tournament game with a roll’s signed request left out of the export',
      bytes: utf8(
        tamperTournament(tournament, (all, roll) => {
          all.splice(
            all.findIndex((r) => 'evidence' in r && r.evidence.interaction === roll.input.evidence.interaction),
            1,
          );
        }),
      ),
      ok: false,
      says: 'is not in this export',
    },
    {
      name: 'a beacon game on drand quicknet, its roll bound to the real round 42',
      bytes: utf8(quicknetGame),
      ok: true,
      says: "all 1 rolls' dice recomputed and equal; numbered 1..1 with no gap; 1 beacon round of drand quicknet, each signed",
    },
    {
      name: 'that game with one bit of round 42’s signature flipped (the chain made whole again)',
      bytes: utf8(flipBeaconBit(quicknetGame)),
      ok: false,
      says: "does not hold under the game's beacon key: forged randomness",
    },
    { name: 'a beacon game of 20 rolls on a private chain', bytes: utf8(privateGame), ok: true, says: '20 beacon rounds of a private beacon chain (' },
    { name: 'the intact sample', bytes: utf8(SAMPLE), ok: true, says: head },
    { name: 'CRLF line ends', bytes: utf8(SAMPLE.replace(/\n/g, '\r\n')), ok: true, says: head },
    {
      name: 'lone CR line ends',
      bytes: utf8(SAMPLE.replace(/\n/g, '\r')),
      ok: false,
      says: "line 1 holds lone CR line ends: an export's lines end in LF (or CRLF)",
    },
    {
      name: 'a byte-order mark',
      bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8(SAMPLE)]),
      ok: true,
      says: 'the file starts with a byte-order mark: skipped',
    },
    { name: 'a raw CR between two values of a row', bytes: utf8(SAMPLE.replace('"kind":', '\r"kind":')), ok: true, says: head },
    { name: 'a raw CR inside a string', bytes: utf8(SAMPLE.replace('"referee"', '"ref\reree"')), ok: false, says: 'line 1 is not a JSON object' },
    { name: 'no newline after the last line', bytes: utf8(SAMPLE.trimEnd()), ok: true, says: head },
    { name: 'cut inside the last line', bytes: utf8(SAMPLE.slice(0, SAMPLE.length - 40)), ok: false, says: 'line 14 is not a JSON object' },
    {
      name: 'a line twice',
      bytes: utf8(`${[...lines.slice(0, 6), lines[5], ...lines.slice(6)].join('\n')}\n`),
      ok: false,
      says: `(position 6): position 6 where 7 was expected`,
    },
    {
      name: 'two rows swapped',
      bytes: utf8(`${[...lines.slice(0, 4), lines[5], lines[4], ...lines.slice(6)].join('\n')}\n`),
      ok: false,
      says: `position 6 where 5 was expected`,
    },
    {
      name: 'a byte that is not UTF-8',
      bytes: Buffer.concat([utf8(lines.slice(0, 3).join('\n')), Buffer.from([0x0a, 0xff, 0x0a]), utf8(lines.slice(3).join('\n'))]),
      ok: false,
      says: 'line 4 is not UTF-8 text',
    },
    { name: 'an empty file', bytes: Buffer.alloc(0), ok: false, says: 'the export has no rows' },
    {
      name: 'a key given twice in a row (the last one is what JSON says)',
      bytes: utf8(SAMPLE.replace(lines[9]!, lines[9]!.replace(/}$/, ',"guild_id":"other"}'))),
      ok: false,
      says: 'guild other: chain BROKEN at row 61vv57vzgd (position 10): position 10 where 1 was expected',
    },
    {
      name: 'a second guild ends the game with no seed',
      bytes: utf8(`${SAMPLE}${lf(forgedEnd)}`),
      ok: false,
      says: `game ${game.input.game}: FAILED: row forgedend1 in guild forged belongs to it, but it did not start in that guild (it started in guild ${guild})`,
    },
    {
      name: 'a second guild lends a sealed roll’s id to an edited payload',
      bytes: utf8(`${real.text}${lf(lent)}`),
      ok: false,
      says: `row ${real.sealedId}: FAILED: the id is in guild ${realGuild} and again in guild forged`,
    },
    {
      name: 'the real export, with its receipt (a note holding the title), voided since',
      bytes: utf8(real.text),
      ok: true,
      says: `receipt key`,
      receipt: real.receipt,
      receiptOk: true,
    },
    {
      name: 'a forged receipt under a key line the forger added',
      bytes: utf8(withForgerKey),
      ok: true,
      says: 'unchained: compare with /verify key:true',
      receipt: forgedReceipt,
      receiptOk: false,
    },
    { name: 'a pinned head it extends', bytes: utf8(SAMPLE), ok: true, says: `pinned head ${s[9]!.hash}: found at position 10`, head: s[9]!.hash },
    { name: 'a big export, read in ranges', bytes: utf8(lf(big)), ok: true, says: `guild big-guild: chain intact, 8000 rows, head hash ${big.at(-1)!.hash}` },
    {
      name: 'a big export with an edit in a middle range',
      bytes: utf8(lf(bigEdited)),
      ok: false,
      says: 'chain BROKEN at row big0005555 (position 5556): hash does not match',
    },
    { name: 'a big export with two rows swapped across ranges', bytes: utf8(lf(bigReordered)), ok: false, says: 'position 4002 where 4001 was expected' },
    { name: 'a huge line, across the ranges', bytes: utf8(lf(hugeLine)), ok: true, says: 'guild big-guild: chain intact, 3 rows' },
  ];
}
