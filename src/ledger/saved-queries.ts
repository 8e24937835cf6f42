import type { Db } from './database.js';

/** A saved /history query (and its paging buttons) lasts a day. */
export const SAVED_QUERY_TTL_MS = 24 * 60 * 60 * 1000;
/** Queries created before this (an ISO time) have expired as of `nowIso`. */
export const savedQueryCutoff = (nowIso: string) => new Date(Date.parse(nowIso) - SAVED_QUERY_TTL_MS).toISOString();

/** A stored query as of `now`: 'expired' past its day, else with its filters read back. */
export function savedQueryAsOf(r: (Omit<SavedQuery, 'params'> & { params: string }) | undefined, now: string): SavedQuery | 'expired' | undefined {
  if (!r) return undefined;
  return r.created_at < savedQueryCutoff(now) ? 'expired' : { ...r, params: JSON.parse(r.params) };
}

export type SavedQuery = { id: string; guild_id: string; channel_id: string; user_id: string; params: Record<string, unknown>; created_at: string };

/** Queries a paging button refers to by id, so the button never carries the filters themselves. */
export class SavedQueries {
  private readonly q;
  constructor(db: Db) {
    this.q = {
      insert: db.prepare('INSERT INTO saved_queries (id, guild_id, channel_id, user_id, params, created_at) VALUES (?, ?, ?, ?, ?, ?)'),
      get: db.prepare('SELECT * FROM saved_queries WHERE guild_id = ? AND id = ?'),
      prune: db.prepare('DELETE FROM saved_queries WHERE created_at < ?'),
    };
  }

  /** Saves a query, and forgets those older than SAVED_QUERY_TTL_MS (they are never paged again). */
  save(q: Omit<SavedQuery, 'params'> & { params: Record<string, unknown> }): void {
    this.q.prune.run(savedQueryCutoff(q.created_at));
    this.q.insert.run(q.id, q.guild_id, q.channel_id, q.user_id, JSON.stringify(q.params), q.created_at);
  }

  /** A saved query of this guild; 'expired' once older than SAVED_QUERY_TTL_MS (as of `now`, an ISO time). */
  get(guildId: string, id: string, now: string): SavedQuery | 'expired' | undefined {
    return savedQueryAsOf(this.q.get.get(guildId, id) as (Omit<SavedQuery, 'params'> & { params: string }) | undefined, now);
  }
}
