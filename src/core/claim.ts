import type { InteractionClaim } from '../ledger/contract.js';
import { InteractionTakenError } from '../ledger/errors.js';
import type { LedgerStore } from '../ledger/store.js';
import type { LedgerTx } from '../ledger/transaction.js';
import { refuse } from './user-error.js';

type Work<T> = (tx: LedgerTx) => Promise<T> | T;

const duplicate = (): never => refuse('duplicate', undefined, 'duplicate');
const ignore = () => undefined;

/**
 * An interaction's id, used once on every transport and process, claimed by the first transaction
 * its command commits (the transaction's first write: on PostgreSQL in the statement that takes the
 * guild's lock), so a roll spends no transaction of its own on it. A command that commits none (it
 * only reads, it was refused, it failed) has it claimed alone when it is done (`settle`): either
 * way a second delivery is answered "already handled", whatever it did meanwhile.
 */
export class PendingClaim {
  private state: 'pending' | 'held' | 'taken' = 'pending';
  /** While the claim is not held, the command's transactions run one after another: one claims it. */
  private turn: Promise<unknown> = Promise.resolve();

  /** The store as the command sees it: the same but for `transaction`, which claims first while the claim is not held. */
  readonly ledger: LedgerStore;

  constructor(
    private readonly store: LedgerStore,
    readonly id: string,
    readonly guildId: string,
  ) {
    this.ledger = new Proxy(store, { get: (target, prop) => (prop === 'transaction' ? this.transaction : Reflect.get(target, prop, target)) });
  }

  private readonly transaction = <T>(work: Work<T>, guildId?: string): Promise<T> => {
    if (this.state === 'held') return this.store.transaction(work, guildId);
    const mine = this.turn.then(() => this.claiming(work, guildId));
    this.turn = mine.catch(ignore);
    return mine;
  };

  private async claiming<T>(work: Work<T>, guildId: string | undefined): Promise<T> {
    if (this.state === 'taken') duplicate();
    if (this.state === 'held') return this.store.transaction(work, guildId);
    const claim: InteractionClaim = { id: this.id, guildId: this.guildId, claimed: false };
    try {
      const out = await this.store.transaction(work, guildId, claim);
      // A store that passed the claim on to nobody claimed nothing: `settle` claims it then.
      if (claim.claimed) this.state = 'held';
      return out;
    } catch (err) {
      if (err instanceof InteractionTakenError) this.state = 'taken';
      if (this.state === 'taken') duplicate();
      throw err;
    }
  }

  /** Claimed by now: alone, if no transaction of the command did; refused as a duplicate if another delivery had it. */
  async settle(): Promise<void> {
    await this.turn;
    if (this.state === 'pending') await this.transaction(ignore, this.guildId);
    if (this.state === 'taken') duplicate();
  }
}
