import type { Db } from './database.js';

export type SavedQuery = { id: string; guild_id: string; channel_id: string; user_id: string; params: Record<string, unknown>; created_at: string };

/** Queries a paging button refers to by id, so the button never carries the filters themselves. */
export class SavedQueries {
  private readonly q;
  constructor(db: Db) {
    this.q = {
      insert: db.prepare('INSERT INTO saved_queries (id, guild_id, channel_id, user_id, params, created_at) VALUES (?, ?, ?, ?, ?, ?)'),
      get: db.prepare('SELECT * FROM saved_queries WHERE guild_id = ? AND id = ?'),
    };
  }

  save(q: Omit<SavedQuery, 'params'> & { params: Record<string, unknown> }): void {
    this.q.insert.run(q.id, q.guild_id, q.channel_id, q.user_id, JSON.stringify(q.params), q.created_at);
  }

  get(guildId: string, id: string): SavedQuery | undefined {
    const r = this.q.get.get(guildId, id) as (Omit<SavedQuery, 'params'> & { params: string }) | undefined;
    return r && { ...r, params: JSON.parse(r.params) };
  }
}
