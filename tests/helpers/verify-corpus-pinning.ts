import { sign as ed25519Sign, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRouter } from '../../src/app.js';
import { QUICKNET, type BeaconChain } from '../../src/beacon/chain.js';
import { parseChainInfo } from '../../src/beacon/chain-config.js';
import type { BeaconRound } from '../../src/beacon/verify-round.js';
import { attachmentData, type Reply } from '../../src/core/command.js';
import { createLogger } from '../../src/log.js';
import { alice, command, gm, testApp } from './app.js';
import { fakeDiscordKey, type FakeDiscordKey, playBeaconGame } from './beacon-game.js';
import { chainInfoJson, testChain } from './beacon-relay.js';
import { tmpDir } from './tmp.js';
import { type CorpusEntry, lf, rehash, rowsOf } from './verify-corpus.js';

/**
 * Crafted exports for the verifier's pinning: a beacon chain that borrows a public chain's name,
 * Discord's key pinned by the reader (or not: then the host's word), and receipts whose readable
 * lines were cut and changed above a signed line that still holds. Entries as verify-corpus.ts's
 * (the differential test adds these to it).
 */

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The application Discord's bodies name (each signed request carries its `application_id`), as tests/e2e/fake-discord.ts has it. */
export const APPLICATION_ID = '110000000000000001';

/** A stand-in for Discord's key whose bodies carry the application's id, as Discord's do. */
export function discordKeyOf(applicationId = APPLICATION_ID): FakeDiscordKey {
  const key = fakeDiscordKey();
  return {
    ...key,
    sign(req, atMs) {
      const made = key.sign(req, atMs);
      const body = { ...JSON.parse(Buffer.from(made.body, 'base64').toString('utf8')), application_id: applicationId };
      return key.signBody(JSON.stringify(body), atMs);
    },
  };
}

/** A beacon game played through the router on a clock moved by hand (its first roll asked in round 40), as /export writes it. */
export async function beaconGameExport(chain: BeaconChain, sign: (round: number) => BeaconRound, rolls: number, discord?: FakeDiscordKey): Promise<string> {
  const startMs = (chain.genesis_time + 39 * chain.period) * 1000 + 1500 - chain.period * 1000;
  const { ledger } = await playBeaconGame(path.join(tmpDir(), 'beacon.db'), chain, sign, { rolls, startMs, ...(discord ? { discord } : {}) });
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
 * A tournament game whose every request the host signed again with his own key, that key committed
 * in its first row and the chain made whole: a host who never held Discord's key, forging it all.
 */
export function forgedUnderHostKey(text: string): { text: string; hostKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const hostKey = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url').toString('hex');
  const all = rowsOf(text);
  for (const line of all.filter((r) => 'evidence' in r && !r.evidence.pending)) {
    const e = line.evidence;
    e.signature = ed25519Sign(null, Buffer.concat([Buffer.from(e.timestamp), Buffer.from(e.body, 'base64')]), privateKey).toString('hex');
  }
  all.find((r) => r.result === 'game_started')!.input.discord_key = hostKey;
  return { text: lf(rehash(all)), hostKey };
}

// quicknet's round 42, as drand's relays publish it (a real round of the League of Entropy).
const QUICKNET_R42 = {
  round: 42,
  signature: '95a9f9f5b231b7714de1553105d8ffdf3dcda24cfdb1e689319bccf79a9c8ce430a91b811fbfaf763900bc998b5d686a',
};

/** Chains that borrow quicknet's name: its hash with the host's key (a chain-info file), and its hash and key with a later genesis. */
async function chainEntries(): Promise<CorpusEntry[]> {
  const host = testChain(21, 3);
  const borrowed = parseChainInfo(chainInfoJson({ ...host.chain, hash: QUICKNET.hash, genesis_time: QUICKNET.genesis_time }), 'a chain-info file');
  // A day later than quicknet's: each roll binds to a round quicknet published a day before it was asked.
  const moved = { ...QUICKNET, genesis_time: QUICKNET.genesis_time + 86_400 };
  const real = (r: number) => (r === 42 ? QUICKNET_R42 : { round: r, signature: '00' });
  return [
    {
      name: 'a beacon game on a chain-info file with quicknet’s hash and the host’s own key',
      bytes: Buffer.from(await beaconGameExport(borrowed, host.sign, 2)),
      ok: false,
      says: "its beacon chain has drand quicknet's chain hash, period, genesis time, scheme but not its public key: not a known public beacon",
    },
    {
      name: 'a beacon game on quicknet’s hash and key with its genesis a day later (rolls bound to rounds long out)',
      bytes: Buffer.from(await beaconGameExport(moved, real, 1)),
      ok: false,
      says: "its beacon chain has drand quicknet's chain hash, public key, period, scheme but not its genesis time: not a known public beacon",
    },
    {
      name: 'a beacon game on a private chain: its own key, never a public beacon’s name',
      bytes: Buffer.from(await beaconGameExport(host.chain, host.sign, 2)),
      ok: true,
      says: `2 beacon rounds of a private beacon chain (${host.chain.hash.slice(0, 12)}…): trust its operator, each signed under the key its game committed; not a known public beacon`,
    },
  ];
}

/** A tournament game pinned and not, and forged whole under the host's key. */
async function discordEntries(): Promise<CorpusEntry[]> {
  const test = testChain(23, 3);
  const discord = discordKeyOf();
  const played = await beaconGameExport(test.chain, test.sign, 2, discord);
  const forged = forgedUnderHostKey(played);
  return [
    {
      name: 'a tournament game, Discord’s key pinned by the reader: the one its first row commits',
      bytes: Buffer.from(played),
      ok: true,
      says: `4 rows signed by Discord under application key ${discord.publicHex}, the Discord key you pinned`,
      discordKey: discord.publicHex,
    },
    {
      name: 'a tournament game, no key pinned: the host’s word, and where Discord serves its key',
      bytes: Buffer.from(played),
      ok: true,
      says: `the signed requests name Discord application ${APPLICATION_ID}: Discord serves its key as verify_key at discord.com/api/v10/applications/${APPLICATION_ID}/rpc`,
    },
    {
      name: 'a tournament game the host signed whole with his own key, no key pinned: it holds, on the host’s word',
      bytes: Buffer.from(forged.text),
      ok: true,
      says: `under application key ${forged.hostKey} (compare it with Discord's verify_key)`,
    },
    {
      name: 'that game, Discord’s key pinned by the reader (upper case): the key the host committed is named',
      bytes: Buffer.from(forged.text),
      ok: false,
      says: `its first row commits application key ${forged.hostKey}, not the Discord key you pinned (${discord.publicHex})`,
      discordKey: discord.publicHex.toUpperCase(),
    },
  ];
}

/** A roll, its receipt as /roll receipt shows it, and the export that holds it. */
async function receiptExport() {
  const app = testApp();
  app.dice.push(4);
  const rolled = (await command(app, alice, 'rally', { disorder: 1, unit: 'Rifles' })) as Extract<Reply, { type: 'message' }>;
  const shown = (await app.router.handle({
    type: 'command',
    name: 'roll',
    subcommand: 'receipt',
    options: { id: rolled.record!.roll_id },
    actor: alice,
  })) as Extract<Reply, { type: 'message' }>;
  const exported = (await command(app, gm, 'export', {})) as Extract<Reply, { type: 'message' }>;
  const text = attachmentData(exported.files!.find((f) => f.name.endsWith('.jsonl'))!).toString();
  app.ledger.close();
  return { text, receipt: /```\n([\s\S]*?)\n```/.exec(shown.embed.description!)![1]! };
}

/** Receipts cut and changed above their signed line (refused), the signed line alone, and an old receipt pasted whole. */
async function receiptEntries(): Promise<CorpusEntry[]> {
  const { text, receipt } = await receiptExport();
  const lines = receipt.split('\n');
  // The roll's dice were 4, a retreat: the pasted lines say 6, a rally.
  const changed = (from: string[]) => from.map((l) => (l.startsWith('Dice: ') ? 'Dice: 6 · Result: rally' : l)).join('\n');
  const says = 'receipt key';
  const sample = fs.readFileSync(path.join(ROOT, 'tests/fixtures/sample-export.jsonl'));
  return [
    {
      name: 'a receipt with its first line dropped, then its dice changed',
      bytes: Buffer.from(text),
      ok: true,
      says,
      receipt: changed(lines.slice(1)),
      receiptOk: false,
    },
    {
      name: 'a receipt with its first line rewritten, then its dice changed',
      bytes: Buffer.from(text),
      ok: true,
      says,
      receipt: changed([lines[0]!.replace('Morale Officer receipt', 'Morale Officer receipt (copy)'), ...lines.slice(1)]),
      receiptOk: false,
    },
    { name: 'a receipt’s signed line alone', bytes: Buffer.from(text), ok: true, says, receipt: lines.at(-1)!, receiptOk: true },
    {
      name: 'an old receipt, pasted whole, against its key given out of band',
      bytes: sample,
      ok: true,
      says: 'chain intact',
      receipt: fs.readFileSync(path.join(ROOT, 'tests/fixtures/sample-receipt.txt'), 'utf8'),
      key: fs.readFileSync(path.join(ROOT, 'tests/fixtures/sample-receipt.key'), 'utf8').trim(),
      receiptOk: true,
    },
  ];
}

export async function pinningCorpus(): Promise<CorpusEntry[]> {
  return [...(await chainEntries()), ...(await discordEntries()), ...(await receiptEntries())];
}
