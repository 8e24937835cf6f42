import type { ChunkBudget } from '../util/yield.js';
import type { ChainReport } from './chain.js';
import type { History, HistoryFilter } from './history.js';
import type { Ledger } from './ledger.js';
import type { Roster } from './roster.js';
import type { LedgerRow, RawRow, SealedRecord } from './rows.js';
import type { SavedQueries } from './saved-queries.js';
import type { Settings } from './settings.js';
import { promised, type Async, type LedgerTx } from './transaction.js';

/** A history page: its rows, and how many match (counted up to a cap). */
export type HistoryPage = ReturnType<History['page']>;

/** The history reads the commands make, async so a networked backend can serve them. */
export type HistoryReads = Async<Pick<History, 'voided' | 'revealedPayloads' | 'messages'>> & {
  page(f: HistoryFilter, limit: number, offset: number, countCap?: number): Promise<HistoryPage>;
  chunks(f: HistoryFilter, budget?: ChunkBudget): AsyncGenerator<LedgerRow[]>;
  rawChunks(f: HistoryFilter, budget?: ChunkBudget): AsyncGenerator<RawRow[]>;
};

/**
 * The ledger as the bot uses it, whatever holds it (issue 16): SQLite in this process, or
 * PostgreSQL shared by many processes. Every read is async; every write goes through `transaction`.
 */
export interface LedgerStore {
  readonly backend: 'sqlite' | 'postgres';
  /** The SQLite file an export's worker may open read-only; undefined where there is none (memory, PostgreSQL). */
  readonly sqliteFile: string | undefined;
  timestamp(): string;
  get(guildId: string, id: string): Promise<LedgerRow | undefined>;
  children(guildId: string, parentId: string): Promise<LedgerRow[]>;
  gameRollCount(guildId: string, gameId: string): Promise<number>;
  gameRulingCount(guildId: string, gameId: string): Promise<number>;
  sealedPayloads(guildId: string, rollIds: string[]): Promise<Map<string, SealedRecord>>;
  recentUnits(guildId: string, channelId: string, prefix: string, limit: number, system: string): Promise<string[]>;
  verifyInChunks(guildId: string, upToGuildSeq?: number, budget?: ChunkBudget): Promise<ChainReport>;
  /** `work` in one transaction: its rows and roster changes commit together or not at all. `guildId` names the guild it
   * writes for: on a shared backend, transactions of one guild run one at a time whatever process runs them. */
  transaction<T>(work: (tx: LedgerTx) => Promise<T> | T, guildId?: string): Promise<T>;
  roster: Async<Pick<Roster, 'activeGame' | 'game' | 'unit' | 'unitByName' | 'unitNames' | 'countUnits' | 'everyUnit' | 'units'>>;
  settings: Async<Pick<Settings, 'get'>>;
  queries: Async<Pick<SavedQueries, 'save' | 'get'>>;
  history: HistoryReads;
  close(): Promise<void>;
}

/** The SQLite ledger as a store: its answers are immediate, wrapped as promises. */
export function sqliteStore(ledger: Ledger): LedgerStore {
  const history = ledger.history;
  return {
    backend: 'sqlite',
    sqliteFile: ledger.db.memory ? undefined : ledger.db.name,
    timestamp: () => ledger.timestamp(),
    ...promised(ledger, ['get', 'children', 'gameRollCount', 'gameRulingCount', 'sealedPayloads', 'recentUnits'] as const),
    verifyInChunks: (guildId, upTo, budget) => ledger.verifyInChunks(guildId, upTo, budget),
    transaction: (work) => ledger.transaction(work),
    roster: promised(ledger.roster, ['activeGame', 'game', 'unit', 'unitByName', 'unitNames', 'countUnits', 'everyUnit', 'units'] as const),
    settings: promised(ledger.settings, ['get'] as const),
    queries: promised(ledger.queries, ['save', 'get'] as const),
    history: {
      ...promised(history, ['page', 'voided', 'revealedPayloads', 'messages'] as const),
      chunks: (f, budget) => history.chunks(f, budget),
      rawChunks: (f, budget) => history.rawChunks(f, budget),
    },
    close: async () => ledger.close(),
  };
}
