import type { Choices, Context } from './command.js';
import { clip, plainOutcomeName } from '../render/embed.js';
import { commandShown, say } from '../i18n/reader.js';

/** Discord's most choices, and the longest name a choice may have. */
const MAX = 25;
const NAME_MAX = 100;
/** Rows read to find ids that start with what was typed (the newest first). */
const LOOK_BACK = 200;

const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;

/**
 * Roll ids for /void, /annotate, /reveal, /roll show and /roll receipt: the caller's own recent
 * rolls in this channel (a GM: everyone's, server-wide), newest first, each with a short label. A
 * sealed roll's label says "sealed", never its result.
 */
export async function rollIdChoices(ctx: Context, typed: string): Promise<Choices> {
  const { actor } = ctx;
  const prefix = typed.trim().toLowerCase();
  const filter = { guildId: actor.guildId, channelId: actor.isGm ? undefined : actor.channelId, userId: actor.isGm ? undefined : actor.userId };
  // No count wanted: the page's count is capped at nothing.
  const { rows } = await ctx.services.ledger.history.page(filter, LOOK_BACK, 0, 0);
  return rows
    .filter((r) => r.id.startsWith(prefix))
    .slice(0, MAX)
    .map((r) => ({
      name: clip(
        `${r.id} · ${commandShown(r.command)}${r.unit ? ` ${r.unit}` : ''} · ${r.result ? plainOutcomeName(r.outcome, r.result) : say('review.sealed')} · ${actor.isGm ? `${r.user_name} · ` : ''}${when(r.created_at)}`,
        NAME_MAX,
      ),
      value: r.id,
    }));
}

/** Game ids for a `game` filter: this channel's games (a GM: the server's), newest first, by name or id. */
export async function gameChoices(ctx: Context, typed: string): Promise<Choices> {
  const { actor } = ctx;
  const t = typed.trim().toLowerCase();
  const games = await ctx.services.ledger.roster.recentGames(actor.guildId, actor.isGm ? undefined : actor.channelId, LOOK_BACK);
  return games
    .filter((g) => g.id.startsWith(t) || g.name.toLowerCase().includes(t))
    .slice(0, MAX)
    .map((g) => ({ name: clip(`${g.name} · ${g.system} · ${when(g.started_at)}${g.ended_at ? ' · ended' : ''}`, NAME_MAX), value: g.id }));
}
