import type { HistoryFilter } from '../ledger/history.js';
import { SYSTEMS } from '../rules/systems.js';
import { DR_CATEGORIES } from '../rules/dice/categories.js';
import { choice, text, user } from './options.js';
import type { Context } from './command.js';
import { refuse } from './user-error.js';
import { quoted, userText } from '../render/embed.js';
import { list, option, said } from '../i18n/said.js';

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** "2h", "3d", "2026-11-01" or an ISO time → ISO timestamp; anything else is refused, naming the option. */
export function parseWhen(name: string, raw: string, now: Date, endOfDay = false): string {
  const rel = /^(\d{1,6})\s*([mhdw])$/i.exec(raw.trim());
  if (rel) return new Date(now.getTime() - Number(rel[1]) * UNITS[rel[2]!.toLowerCase()]!).toISOString();
  if (/^\d{4}-\d{2}-\d{2}$/.test(raw.trim())) {
    const d = new Date(`${raw.trim()}T${endOfDay ? '23:59:59.999' : '00:00:00.000'}Z`);
    if (!Number.isNaN(d.getTime())) return d.toISOString();
  }
  const t = Date.parse(raw);
  if (/^\d{4}-\d{2}-\d{2}T/.test(raw.trim()) && !Number.isNaN(t)) return new Date(t).toISOString();
  return refuse('badWhen', { name: option(name), given: quoted(raw) });
}

/** The filter options /history, /export and /stats share. */
export const filterOptions = {
  user: user({ description: 'Only this player' }),
  system: choice({ description: 'Only this rule system', choices: SYSTEMS }),
  command: text({ description: 'Only this command, e.g. rally', maxLength: 32 }),
  result: text({ description: 'Only this result code, e.g. retreat', maxLength: 40 }),
  game: text({ description: 'Only this game: pick it, or type its id or its name', maxLength: 80, autocomplete: true }),
  category: choice({ description: 'Only /dr rolls of this category: IFT, TH, TK, MC, TC, Rally, CC, SA, RS, other', choices: DR_CATEGORIES }),
  since: text({ description: 'From: 2026-11-01, or back from now: 2h, 3d', maxLength: 40 }),
  until: text({ description: 'Until: 2026-11-29, or back from now: 1h', maxLength: 40 }),
};

export type FilterValues = {
  user?: string;
  system?: string;
  command?: string;
  result?: string;
  game?: string;
  category?: string;
  since?: string;
  until?: string;
};

/** Games a name is looked for among: a server's newest (autocomplete offers the same). */
const NAMED_GAMES_LOOK_BACK = 1_000;

/**
 * The game a `game:` option names, by its id or, typed, by its name (any case): never an empty
 * answer for a typo. A name two games share is refused, listing them with their ids.
 */
export async function gameIdOf(ctx: Context, typed: string): Promise<string> {
  const { roster } = ctx.services.ledger;
  const t = typed.trim();
  if (await roster.game(ctx.actor.guildId, t)) return t;
  const games = await roster.recentGames(ctx.actor.guildId, undefined, NAMED_GAMES_LOOK_BACK);
  const named = games.filter((g) => g.name.toLowerCase() === t.toLowerCase());
  if (named.length === 1) return named[0]!.id;
  if (named.length > 1)
    refuse('gamesNamed', {
      n: named.length,
      name: quoted(t),
      games: list(
        named.map((g) => said('gameNamedItem', { name: userText(g.name), id: g.id, date: g.started_at.slice(0, 10) })),
        'comma',
      ),
      game: option('game'),
    });
  return refuse('noGameNamed', { name: quoted(t), game: option('game') });
}

/** The ledger filter the options ask for, confined to this server (and this channel unless `server`). */
export async function toFilter(ctx: Context, o: FilterValues, server: boolean): Promise<HistoryFilter> {
  const now = new Date(ctx.services.ledger.timestamp());
  const since = o.since === undefined ? undefined : parseWhen('since', o.since, now);
  const until = o.until === undefined ? undefined : parseWhen('until', o.until, now, true);
  return {
    guildId: ctx.actor.guildId,
    channelId: server ? undefined : ctx.actor.channelId,
    userId: o.user,
    system: o.system,
    command: o.command?.replace(/^\//, ''),
    result: o.result,
    gameId: o.game === undefined ? undefined : await gameIdOf(ctx, o.game),
    category: o.category,
    since,
    until,
  };
}
