import type {
  BeaconBindingWrites,
  ChannelReads,
  EvidenceWrites,
  GameRowReads,
  LateDeliveryWrites,
  MessageLinks,
  OnceKeys,
  RowReads,
  RowWrites,
} from './contract.js';
import type { RosterReads, RosterWrites } from './roster.js';
import type { SettingsWrites } from './settings.js';
import type { KeyWrites } from './signing-keys.js';
import type { RequestReads, RequestWrites, ScheduleReads, ScheduleWrites } from './requests.js';
import type { RetentionWrites } from './retention.js';
import type { PersonalReads, PersonalWrites } from './personal-data.js';

/** A method's promise-returning twin: the handle is async so a networked backend can implement it. */
export type Async<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : never };

/** What one transaction may do: the writes that belong together, and the reads they need (contract.ts). */
export type LedgerTx = Async<RowReads & GameRowReads & RowWrites & OnceKeys & ChannelReads> & {
  /** The time the ledger writes (the same clock as the rows). */
  timestamp(): string;
  roster: Async<RosterReads & RosterWrites>;
  settings: Async<SettingsWrites>;
  keys: Async<KeyWrites>;
  history: Async<MessageLinks & LateDeliveryWrites & BeaconBindingWrites & EvidenceWrites>;
  /** Requested rolls, game clocks and what is due when (requests.ts). */
  requests: Async<RequestReads & RequestWrites & ScheduleReads & ScheduleWrites>;
  /** The servers the bot left, and how long their data is kept (retention.ts). */
  retention: Async<RetentionWrites>;
  /** What is kept about a person, and its erasure in one guild (personal-data.ts). */
  personal: PersonalReads & PersonalWrites;
};

const wrap =
  (target: object, fn: (...a: unknown[]) => unknown) =>
  (...args: unknown[]) => {
    try {
      return Promise.resolve(fn.apply(target, args));
    } catch (err) {
      return Promise.reject(err);
    }
  };

/**
 * An object's methods as promise-returning ones (SQLite answers at once), typed as the contract `I`
 * it implements: the compiler checks that `target` satisfies it, so no list of names is kept here.
 */
export function promised<I extends object>(target: I): Async<I> {
  // No prototype of its own, so `k in out` sees only what was wrapped here.
  const out: Record<string, unknown> = Object.create(null);
  for (let proto = Object.getPrototypeOf(target); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const [k, d] of Object.entries(Object.getOwnPropertyDescriptors(proto))) {
      if (k !== 'constructor' && typeof d.value === 'function' && !(k in out)) out[k] = wrap(target, d.value);
    }
  }
  return out as Async<I>;
}
