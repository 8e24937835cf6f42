import type { Found } from './checks.js';

/**
 * Person values count as erased only where an erasure says so: a salt gone from a row's
 * commitments must be named (`salts_erased`) by an erasure row of the same server's chain. A salt
 * withheld without one is a host keeping a row's values from its readers (or from the checks that
 * need them): reported, and the chain's values not taken as verified.
 */
export function unlistedSalts(guildId: string, gone: readonly string[], erasures: readonly { guild_id: string; input: unknown }[]): Found {
  const listed = erasedByRows(guildId, erasures);
  const unlisted = gone.filter((id) => !listed.has(id));
  if (!unlisted.length) return { ok: true, lines: [] };
  return {
    ok: false,
    lines: [
      `guild ${guildId}: FAILED: rows commit to person values whose salt${unlisted.length === 1 ? ' is' : 's are'} gone (${unlisted.join(', ')}), but no erasure row of its chain names ${unlisted.length === 1 ? 'it' : 'them'}: withheld, not erased`,
    ],
  };
}

/** The salts the server's erasure rows name (`salts_erased`). */
export function erasedByRows(guildId: string, erasures: readonly { guild_id: string; input: unknown }[]): Set<string> {
  const listed = new Set<string>();
  for (const e of erasures) {
    const ids = (e.input as { salts_erased?: unknown } | null)?.salts_erased;
    if (e.guild_id === guildId && Array.isArray(ids)) for (const id of ids) if (typeof id === 'string') listed.add(id);
  }
  return listed;
}

/** An erasure undone in part: a salt an erasure row names is still held (by the bot, or by an export's rows). */
export function stillHeld(guildId: string, held: Iterable<string>, erasures: readonly { guild_id: string; input: unknown }[]): Found {
  const listed = erasedByRows(guildId, erasures);
  const back = [...held].filter((id) => listed.has(id));
  if (!back.length) return { ok: true, lines: [] };
  return {
    ok: false,
    lines: [
      `guild ${guildId}: FAILED: an erasure row names salt${back.length === 1 ? '' : 's'} ${back.join(', ')} as erased, but ${back.length === 1 ? 'it is' : 'they are'} still held: the erasure was undone in part`,
    ],
  };
}
