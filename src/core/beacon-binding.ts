import type { APIEmbed } from 'discord.js';
import { boundRound, roundTime, snowflakeAt, type BeaconChain } from '../beacon/chain.js';
import { BeaconExpiredError, type BeaconSource } from '../beacon/relay.js';
import { randomnessOf } from '../beacon/verify-round.js';
import type { RollBeacon } from '../dice/seeded.js';
import type { BeaconBinding } from '../ledger/contract.js';
import type { LedgerStore } from '../ledger/store.js';
import type { Logger } from '../log.js';
import type { Actor, Reply } from './command.js';
import { commandShown, say } from '../i18n/reader.js';
import { speak } from '../i18n/speak.js';
import { command, said } from '../i18n/said.js';

/** With no valid round this long after the request, the roll expires: never local randomness instead. */
export const BEACON_EXPIRY_MS = 10 * 60 * 1000;

/** What a binder needs of a request (the router's Request): who asked, where, and under which id. */
export type Bindable = { type: 'command' | 'button'; interactionId?: string | undefined; actor: Actor; name?: string };

/** Runs a bound request again with its round: the router's dispatch, minus the claim already made. */
export type Redo<R> = (req: R, beacon: RollBeacon) => Promise<Reply>;

/** The message the channel sees within Discord's 3 s: who rolled, and the round the dice wait for. */
export function boundEmbed(chain: BeaconChain, b: Pick<BeaconBinding, 'user_id' | 'round'>, what: string): APIEmbed {
  const at = Math.ceil(roundTime(chain, b.round) / 1000);
  return {
    title: say('beacon.boundTitle', { what, round: String(b.round) }),
    description: say('beacon.bound', { user: b.user_id, round: String(b.round), at: `<t:${at}:T>` }),
  };
}

/** The locale of the player a binding answers: the request it keeps, as Discord sent it (English if unreadable: this is a failure's reply). */
export function localeOf(b: Pick<BeaconBinding, 'request'>): string | undefined {
  try {
    return (JSON.parse(b.request) as { locale?: string }).locale;
  } catch {
    return undefined;
  }
}

/**
 * A beacon game's rolls: bound to a round when asked (the binding kept beside the chain, so it
 * survives a restart), rolled when that round is published and checked, or expired after ten
 * minutes without one.
 */
export class BeaconBinder<R extends Bindable> {
  private serial = 0;

  constructor(
    readonly source: BeaconSource,
    private readonly ledger: LedgerStore,
    private readonly log: Logger,
    private readonly redo: Redo<R>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Binds a request to its round and answers at once; the reply's `result` settles when the round is in. */
  async bind(req: R): Promise<Reply> {
    // The console has no Discord: it makes an id of the moment, as Discord would.
    const interactionId = req.interactionId ?? snowflakeAt(this.now(), this.serial++);
    const binding = await this.ledger.transaction(async (tx) => {
      // The ledger's clock, as its rows have: the binding's ten minutes are counted on it.
      const b: BeaconBinding = {
        interaction_id: interactionId,
        guild_id: req.actor.guildId,
        channel_id: req.actor.channelId,
        user_id: req.actor.userId,
        round: boundRound(this.source.chain, interactionId),
        request: JSON.stringify({ ...req, interactionId }),
        created_at: tx.timestamp(),
      };
      await tx.history.bindBeacon(b);
      return b;
    }, req.actor.guildId);
    const what = req.type === 'command' && req.name ? commandShown(req.name) : say('beacon.roll');
    return { type: 'bound', embed: boundEmbed(this.source.chain, binding, what), result: this.safely(binding) };
  }

  /** The bound request rolled with its round, or expired. */
  async complete(b: BeaconBinding): Promise<Reply> {
    const deadline = Date.parse(b.created_at) + BEACON_EXPIRY_MS;
    let beacon: RollBeacon;
    try {
      const got = await this.source.round(b.round, deadline);
      beacon = { interactionId: b.interaction_id, round: got.round, signature: got.signature, randomness: randomnessOf(got.signature) };
    } catch (err) {
      if (!(err instanceof BeaconExpiredError)) throw err;
      this.log.warn('a beacon roll expired', { round: b.round, interaction: b.interaction_id, why: err.message });
      const settled = await this.settle(b, 'expired');
      return { type: 'error', message: speak(localeOf(b), settled ? said('beacon.expired', { round: String(b.round) }) : said('beacon.settled')) };
    }
    const reply = await this.redo(JSON.parse(b.request) as R, beacon);
    // A run that rolled settled the binding with its row; one that did not (refused now) ends it here.
    await this.settle(b, 'not_rolled');
    return reply;
  }

  private settle(b: BeaconBinding, state: 'expired' | 'not_rolled'): Promise<boolean> {
    return this.ledger.transaction((tx) => tx.history.settleBinding(b.interaction_id, state, null, tx.timestamp()), b.guild_id);
  }

  /** Bindings a stopped process left: each rolled or expired now, with its reply for the channel. */
  async resume(limit = 500): Promise<{ binding: BeaconBinding; reply: Reply }[]> {
    const pending = await this.ledger.history.pendingBindings(limit);
    return Promise.all(pending.map(async (binding) => ({ binding, reply: await this.safely(binding) })));
  }

  /** complete, never throwing: the result is awaited later (or never), so a failure must become a reply. */
  private safely(b: BeaconBinding): Promise<Reply> {
    return this.complete(b).catch((err: unknown) => {
      this.log.error('a beacon roll could not be completed', { round: b.round, interaction: b.interaction_id, err });
      return {
        type: 'error',
        message: speak(localeOf(b), said('beacon.failed', { round: String(b.round), history: command('history') })),
      };
    });
  }
}
