import type { Reply } from '../../src/core/command.js';
import { attachmentData } from '../../src/core/command.js';
import { alice, bob, gm } from './app.js';
import { BeaconTable } from './beacon-clock.js';
import { testChain } from './beacon-relay.js';
import { tmpDb } from './tmp.js';
import { lf, rehash, rowsOf, type CorpusEntry } from './verify-corpus.js';

const MINUTE = 60_000;

/**
 * A beacon game played through the router on a clock moved by hand, where the host's relay withheld
 * the rounds of Bob's second and fourth rolls until their ten minutes were up, and a roll of Alice's
 * went through; the export a GM takes of it.
 */
async function withheldExport(): Promise<string> {
  const { chain, sign } = testChain(19, 3);
  const t = await BeaconTable.open(tmpDb(), chain, sign);
  const p = t.start();
  try {
    await t.ask(p, alice, 'game', { system: 'hearts-of-tin', name: 'Ligny' }, 'start');
    for (const [i, actor] of [bob, bob, bob, bob, alice].entries()) {
      const bound = await t.ask(p, actor, 'rally', { disorder: 1, unit: `Unit ${i}` });
      t.relay.down = i === 1 || i === 3;
      if (t.relay.down) t.pass(11 * MINUTE);
      const result = t.relay.down ? await (bound as Extract<Reply, { type: 'bound' }>).result : await t.settle(bound);
      if (result.type !== (t.relay.down ? 'error' : 'message')) throw new Error(`roll ${i}: ${JSON.stringify(result)}`);
      t.relay.down = false;
    }
    await t.ask(p, alice, 'game', {}, 'end');
    const exported = (await t.ask(p, gm, 'export')) as Extract<Reply, { type: 'message' }>;
    return attachmentData(exported.files!.find((f) => f.name.endsWith('.jsonl'))!).toString();
  } finally {
    p.stop();
    await t.stop();
  }
}

type R = Record<string, any>;

/** The export with its first expiry changed by an operator who holds the database, the chain made whole again. */
function editExpiry(text: string, change: (expiry: R, all: R[]) => void): string {
  const all = rowsOf(text);
  change(all.find((r) => r.kind === 'expiry')!, all);
  return lf(rehash(all));
}

/**
 * Expiries, in every door: a bound roll whose round the bot's relays did not deliver in time is a
 * chained row every verifier counts by player; one written before its ten minutes, of another round
 * than its interaction binds, or in a tournament game (whose bindings never expire) is named.
 */
export async function beaconCorpus(): Promise<CorpusEntry[]> {
  const text = await withheldExport();
  const utf8 = (t: string) => Buffer.from(t, 'utf8');
  const late = rowsOf(text).find((r) => r.kind === 'expiry')!;
  return [
    {
      name: "a beacon game whose host's relay withheld two of Bob's rounds: they expired on the record",
      bytes: utf8(text),
      ok: true,
      says: "beacon: 2 rolls bound and expired unrolled (Bob 2): a published round the bot's relays did not deliver (the game's relays: http://127.0.0.1:",
    },
    {
      name: 'an expiry written five minutes after its roll was asked (the roll dropped once its round was out)',
      bytes: utf8(
        editExpiry(text, (e) => {
          e.created_at = new Date(Date.parse(e.created_at) - 6 * MINUTE).toISOString();
        }),
      ),
      ok: false,
      says: `expiry ${late.id} was recorded `,
    },
    {
      name: 'an expiry naming another round than its interaction binds',
      bytes: utf8(
        editExpiry(text, (e) => {
          e.input.round += 1;
        }),
      ),
      ok: false,
      says: `expiry ${late.id} names beacon round ${late.input.round + 1}, but its interaction ${late.input.interaction} binds it to round ${late.input.round}`,
    },
    {
      name: 'an expiry in a game whose first row says tournament',
      bytes: utf8(
        editExpiry(text, (_e, all) => {
          all.find((r) => r.result === 'game_started')!.input.fair = 'tournament';
        }),
      ),
      ok: false,
      says: `expiry ${late.id}: a binding of a tournament game expired, but a tournament game's binding never expires: its roll was dropped`,
    },
    {
      name: 'a roll recorded twelve minutes after it was asked (a binding rolled late)',
      bytes: utf8(
        editExpiry(text, (_e, all) => {
          const roll = all.find((r) => r.kind === 'roll' && r.game_seq === 1)!;
          roll.created_at = new Date(Date.parse(roll.created_at) + 12 * MINUTE).toISOString();
        }),
      ),
      ok: false,
      says: 'was recorded more than ten minutes after it was asked: its binding had expired',
    },
  ];
}
