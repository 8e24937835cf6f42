/**
 * Gives the event loop back (setImmediate): long work in chunks calls it between chunks so that
 * other servers' interactions, timers and the responder's defer run meanwhile.
 */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** How long one chunk of work may hold the event loop, and the bounds on its size in rows. */
export type ChunkBudget = { ms?: number; min?: number; max?: number };

/**
 * One chunk of a long walk holds the loop about this long: several walks at once still leave it
 * free within milliseconds, and a chunk's garbage dies young (longer chunks let an /export's rows
 * survive into the old generation: 1.7× the idle RSS at 8 ms, 1.3× at 3 ms, at the same speed).
 */
export const CHUNK_MS = 3;

/**
 * Sizes the chunks of a long walk to a time budget rather than a row count: rows cost very different
 * amounts (a verify hashes, an export formats, a statistic parses), and a machine may be slow or
 * busy. Starts small, then follows the measured cost of the last chunk.
 */
export class ChunkSizer {
  private readonly ms: number;
  private readonly min: number;
  private readonly max: number;
  size: number;

  constructor({ ms = CHUNK_MS, min = 16, max = 5_000 }: ChunkBudget = {}) {
    this.ms = ms;
    this.min = min;
    this.max = max;
    this.size = Math.min(max, min * 4);
  }

  /** The last chunk of `size` rows took `elapsedMs`. */
  took(elapsedMs: number): void {
    const perRow = Math.max(elapsedMs, 0.01) / this.size;
    // Grow at most fourfold a step, so one cheap chunk does not make the next one huge.
    this.size = Math.round(Math.min(this.max, this.size * 4, Math.max(this.min, this.ms / perRow)));
  }
}
