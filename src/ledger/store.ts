import fs from 'node:fs';
import path from 'node:path';
import type { ChunkBudget } from '../util/yield.js';
import type { ChainReport } from './chain.js';
import type { History, HistoryFilter } from './history.js';
import type { Ledger } from './ledger.js';
import type { LedgerRow, RawRow } from './rows.js';
import type { SavedQueries } from './saved-queries.js';
import type { BeaconBindingReads, EvidenceReads, InteractionClaim, LateDeliveryReads, StoreReads } from './contract.js';
import type { RosterReads } from './roster.js';
import type { SettingsReads } from './settings.js';
import type { KeyReads } from './signing-keys.js';
import type { RequestReads, ScheduleReads } from './requests.js';
import type { GuildPurge, RetentionReads } from './retention.js';
import { promised, type Async, type LedgerTx } from './transaction.js';
import { personalData, sqliteSql, type PersonalReads } from './personal-data.js';

/** A history page: its rows, and how many match (counted up to a cap). */
export type HistoryPage = ReturnType<History['page']>;

/** The history reads the commands make, async so a networked backend can serve them. */
export type HistoryReads = Async<Pick<History, 'voided' | 'revealedPayloads' | 'messages'> & LateDeliveryReads & BeaconBindingReads & EvidenceReads> & {
  page(f: HistoryFilter, limit: number, offset: number, countCap?: number): Promise<HistoryPage>;
  chunks(f: HistoryFilter, budget?: ChunkBudget): AsyncGenerator<LedgerRow[]>;
  rawChunks(f: HistoryFilter, budget?: ChunkBudget): AsyncGenerator<RawRow[]>;
};

/**
 * The ledger as the bot uses it, whatever holds it: SQLite in this process, or
 * PostgreSQL shared by many processes. Every read is async; every write goes through `transaction`.
 * Its methods are declared once, in contract.ts.
 */
export interface LedgerStore extends Async<StoreReads>, GuildPurge {
  readonly backend: 'sqlite' | 'postgres';
  /** The SQLite file an export's worker may open read-only; undefined where there is none (memory, PostgreSQL). */
  readonly sqliteFile: string | undefined;
  timestamp(): string;
  verifyInChunks(guildId: string, upToGuildSeq?: number, budget?: ChunkBudget): Promise<ChainReport>;
  /** `work` in one transaction: its rows and roster changes commit together or not at all. `guildId` names the guild it
   * writes for: on a shared backend, transactions of one guild run one at a time whatever process runs them. `claim`:
   * an interaction id claimed first (InteractionClaim). */
  transaction<T>(work: (tx: LedgerTx) => Promise<T> | T, guildId?: string, claim?: InteractionClaim): Promise<T>;
  roster: Async<RosterReads>;
  settings: Async<SettingsReads>;
  /** The receipt keys' public halves. */
  keys: Async<KeyReads>;
  queries: Async<Pick<SavedQueries, 'save' | 'get'>>;
  history: HistoryReads;
  /** Requested rolls, game clocks and what is due when, read outside a transaction (lists, the scheduler). */
  requests: Async<RequestReads & ScheduleReads>;
  /** The servers the bot left and how long their data is kept; `purgeGuild` deletes one's data. */
  retention: Async<RetentionReads>;
  /** What is kept about a person (/privacy show and export). */
  personal: PersonalReads;
  /**
   * Proves the ledger can take a write now (readiness): resolves, or throws saying why not. SQLite:
   * the disk holding it has room past a margin, and its write lock can be taken. PostgreSQL: a
   * transaction the server must log (one with a transaction id) commits.
   */
  probeWrite(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Free space the disk holding a SQLite ledger must keep. Under it, readiness fails before rolls do:
 * a checkpoint copies the write-ahead log into the file. The checkpoint worker keeps that log near
 * 4 MiB; a GM's long read (/export, /verify) lets it grow while the read lasts, by what is written meanwhile.
 */
export const FREE_SPACE_MARGIN_BYTES = 64 * 1024 * 1024;

const MiB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** Throws when the filesystem holding `dir` has less than the margin free (to an unprivileged user). */
export function assertRoom(dir: string, margin = FREE_SPACE_MARGIN_BYTES): void {
  const s = fs.statfsSync(dir);
  const free = s.bavail * s.bsize;
  if (free < margin) throw new Error(`the disk holding the ledger has ${MiB(free)} free, under the ${MiB(margin)} it keeps for writes: free some space`);
}

/** The SQLite ledger as a store: its answers are immediate, wrapped as promises. */
export function sqliteStore(ledger: Ledger): LedgerStore {
  const history = ledger.history;
  const rows = promised<StoreReads>(ledger);
  return {
    backend: 'sqlite',
    sqliteFile: ledger.db.memory ? undefined : ledger.db.name,
    timestamp: () => ledger.timestamp(),
    get: rows.get,
    children: rows.children,
    packRows: rows.packRows,
    gameRollCount: rows.gameRollCount,
    gameRulingCount: rows.gameRulingCount,
    sealedPayloads: rows.sealedPayloads,
    recentUnits: rows.recentUnits,
    rowTotal: rows.rowTotal,
    tallySums: rows.tallySums,
    guildTallies: rows.guildTallies,
    recountRows: rows.recountRows,
    verifyInChunks: (guildId, upTo, budget) => ledger.verifyInChunks(guildId, upTo, budget),
    transaction: (work, guildId, claim) => ledger.transaction(work, guildId, claim),
    probeWrite: async () => {
      if (!ledger.db.memory) assertRoom(path.dirname(ledger.db.name));
      await ledger.transaction(async () => undefined);
    },
    roster: promised<RosterReads>(ledger.roster),
    settings: promised<SettingsReads>(ledger.settings),
    keys: promised<KeyReads>(ledger.keys),
    queries: promised<Pick<SavedQueries, 'save' | 'get'>>(ledger.queries),
    requests: promised<RequestReads & ScheduleReads>(ledger.requests),
    retention: promised<RetentionReads>(ledger.retention),
    purgeGuild: (guildId, leftAt) => ledger.purgeGuild(guildId, leftAt),
    personal: personalData(sqliteSql(ledger.db)),
    history: {
      ...promised<
        Pick<History, 'voided' | 'revealedPayloads' | 'messages'> & LateDeliveryReads & BeaconBindingReads & EvidenceReads & { page: History['page'] }
      >(history),
      chunks: (f, budget) => history.chunks(f, budget),
      rawChunks: (f, budget) => history.rawChunks(f, budget),
    },
    close: async () => ledger.close(),
  };
}
