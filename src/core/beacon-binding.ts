import type { APIEmbed } from 'discord.js';
import { BINDING_WINDOW_MS, boundRound, roundTime, snowflakeAt, type BeaconChain } from '../beacon/chain.js';
import { BeaconExpiredError, type BeaconSource } from '../beacon/relay.js';
import { randomnessOf, type BeaconRound } from '../beacon/verify-round.js';
import { BEACON_SCHEME, type RollBeacon } from '../dice/seeded.js';
import type { BeaconBinding } from '../ledger/contract.js';
import { gameOptionsOf } from '../ledger/roster.js';
import type { LedgerStore } from '../ledger/store.js';
import type { Logger } from '../log.js';
import type { Actor, Reply } from './command.js';
import { expireIn, pastWindow, type ExpiryWhy } from './beacon-expiry.js';
import { workOutEvidence, type RequestEvidence } from './evidence.js';
import { commandShown, say } from '../i18n/reader.js';
import { speak } from '../i18n/speak.js';
import { command, said } from '../i18n/said.js';

/** With no valid round this long after the request, a club game's roll expires (on the record): never local randomness instead. */
export const BEACON_EXPIRY_MS = BINDING_WINDOW_MS;

/** What a binder needs of a request (the router's Request): who asked, where, and under which id. */
export type Bindable = { type: 'command' | 'button'; interactionId?: string | undefined; actor: Actor; name?: string; evidence?: RequestEvidence | undefined };

/** Runs a bound request again with its round: the router's dispatch, minus the claim already made. */
export type Redo<R> = (req: R, beacon: RollBeacon) => Promise<Reply>;

/**
 * The message the channel sees within Discord's 3 s: who rolled, and the round the dice wait for;
 * in a tournament game, that the roll never expires and every relay is asked until the round comes.
 */
export function boundEmbed(chain: BeaconChain, b: Pick<BeaconBinding, 'user_id' | 'round' | 'tournament'>, what: string, relays = 0): APIEmbed {
  const at = Math.ceil(roundTime(chain, b.round) / 1000);
  const bound = say('beacon.bound', { user: b.user_id, round: String(b.round), at: `<t:${at}:T>` });
  return {
    title: say('beacon.boundTitle', { what, round: String(b.round) }),
    description: b.tournament ? `${bound}\n${say('beacon.boundTournament', { round: String(b.round), relays })}` : bound,
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

/** What a bound request asked for, as the reader's client names it: a command, or a button's roll. */
function askedShown(req: { type?: string; name?: string | undefined }): string {
  return req.type === 'command' && req.name ? commandShown(req.name) : say('beacon.roll');
}

/** A waiting binding in a sentence: whose roll, of what, and the round it waits for. */
export function waitingRoll(b: Pick<BeaconBinding, 'request' | 'user_id' | 'round'>): string {
  let req: { type?: string; name?: string } = {};
  try {
    req = JSON.parse(b.request) as typeof req;
  } catch {
    // A request that no longer reads is still a roll that waits.
  }
  return say('beacon.waitingRoll', { user: b.user_id, what: askedShown(req), round: String(b.round) });
}

/** A binding left by a stopped process, and its reply once rolled or expired. */
export type Resumed = { binding: BeaconBinding; reply: Promise<Reply> };

/**
 * A beacon game's rolls: bound to a round when asked (the binding kept beside the chain, so it
 * survives a restart), rolled when that round is published and checked, inside its window; a club
 * game's binding with no round in ten minutes expires on the record, a tournament game's waits.
 */
export class BeaconBinder<R extends Bindable> {
  private serial = 0;
  /** The last round's randomness: every roll bound to a round asks it, and it is SHA-256 in JavaScript. */
  private randomness = { signature: '', value: '' };

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
      // The game the roll was asked in (its first run stopped at it): kept, so the roll is of that game or of none.
      const game = await tx.roster.activeGame(req.actor.guildId, req.actor.channelId);
      const beaconGame = game?.dice_scheme === BEACON_SCHEME ? game : undefined;
      // The ledger's clock, as its rows have: the binding's ten minutes are counted on it.
      const b: BeaconBinding = {
        interaction_id: interactionId,
        guild_id: req.actor.guildId,
        channel_id: req.actor.channelId,
        user_id: req.actor.userId,
        round: boundRound(this.source.chain, interactionId),
        request: JSON.stringify({ ...req, interactionId }),
        created_at: tx.timestamp(),
        ...(beaconGame ? { game_id: beaconGame.id } : {}),
        ...(beaconGame && gameOptionsOf(beaconGame).fair === 'tournament' ? { tournament: 1 as const } : {}),
      };
      await tx.history.bindBeacon(b);
      return b;
    }, req.actor.guildId);
    return { type: 'bound', embed: boundEmbed(this.source.chain, binding, askedShown(req), this.source.relays.length), result: this.safely(binding) };
  }

  /** The bound request rolled with its round inside its window, or expired on the record. */
  async complete(b: BeaconBinding): Promise<Reply> {
    // Past its window before its round was asked for (the bot was stopped): never rolled late.
    if (pastWindow(b, this.ledger.timestamp())) return this.expired(b, 'window_passed');
    const req = JSON.parse(b.request) as R;
    // Its evidence worked out while the round is still to come, once this turn's replies are out.
    const evidence = req.evidence;
    if (evidence) setImmediate(() => workOutEvidence(b.interaction_id, evidence));
    const got = await this.roundOf(b);
    if (!got) return this.expired(b, 'relays_silent');
    if (this.randomness.signature !== got.signature) this.randomness = { signature: got.signature, value: randomnessOf(got.signature) };
    const beacon: RollBeacon = { interactionId: b.interaction_id, round: got.round, signature: got.signature, randomness: this.randomness.value };
    const reply = await this.redo(req, { ...beacon, ...(b.game_id ? { game: b.game_id } : {}) });
    // A run that rolled settled the binding with its row: a read, not a transaction queued behind
    // every other roll of the round, says there is nothing left to end.
    if (!(await this.ledger.history.bindingPending(b.interaction_id))) return reply;
    // One that did not ends it here: refused now, or past its window when it came to be recorded
    // (expired on the record, never rolled late).
    const ended = await this.ledger.transaction(async (tx) => {
      if (pastWindow(b, tx.timestamp())) return (await expireIn(tx, b, 'window_passed')) ? 'expired' : 'settled';
      await tx.history.settleBinding(b.interaction_id, 'not_rolled', null, tx.timestamp());
      return 'settled';
    }, b.guild_id);
    return ended === 'expired' ? this.expiredReply(b, 'window_passed') : reply;
  }

  /**
   * The binding's round from the relays: a club game's within its window (undefined past it), a
   * tournament game's however long it takes (every relay asked again and again; it never expires).
   */
  private async roundOf(b: BeaconBinding): Promise<BeaconRound | undefined> {
    const deadline = b.tournament ? Number.POSITIVE_INFINITY : Date.parse(b.created_at) + BINDING_WINDOW_MS;
    try {
      return await this.source.round(b.round, deadline);
    } catch (err) {
      if (!(err instanceof BeaconExpiredError)) throw err;
      this.log.warn('a beacon roll expired', { round: b.round, interaction: b.interaction_id, why: err.message });
      return undefined;
    }
  }

  /** The binding expired on the record (its row in its game), and the player told why. */
  private async expired(b: BeaconBinding, why: ExpiryWhy): Promise<Reply> {
    const settled = await this.ledger.transaction((tx) => expireIn(tx, b, why), b.guild_id);
    return settled ? this.expiredReply(b, why) : { type: 'error', message: speak(localeOf(b), said('beacon.settled')) };
  }

  private expiredReply(b: BeaconBinding, why: ExpiryWhy): Reply {
    const key = why === 'relays_silent' ? 'beacon.expired' : 'beacon.lapsed';
    return { type: 'error', message: speak(localeOf(b), said(key, { round: String(b.round) })) };
  }

  /** Bindings a stopped process left: each rolled or expired now, its reply for the channel when it settles. */
  async resume(limit = 500): Promise<Resumed[]> {
    const pending = await this.ledger.history.pendingBindings(limit);
    return pending.map((binding) => ({ binding, reply: this.safely(binding) }));
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
