import type { History } from './history.js';
import type { LedgerRow, NewEntry, SealedRecord } from './rows.js';
import type { Roster } from './roster.js';
import type { Settings } from './settings.js';

/** A method's promise-returning twin: the handle is async so a networked backend can implement it. */
export type Async<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : never };

/** What one transaction may do: the writes that belong together, and the reads they need. */
export type LedgerTx = Async<{
  append(entry: NewEntry): LedgerRow;
  nextGameSeq(gameId: string): number;
  get(guildId: string, id: string): LedgerRow | undefined;
  children(guildId: string, parentId: string): LedgerRow[];
  gameRollCount(guildId: string, gameId: string): number;
  sealedPayloads(guildId: string, rollIds: string[]): Map<string, SealedRecord>;
}> & {
  /** The time the ledger writes (the same clock as the rows). */
  timestamp(): string;
  roster: Async<
    Pick<
      Roster,
      | 'activeGame'
      | 'unit'
      | 'game'
      | 'unitByName'
      | 'units'
      | 'everyUnit'
      | 'countUnits'
      | 'startGame'
      | 'addPlayerSeed'
      | 'setSeedCommitments'
      | 'setTurn'
      | 'endGame'
      | 'addUnit'
      | 'patchUnit'
      | 'removeUnit'
    >
  >;
  settings: Async<Pick<Settings, 'setGmRole' | 'setGmChannel'>>;
  history: Async<Pick<History, 'linkMessage'>>;
};

/** Wraps an object's synchronous methods as promise-returning ones (SQLite answers at once). */
export function promised<T extends object, K extends keyof T>(target: T, keys: readonly K[]): Async<Pick<T, K>> {
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const fn = target[k] as unknown as (...a: unknown[]) => unknown;
    out[k as string] = (...args: unknown[]) => {
      try {
        return Promise.resolve(fn.apply(target, args));
      } catch (err) {
        return Promise.reject(err);
      }
    };
  }
  return out as Async<Pick<T, K>>;
}
