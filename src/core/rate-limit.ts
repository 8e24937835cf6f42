/**
 * A token bucket per player (server and user): each command spends tokens (a heavy one more), the
 * bucket refills steadily, and a player who runs dry is told how long to wait. Buckets that are
 * full again are forgotten, and the map is capped, so memory stays bounded whatever the traffic.
 */
export type RateLimit = { burst: number; perMinute: number };

export const DEFAULT_RATE_LIMIT: RateLimit = { burst: 10, perMinute: 30 };
/** Players tracked at once; past it the longest-idle buckets are dropped (they would be nearly full). */
export const MAX_TRACKED_PLAYERS = 50_000;

type Bucket = { tokens: number; at: number };

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;

  constructor(
    readonly limit: RateLimit = DEFAULT_RATE_LIMIT,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = limit.perMinute / 60_000;
  }

  /** Spends `cost` tokens for `key`, or says in how many whole seconds enough will have come back. */
  take(key: string, cost: number): { ok: true } | { ok: false; retryAfterS: number } {
    if (cost <= 0) return { ok: true };
    const t = this.now();
    const b = this.buckets.get(key);
    const tokens = b ? Math.min(this.limit.burst, b.tokens + (t - b.at) * this.perMs) : this.limit.burst;
    const need = Math.min(cost, this.limit.burst);
    if (tokens < need) return { ok: false, retryAfterS: Math.max(1, Math.ceil((need - tokens) / this.perMs / 1000)) };
    // Re-inserted so that the map's order is least recently used first.
    this.buckets.delete(key);
    this.buckets.set(key, { tokens: tokens - need, at: t });
    if (this.buckets.size > MAX_TRACKED_PLAYERS) this.buckets.delete(this.buckets.keys().next().value!);
    return { ok: true };
  }

  get tracked(): number {
    return this.buckets.size;
  }
}
