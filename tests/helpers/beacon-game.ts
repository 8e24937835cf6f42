import { roundTime, snowflakeAt, type BeaconChain } from '../../src/beacon/chain.js';
import { relaySource } from '../../src/beacon/relay.js';
import type { BeaconRound } from '../../src/beacon/verify-round.js';
import { createRouter } from '../../src/app.js';
import type { Reply } from '../../src/core/command.js';
import type { Actor } from '../../src/core/command.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { createLogger } from '../../src/log.js';
import { FakeRelay } from './beacon-relay.js';
import { generateKeyPairSync, sign as ed25519Sign } from 'node:crypto';
import type { RequestEvidence } from '../../src/core/evidence.js';

/** A stand-in for Discord's application key: signs a request's body as Discord would send it. */
export type FakeDiscordKey = {
  publicHex: string;
  /** These exact body bytes, signed at this time. */
  signBody(body: string, atMs: number): RequestEvidence;
  sign(req: { name: string; subcommand?: string; options: Record<string, unknown>; actor: Actor; interactionId?: string }, atMs: number): RequestEvidence;
};

export function fakeDiscordKey(): FakeDiscordKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const publicHex = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url').toString('hex');
  const signBody = (body: string, atMs: number): RequestEvidence => {
    const timestamp = String(Math.floor(atMs / 1000));
    const signature = ed25519Sign(null, Buffer.from(timestamp + body), privateKey).toString('hex');
    return { key: publicHex, timestamp, signature, body: Buffer.from(body).toString('base64') };
  };
  return {
    publicHex,
    signBody,
    sign(req, atMs) {
      const options = Object.entries(req.options).map(([name, value]) => ({
        name,
        type: typeof value === 'number' ? 4 : typeof value === 'boolean' ? 5 : 3,
        value,
      }));
      const body = JSON.stringify({
        id: req.interactionId,
        type: 2,
        token: `token-of-${req.interactionId}`,
        guild_id: req.actor.guildId,
        channel_id: req.actor.channelId,
        member: { user: { id: req.actor.userId, username: req.actor.userName } },
        data: { name: req.name, type: 1, options: req.subcommand ? [{ name: req.subcommand, type: 1, options }] : options },
      });
      return signBody(body, atMs);
    },
  };
}

/**
 * A beacon game of `rolls` /rally rolls played on a clock this code moves (a roll every `gapS`
 * seconds, each recorded when its round is out), ended, in a SQLite file: the export a verifier
 * is given. Nothing waits on the real clock, so a thousand rolls take seconds.
 */
export async function playBeaconGame(
  file: string,
  chain: BeaconChain,
  sign: (round: number) => BeaconRound,
  o: { rolls: number; gapS?: number; players?: number; startMs?: number; discord?: FakeDiscordKey },
): Promise<{ gameId: string; ledger: Ledger }> {
  let clock = o.startMs ?? (chain.genesis_time + 1_000_000) * 1000;
  const now = () => clock;
  const ledger = Ledger.open(file, { now: () => new Date(clock) });
  const relay = await new FakeRelay(chain, sign, now).start();
  try {
    const beacon = relaySource(chain, { urls: [relay.url], retryMs: 10, now });
    const router = createRouter({ ledger, log: createLogger({ level: 'silent' }), beacon });
    const actor = (i: number): Actor => ({ guildId: 'g1', channelId: 'c1', userId: `p${i}`, userName: `Player ${i}`, isGm: false });
    // With a Discord key: a tournament game, every request signed as Discord signs it (HTTP mode).
    const signed = (req: Parameters<typeof router.handle>[0] & { type: 'command' }) => (o.discord ? { ...req, evidence: o.discord.sign(req, clock) } : req);
    const start = await router.handle(
      signed({
        type: 'command',
        name: 'game',
        subcommand: 'start',
        options: { system: 'hearts-of-tin', name: 'Bench', ...(o.discord ? { fair: 'tournament' } : {}) },
        actor: actor(0),
        interactionId: snowflakeAt(clock, 4_000_000),
      }),
    );
    if (start.type !== 'message') throw new Error(`the game did not start: ${JSON.stringify(start)}`);
    for (let i = 0; i < o.rolls; i++) {
      clock += (o.gapS ?? chain.period) * 1000;
      const interactionId = snowflakeAt(clock, i);
      const bound: Reply = await router.handle(
        signed({
          type: 'command',
          name: 'rally',
          options: { disorder: 1 + (i % 3), unit: `Unit ${i % 40}` },
          actor: actor(i % (o.players ?? 10)),
          interactionId,
        }),
      );
      if (bound.type !== 'bound') throw new Error(`roll ${i} did not bind: ${JSON.stringify(bound)}`);
      // The round is out: two periods later, and a little.
      clock = Math.max(clock, roundTime(chain, Number(/round (\d+)/.exec(bound.embed.title ?? '')![1]))) + 200;
      const result = await bound.result;
      if (result.type !== 'message') throw new Error(`roll ${i} was not rolled: ${JSON.stringify(result)}`);
    }
    const end = await router.handle(
      signed({ type: 'command', name: 'game', subcommand: 'end', options: {}, actor: actor(0), interactionId: snowflakeAt(clock, 4_000_001) }),
    );
    if (end.type !== 'message') throw new Error(`the game did not end: ${JSON.stringify(end)}`);
    return { gameId: ledger.roster.recentGames('g1', undefined, 1)[0]!.id, ledger };
  } finally {
    await relay.stop();
  }
}
