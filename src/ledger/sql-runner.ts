import type { Db } from './database.js';

/** How a backend runs the personal-data SQL (`?` placeholders; PostgreSQL's runner numbers them), written once for both. */
export type Sql = {
  dialect: 'sqlite' | 'postgres';
  rows<T>(sql: string, params: unknown[]): Promise<T[]>;
  /** The number of rows the statement changed. */
  run(sql: string, params: unknown[]): Promise<number>;
};

export function sqliteSql(db: Db): Sql {
  // Prepared once per text: a person's servers are found with a seek per server, thousands on a big ledger.
  const prepared = new Map<string, ReturnType<Db['prepare']>>();
  const stmt = (sql: string) => prepared.get(sql) ?? prepared.set(sql, db.prepare(sql)).get(sql)!;
  return {
    dialect: 'sqlite',
    rows: async <T>(sql: string, params: unknown[]) => stmt(sql).all(...params) as T[],
    run: async (sql, params) => stmt(sql).run(...params).changes,
  };
}
