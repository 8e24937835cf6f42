import { assertOwnerOrGm, EVERYONE } from '../../src/core/access.js';
import { defineSubcommand, type Context, type UserFacts } from '../../src/core/command.js';
import { clockOrNone, hhmm, knownZone, MIN_REMIND_S, MIN_REPEAT_S, parseDuration, parseQuiet, replan } from '../../src/core/clock.js';
import { readScope, runningGame } from '../../src/core/games.js';
import { parsedText } from '../../src/core/options.js';
import { message } from '../../src/core/replies.js';
import { waitedText } from '../../src/core/requests.js';
import { unitOfWork } from '../../src/core/unit-of-work.js';
import { refuse } from '../../src/core/user-error.js';
import type { ClockPatch, GameClock } from '../../src/ledger/requests.js';
import type { Game } from '../../src/ledger/roster.js';
import type { LedgerTx } from '../../src/ledger/transaction.js';
import { limitEmbed, quoted, TONE_COLOUR, userText } from '../../src/render/embed.js';
import { say } from '../../src/i18n/reader.js';
import { command, option, said, type Said } from '../../src/i18n/said.js';
import { notManager } from '../roster/seeds.js';

/** `off` turns a setting off; the parsed value, or why the text is not one. */
const OFF = 'off';

const EPOCH = new Date(0).toISOString();
const minText = (s: number) => waitedText(EPOCH, new Date(s * 1000).toISOString());

/** A duration option (`12h`) of at least `min` seconds; `off`: 0. */
const duration = (description: string, min: number) =>
  parsedText<number>({
    description,
    maxLength: 20,
    allowed: said('clockDuration', { min: `${min / 60}m` }),
    parse: (raw) => {
      if (raw.trim().toLowerCase() === OFF) return 0;
      const s = parseDuration(raw);
      return s !== undefined && s >= min ? s : said('clockDuration', { min: `${min / 60}m` });
    },
  });

const quiet = parsedText<{ from: number; to: number } | null>({
  description: 'Quiet hours, no reminders: 22-07 (off: none)',
  maxLength: 20,
  allowed: said('clockQuiet'),
  parse: (raw) => (raw.trim().toLowerCase() === OFF ? null : (parseQuiet(raw) ?? said('clockQuiet'))),
});

const zone = parsedText<string>({
  description: 'The time zone of the quiet hours, e.g. Europe/Berlin (default UTC)',
  maxLength: 60,
  allowed: said('clockZone'),
  parse: (raw): string | Said => (knownZone(raw.trim()) ? raw.trim() : said('clockZone')),
});

/** The clock in a few lines: its reminders, its quiet hours, whose move it is. */
function clockEmbed(g: Game, c: GameClock) {
  const lines = [
    c.remind_after_s
      ? c.repeat_every_s
        ? say('clock.remind', { after: minText(c.remind_after_s), every: minText(c.repeat_every_s) })
        : say('clock.remindOnce', { after: minText(c.remind_after_s) })
      : say('clock.noRemind', { option: option('remind_after') }),
    ...(c.quiet_from !== null && c.quiet_to !== null ? [say('clock.quiet', { from: hhmm(c.quiet_from), to: hhmm(c.quiet_to), zone: c.time_zone })] : []),
    ...(c.turn_player_id && c.turn_since
      ? [say('clock.turn', { player: c.turn_player_id, since: `<t:${Math.floor(Date.parse(c.turn_since) / 1000)}:R>` })]
      : []),
  ];
  return limitEmbed({ title: say('clock.title', { game: userText(g.name) }), color: TONE_COLOUR.neutral, description: lines.join('\n') });
}

type ClockOptions = {
  remind_after?: number | undefined;
  repeat_every?: number | undefined;
  quiet?: { from: number; to: number } | null | undefined;
  time_zone?: string | undefined;
};

/** The server's language as this interaction gives it: the clock's reminders and card are said in it. */
const localeOf = (ctx: Context) => ({ locale: ctx.guildLocale ?? ctx.locale ?? null });

/** What the options change of the clock (0 and `off` clear a setting). */
function patchOf(ctx: Context, g: Game, o: ClockOptions): ClockPatch {
  return {
    game_id: g.id,
    guild_id: g.guild_id,
    channel_id: g.channel_id,
    ...localeOf(ctx),
    ...(o.remind_after !== undefined ? { remind_after_s: o.remind_after || null } : {}),
    ...(o.repeat_every !== undefined ? { repeat_every_s: o.repeat_every || null } : {}),
    ...(o.quiet !== undefined ? { quiet_from: o.quiet?.from ?? null, quiet_to: o.quiet?.to ?? null } : {}),
    ...(o.time_zone !== undefined ? { time_zone: o.time_zone } : {}),
  };
}

/** /game clock: shows the game's clock, or (its starter or a GM) sets it; every reminder is planned again. */
export const clock = defineSubcommand({
  description: "The game's clock: reminders after a wait, at most so often, never in quiet hours",
  access: EVERYONE,
  options: {
    remind_after: duration('Remind whose move it is (or who is asked) after this long: 30m, 12h, 2d; off: never', MIN_REMIND_S),
    repeat_every: duration('Remind again this often (at least 1h; off: once)', MIN_REPEAT_S),
    quiet,
    time_zone: zone,
  },
  async run(ctx, o) {
    const setting = Object.values(o).some((v) => v !== undefined);
    if (!setting) {
      const g = (await readScope(ctx)).channelGame ?? refuse('clockNoGame', { start: command('game start') });
      return message(clockEmbed(g, clockOrNone(g, await ctx.services.ledger.requests.clock(g.id))));
    }
    const { g, c } = await unitOfWork(ctx, null, async (at) => {
      const g = runningGame(at);
      assertOwnerOrGm(ctx, g.started_by, notManager(g));
      await at.tx.requests.patchClock(patchOf(ctx, g, o));
      return { g, c: await replan(at.tx, g) };
    });
    return message(clockEmbed(g, c));
  },
});

/** The player named whose move it is: a member of the server, not a bot. */
function movingPlayer(ctx: Context, id: string): UserFacts {
  const facts = ctx.user?.(id);
  if (!facts?.member) refuse('askUnknownPlayer', { player: option('player'), given: quoted(id) });
  if (facts.bot) refuse('askBotPlayer', { player: option('player'), given: `<@${id}>` });
  return facts;
}

/**
 * /game turn, in its transaction: names whose move it is now (when given), plans their reminder,
 * and marks the game's card to redraw. Returns the reply's line, if any.
 */
export async function onTurn(tx: LedgerTx, ctx: Context, g: Game, playerId: string | undefined): Promise<string | undefined> {
  if (playerId) {
    const facts = movingPlayer(ctx, playerId);
    const patch = { turn_player_id: playerId, turn_player_name: facts.name, turn_since: tx.timestamp(), ...localeOf(ctx) };
    await tx.requests.patchClock({ game_id: g.id, guild_id: g.guild_id, channel_id: g.channel_id, ...patch });
  }
  const c = await replan(tx, g);
  return playerId && c.turn_player_id ? say('clock.turnSet', { player: c.turn_player_id }) : undefined;
}
