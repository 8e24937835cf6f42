import type { Db } from './database.js';

/** A receipt key's public half and the time it was in use (valid_until null: in use now). */
export type KeyRecord = { fingerprint: string; public_key: string; valid_from: string; valid_until: string | null };

export interface KeyReads {
  /** Every key the bot has signed with, oldest first. */
  list(): KeyRecord[];
}

export interface KeyWrites {
  /** Records a key (once: a key already known is left as it is). */
  register(key: KeyRecord): void;
  /** Marks a key retired at `at` (a rotation), if it is not already. */
  retire(fingerprint: string, at: string): void;
}

/** The statements both backends run (SQLite's `?`; PostgreSQL numbers them). */
export const KEY_SQL = {
  list: 'SELECT fingerprint, public_key, valid_from, valid_until FROM signing_keys ORDER BY valid_from, fingerprint',
  register: 'INSERT INTO signing_keys (fingerprint, public_key, valid_from, valid_until) VALUES (?, ?, ?, ?) ON CONFLICT (fingerprint) DO NOTHING',
  retire: 'UPDATE signing_keys SET valid_until = ? WHERE fingerprint = ? AND valid_until IS NULL',
};

/** The receipt keys' public halves, on SQLite. */
export class SigningKeys implements KeyReads, KeyWrites {
  private readonly q;
  constructor(db: Db) {
    this.q = { list: db.prepare(KEY_SQL.list), register: db.prepare(KEY_SQL.register), retire: db.prepare(KEY_SQL.retire) };
  }

  list(): KeyRecord[] {
    return this.q.list.all() as KeyRecord[];
  }

  register(k: KeyRecord): void {
    this.q.register.run(k.fingerprint, k.public_key, k.valid_from, k.valid_until);
  }

  retire(fingerprint: string, at: string): void {
    this.q.retire.run(at, fingerprint);
  }
}
