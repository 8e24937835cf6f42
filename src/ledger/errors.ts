/** The ledger refused or failed a write (busy, disk full, connection lost …): nothing was written. */
export class LedgerWriteError extends Error {}
/** A once-key already spent: the action it guards was recorded before. */
export class AlreadyRecordedError extends Error {}
/**
 * The bot will not open this ledger (damaged, empty, or written by a newer version): its message
 * names the file and what to do. A restart cannot mend it, so the process exits with EX_CONFIG.
 */
export class LedgerRefusedError extends Error {}
/** An interaction id a transaction was to claim first was claimed before: the transaction did nothing. */
export class InteractionTakenError extends Error {}
