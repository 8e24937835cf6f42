/** The ledger refused or failed a write (busy, disk full, connection lost …): nothing was written. */
export class LedgerWriteError extends Error {}
/** A once-key already spent: the action it guards was recorded before. */
export class AlreadyRecordedError extends Error {}
