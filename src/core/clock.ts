import type { GameClock, RollRequest } from '../ledger/requests.js';
import type { Game } from '../ledger/roster.js';
import type { LedgerTx } from '../ledger/transaction.js';

/**
 * A game's clock: whose move it is, a reminder to that player (and to anyone asked for a roll)
 * after the time the game sets, again at most as often as it sets, never in its quiet hours; and
 * its status card, redrawn when something changes. What is due lives in the ledger's database
 * (schedules), so it survives a restart and one process of several fires it (schedule.ts).
 */

export const turnScheduleId = (gameId: string) => `turn:${gameId}`;
export const askScheduleId = (requestId: string) => `ask:${requestId}`;
export const cardScheduleId = (gameId: string) => `card:${gameId}`;
export const settleScheduleId = (requestId: string) => `settle:${requestId}`;
/** How long after a request is settled its message is edited to say so. */
export const SETTLE_AFTER_MS = 10_000;

/** The shortest wait before a reminder, and the shortest time between two: a reminder is not a spam. */
export const MIN_REMIND_S = 10 * 60;
export const MIN_REPEAT_S = 60 * 60;
const DAY_MIN = 24 * 60;

const UNIT_S: Record<string, number> = { m: 60, min: 60, h: 3600, d: 86_400 };

/** `30m`, `12h`, `2d`, `1d12h` as seconds; undefined when it is none of these. */
export function parseDuration(text: string): number | undefined {
  const t = text.trim().toLowerCase().replace(/\s+/g, '');
  if (!/^(\d+(m|min|h|d))+$/.test(t)) return undefined;
  let s = 0;
  for (const [, n, unit] of t.matchAll(/(\d+)(min|m|h|d)/g)) s += Number(n) * UNIT_S[unit!]!;
  return s;
}

/** `22-07` or `22:30-07:00` as minutes after midnight; undefined when unreadable. */
export function parseQuiet(text: string): { from: number; to: number } | undefined {
  const m = /^\s*(\d{1,2})(?::(\d{2}))?\s*-\s*(\d{1,2})(?::(\d{2}))?\s*$/.exec(text);
  if (!m) return undefined;
  const [from, to] = [Number(m[1]) * 60 + Number(m[2] ?? 0), Number(m[3]) * 60 + Number(m[4] ?? 0)];
  if (from >= DAY_MIN || to >= DAY_MIN || Number(m[2] ?? 0) > 59 || Number(m[4] ?? 0) > 59 || from === to) return undefined;
  return { from, to };
}

/** Whether Intl knows the time zone (UTC, Europe/Berlin …). */
export function knownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const clockFormats = new Map<string, Intl.DateTimeFormat>();

/** Minutes after midnight at `at` in `zone`. */
export function localMinutes(at: Date, zone: string): number {
  let f = clockFormats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    clockFormats.set(zone, f);
  }
  const parts = f.formatToParts(at);
  const part = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return part('hour') * 60 + part('minute');
}

/** A time of day as a clock shows it (22:30). */
export const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

const MINUTE = 60_000;

type Quiet = Pick<GameClock, 'quiet_from' | 'quiet_to' | 'time_zone'>;

/** Whether `at` falls in the clock's quiet hours, read on the zone's own clock. */
function isQuiet(at: Date, c: Quiet): boolean {
  if (c.quiet_from === null || c.quiet_to === null) return false;
  const now = localMinutes(at, c.time_zone);
  const { quiet_from: from, quiet_to: to } = c;
  return from < to ? now >= from && now < to : now >= from || now < to;
}

/** A zone's clock moves by at most a few hours at once: the true end is searched this near the first guess. */
const SHIFT_MAX_MIN = 180;

/**
 * When the quiet hours that hold `at` end (undefined: `at` is not in them). A window may span
 * midnight, and a night may hold a change of the zone's clock (summer time): the end is when the
 * zone's own clock first reads a time outside the window, not a count of minutes from now.
 */
export function quietEnd(at: Date, c: Quiet): Date | undefined {
  if (c.quiet_from === null || c.quiet_to === null || !isQuiet(at, c)) return undefined;
  const wait = (c.quiet_to - localMinutes(at, c.time_zone) + DAY_MIN) % DAY_MIN;
  const guess = new Date(at.getTime() + wait * MINUTE);
  guess.setUTCSeconds(0, 0);
  // If the zone's clock moved meanwhile, the guess is off by as much: the end is the first minute not
  // quiet, found beside it (where the window's end does not exist that night, it is the jump past it).
  let end = guess.getTime();
  for (let i = 0; i < SHIFT_MAX_MIN && end - MINUTE > at.getTime() && !isQuiet(new Date(end - MINUTE), c); i++) end -= MINUTE;
  for (let i = 0; i < SHIFT_MAX_MIN && isQuiet(new Date(end), c); i++) end += MINUTE;
  return new Date(end);
}

const plus = (iso: string, seconds: number) => new Date(Date.parse(iso) + seconds * 1000).toISOString();

/** A game's clock as read, or the one it has before anything is set. */
export const clockOrNone = (g: Pick<Game, 'id' | 'guild_id' | 'channel_id'>, c: GameClock | undefined): GameClock =>
  c ?? {
    game_id: g.id,
    guild_id: g.guild_id,
    channel_id: g.channel_id,
    turn_player_id: null,
    turn_player_name: null,
    turn_since: null,
    remind_after_s: null,
    repeat_every_s: null,
    quiet_from: null,
    quiet_to: null,
    time_zone: 'UTC',
    card_message_id: null,
    locale: null,
  };

/** The reminder of whose move it is: due `remind_after` after the turn began, or none. */
export async function planTurn(tx: LedgerTx, c: GameClock): Promise<void> {
  const id = turnScheduleId(c.game_id);
  if (!c.turn_player_id || !c.turn_since || !c.remind_after_s) return tx.requests.dropSchedule(id);
  const due = plus(c.turn_since, c.remind_after_s);
  await tx.requests.setSchedule({
    id,
    kind: 'turn',
    guild_id: c.guild_id,
    channel_id: c.channel_id,
    game_id: c.game_id,
    user_id: c.turn_player_id,
    since: c.turn_since,
    due_at: due,
  });
}

/** The reminder to an asked player: due `remind_after` after the request, or none. */
export async function planAsk(tx: LedgerTx, c: GameClock | undefined, r: RollRequest): Promise<void> {
  const id = askScheduleId(r.id);
  if (!c?.remind_after_s || r.state !== 'open') return tx.requests.dropSchedule(id);
  const s = { id, kind: 'ask' as const, guild_id: r.guild_id, channel_id: r.channel_id, game_id: r.game_id, user_id: r.player_id, since: r.created_at };
  await tx.requests.setSchedule({ ...s, due_at: plus(r.created_at, c.remind_after_s) });
}

/**
 * A request settled (answered or withdrawn): its message is to show it at once, its button gone.
 * A schedule, not a call: it survives a restart, and a failed edit is tried again like a reminder.
 */
export async function planSettle(tx: LedgerTx, r: Pick<RollRequest, 'id' | 'guild_id' | 'channel_id' | 'game_id' | 'player_id'>): Promise<void> {
  await tx.requests.dropSchedule(askScheduleId(r.id));
  const at = tx.timestamp();
  // A few seconds on: the answer's reply is out by then, and its message remembered to link to.
  const due = new Date(Date.parse(at) + SETTLE_AFTER_MS).toISOString();
  const s = { id: settleScheduleId(r.id), kind: 'settle' as const, guild_id: r.guild_id, channel_id: r.channel_id, game_id: r.game_id };
  await tx.requests.setSchedule({ ...s, user_id: r.player_id, since: at, due_at: due });
}

/** Every reminder of a game planned again from its clock (the clock changed), and its card redrawn. */
export async function replan(tx: LedgerTx, g: Game): Promise<GameClock> {
  const c = clockOrNone(g, await tx.requests.clock(g.id));
  await planTurn(tx, c);
  for (const r of await tx.requests.openRequests(g.id, 100)) await planAsk(tx, c, r);
  await cardTouch(tx, g);
  return c;
}

/** A game with a clock has a status card: due to be drawn again now (unless due sooner). */
export async function cardTouch(tx: LedgerTx, g: Pick<Game, 'id' | 'guild_id' | 'channel_id'> | undefined): Promise<void> {
  if (!g || !(await tx.requests.clock(g.id))) return;
  const at = tx.timestamp();
  await tx.requests.touchCard({
    id: cardScheduleId(g.id),
    kind: 'card',
    guild_id: g.guild_id,
    channel_id: g.channel_id,
    game_id: g.id,
    user_id: null,
    since: at,
    due_at: at,
  });
}

/** When a reminder fired now fires again: `repeat_every` on, or never. */
export const nextReminder = (now: Date, c: Pick<GameClock, 'repeat_every_s'>): string | null =>
  c.repeat_every_s ? new Date(now.getTime() + c.repeat_every_s * 1000).toISOString() : null;
