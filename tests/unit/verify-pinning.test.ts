import { describe, expect, it } from 'vitest';
import { publicChainOf, QUICKNET } from '../../src/beacon/chain.js';
import { parseChainInfo } from '../../src/beacon/chain-config.js';
import { checkPromises, type Row } from '../../src/verify/checks.js';
import type { SignedRequest } from '../../src/verify/evidence.js';
import { applicationIds, parseDiscordKey, RangeWalk, verifyExport } from '../../src/verify/verify-export.js';
import { APPLICATION_ID, beaconGameExport, discordKeyOf, forgedUnderHostKey } from '../helpers/verify-corpus-pinning.js';
import { chainInfoJson, testChain } from '../helpers/beacon-relay.js';

// The verifiers pin what a game commits rather than take its word: a beacon chain is drand's
// quicknet only when every field it commits is quicknet's, and Discord's application key is the
// reader's to pin (else the report calls it the host's word). Each door runs this same core; the
// in-bot /verify runs checkPromises over the guild's rows, as below.

const rowsOf = (text: string): Row[] =>
  text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .filter((r) => !('evidence' in r) && !('signing_key' in r));
/** The export's kept requests, as /verify reads them beside the guild's rows. */
const signedOf = (text: string) => {
  const kept = new Map<string, SignedRequest>();
  for (const l of text
    .trim()
    .split('\n')
    .map((x) => JSON.parse(x)))
    if ('evidence' in l && !l.evidence.pending) kept.set(l.evidence.interaction, l.evidence as SignedRequest);
  return (id: string) => kept.get(id);
};
const report = (text: string, discordKey?: string) => verifyExport(text, discordKey ? { discordKey } : {});
const gameLine = (lines: string[]) => lines.find((l) => l.startsWith('game '))!;

describe('a beacon chain is pinned, not named', () => {
  it('only a chain equal to quicknet in every field is quicknet; one borrowing its hash or key is named with what differs', () => {
    expect(publicChainOf(QUICKNET)).toEqual({ name: 'drand quicknet', same: ['chain hash', 'public key', 'period', 'genesis time', 'scheme'], differs: [] });
    expect(publicChainOf({ ...QUICKNET, public_key: testChain(3).chain.public_key })?.differs).toEqual(['public key']);
    expect(publicChainOf({ ...QUICKNET, hash: 'ab'.repeat(32), period: 30 })?.differs).toEqual(['chain hash', 'period']);
    expect(publicChainOf(testChain(3).chain)).toBeUndefined();
  });

  it('a chain-info file with quicknet’s hash and the host’s own key is not quicknet: every verifier fails the game, naming the key', async () => {
    const host = testChain(21, 3);
    const borrowed = parseChainInfo(chainInfoJson({ ...host.chain, hash: QUICKNET.hash, genesis_time: QUICKNET.genesis_time }), 'a chain-info file');
    const text = await beaconGameExport(borrowed, host.sign, 2);
    const said =
      "FAILED: its beacon chain has drand quicknet's chain hash, period, genesis time, scheme but not its public key: not a known public beacon, whatever it names itself; its rounds and bindings prove nothing";
    const offline = report(text);
    expect(offline.ok).toBe(false);
    expect(gameLine(offline.lines)).toMatch(new RegExp(`^game \\w+: ${said.replace(/[()]/g, '\\$&')}$`));
    expect(offline.lines.join('\n')).not.toContain('drand quicknet, each signed');
    const inBot = checkPromises(rowsOf(text));
    expect(inBot.ok).toBe(false);
    expect(gameLine(inBot.lines)).toContain(said);
  });

  it('quicknet’s hash and key with its genesis a day later is not quicknet either: its rolls bind to rounds out a day before they were asked', async () => {
    const moved = { ...QUICKNET, genesis_time: QUICKNET.genesis_time + 86_400 };
    const real42 = {
      round: 42,
      signature: '95a9f9f5b231b7714de1553105d8ffdf3dcda24cfdb1e689319bccf79a9c8ce430a91b811fbfaf763900bc998b5d686a',
    };
    const text = await beaconGameExport(moved, (r) => (r === 42 ? real42 : { round: r, signature: '00' }), 1);
    const offline = report(text);
    expect(offline.ok).toBe(false);
    expect(gameLine(offline.lines)).toContain(
      "FAILED: its beacon chain has drand quicknet's chain hash, public key, period, scheme but not its genesis time: not a known public beacon",
    );
    expect(checkPromises(rowsOf(text)).ok).toBe(false);
  });

  it('a private chain is checked under its own committed key and said to be no known public beacon', async () => {
    const own = testChain(22, 3);
    const text = await beaconGameExport(own.chain, own.sign, 2);
    const offline = report(text);
    expect(offline.ok).toBe(true);
    expect(gameLine(offline.lines)).toContain(
      `; 2 beacon rounds of a private beacon chain (${own.chain.hash.slice(0, 12)}…): trust its operator, each signed under the key its game committed; not a known public beacon`,
    );
    expect(gameLine(checkPromises(rowsOf(text)).lines)).toContain('each signed under the key its game committed; not a known public beacon');
  });
});

describe('Discord’s key pinned by the reader', () => {
  const test = testChain(23, 3);
  const discord = discordKeyOf();
  // Played once, in the first test that asks (a test's folders go when it ends; the text stays).
  let game: Promise<string> | undefined;
  const played = () => (game ??= beaconGameExport(test.chain, test.sign, 2, discord));

  it('unpinned, every verifier calls the committed key the host’s word, and the report names the application whose key Discord serves', async () => {
    const text = await played();
    const offline = report(text);
    expect(offline.ok).toBe(true);
    const hostsWord = "; that key is the host's word: pin Discord's own with --discord-key or verify.html's Discord key field";
    expect(gameLine(offline.lines)).toContain(
      `; tournament: every roll asked through Discord; 4 rows signed by Discord under application key ${discord.publicHex} (compare it`,
    );
    expect(gameLine(offline.lines).endsWith(hostsWord)).toBe(true);
    expect(offline.lines).toContain(
      `the signed requests name Discord application ${APPLICATION_ID}: Discord serves its key as verify_key at discord.com/api/v10/applications/${APPLICATION_ID}/rpc (npm run verify -- --discord-key fetch asks it)`,
    );
    expect(gameLine(checkPromises(rowsOf(text), undefined, undefined, signedOf(text)).lines).endsWith(hostsWord)).toBe(true);
  });

  it('pinned, the requests are checked under the reader’s key: the host’s word is gone', async () => {
    const offline = report(await played(), discord.publicHex);
    expect(offline.ok).toBe(true);
    expect(gameLine(offline.lines)).toContain(`4 rows signed by Discord under application key ${discord.publicHex}, the Discord key you pinned`);
    expect(offline.lines.join('\n')).not.toContain("host's word");
    expect(offline.lines.join('\n')).not.toContain('the signed requests name Discord application');
  });

  it('a game the host signed whole with his own key holds only on his word; Discord’s key pinned, it fails, naming the key it commits', async () => {
    const forged = forgedUnderHostKey(await played());
    const unpinned = report(forged.text);
    expect(unpinned.ok).toBe(true);
    expect(gameLine(unpinned.lines)).toContain(`under application key ${forged.hostKey} (compare it with Discord's verify_key)`);
    expect(gameLine(unpinned.lines)).toContain("; that key is the host's word");
    const pinned = report(forged.text, discord.publicHex);
    expect(pinned.ok).toBe(false);
    expect(gameLine(pinned.lines)).toMatch(
      new RegExp(
        `^game \\w+: FAILED: its first row commits application key ${forged.hostKey}, not the Discord key you pinned \\(${discord.publicHex}\\): its requests are not that application's$`,
      ),
    );
    // The in-bot /verify holds the same rule when a key is given to it.
    const inBot = checkPromises(rowsOf(forged.text), undefined, undefined, signedOf(forged.text), discord.publicHex);
    expect(inBot.ok).toBe(false);
    expect(gameLine(inBot.lines)).toContain(`not the Discord key you pinned (${discord.publicHex})`);
  });

  it('a key is 64 hex digits (either case, spaces around); the application is the one the signed bodies name', async () => {
    expect(parseDiscordKey(` ${'AB'.repeat(32)} `)).toBe('ab'.repeat(32));
    for (const bad of ['ab'.repeat(31), 'ab'.repeat(33), `${'ab'.repeat(31)}zz`, 'fetch', '']) expect(parseDiscordKey(bad), bad).toBeUndefined();
    const walk = new RangeWalk();
    walk.push(new TextEncoder().encode(await played()));
    expect(applicationIds([walk.finish()])).toEqual([APPLICATION_ID]);
  });
});
