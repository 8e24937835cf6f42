import type Database from 'better-sqlite3';
import type { Db } from './database.js';

/**
 * Requested rolls (/ask), games' clocks and what is due when, beside the chain. The SQL is written
 * once with `?` placeholders for both backends (PostgreSQL numbers them, postgres/pg-requests.ts).
 */

export type RequestState = 'open' | 'answered' | 'cancelled';

/** A roll one player asked another for: its chained row's id, who asked whom, and the roll as typed. */
export type RollRequest = {
  id: string;
  guild_id: string;
  channel_id: string;
  game_id: string;
  asker_id: string;
  asker_name: string;
  player_id: string;
  player_name: string;
  command: string;
  roll: string;
  created_at: string;
  state: RequestState;
  settled_at: string | null;
  settled_by: string | null;
  answer_id: string | null;
  /** The server's language where it was asked: its reminders are said in it (null: English). */
  locale: string | null;
};

export type NewRequest = Omit<RollRequest, 'state' | 'settled_at' | 'settled_by' | 'answer_id'>;

/** A game's clock: whose move, how long before a reminder and how often again, and when to keep quiet. */
export type GameClock = {
  game_id: string;
  guild_id: string;
  channel_id: string;
  turn_player_id: string | null;
  turn_player_name: string | null;
  turn_since: string | null;
  remind_after_s: number | null;
  repeat_every_s: number | null;
  /** Minutes after midnight in `time_zone`; both null: never quiet. */
  quiet_from: number | null;
  quiet_to: number | null;
  time_zone: string;
  card_message_id: string | null;
  /** The server's language where the clock was last set: its reminders and card are said in it (null: English). */
  locale: string | null;
};

/** What a change to a clock names; what it leaves out stays as stored. */
export type ClockPatch = Pick<GameClock, 'game_id' | 'guild_id' | 'channel_id'> & Partial<Omit<GameClock, 'game_id' | 'guild_id' | 'channel_id'>>;

/**
 * turn: remind whose move it is; ask: remind an asked player; card: redraw a game's status card;
 * settle: show on a request's message that it was answered or withdrawn (and take its button off).
 */
export type ScheduleKind = 'turn' | 'ask' | 'card' | 'settle';

/** Something due at a time: fired by one process, once per due time, by moving `due_at` on. */
export type Schedule = {
  id: string;
  kind: ScheduleKind;
  guild_id: string;
  channel_id: string;
  game_id: string;
  user_id: string | null;
  /** When the wait it reminds of began (the turn's start, the request's). */
  since: string;
  /** Null: nothing due. */
  due_at: string | null;
  fired: number;
  last_fired_at: string | null;
  /** Failed tries of the firing under way (0 once one is delivered). */
  attempts: number;
};

export type NewSchedule = Omit<Schedule, 'fired' | 'last_fired_at' | 'attempts'>;

export interface RequestReads {
  request(guildId: string, id: string): RollRequest | undefined;
  /** A game's open requests, oldest first. */
  openRequests(gameId: string, limit: number): RollRequest[];
  clock(gameId: string): GameClock | undefined;
}

export interface RequestWrites {
  addRequest(r: NewRequest): void;
  /** True when this answers the request: it was open and `playerId`'s to answer. False: settled already, or not theirs. */
  answerRequest(id: string, playerId: string, answerId: string, at: string): boolean;
  /** True when this cancels an open request; false when it was settled already. */
  cancelRequest(id: string, by: string, at: string): boolean;
  /** Creates the game's clock or changes the fields the patch names. */
  patchClock(c: ClockPatch): void;
}

export interface ScheduleReads {
  /** What is due at `at` or before, earliest first. */
  dueSchedules(at: string, limit: number): Schedule[];
  schedule(id: string): Schedule | undefined;
  /** A game's schedules (to plan them again when its clock changes). */
  schedulesOf(gameId: string): Schedule[];
}

export interface ScheduleWrites {
  /** Sets (or replaces) a schedule: its wait begins again, nothing fired yet. */
  setSchedule(s: NewSchedule): void;
  /** Moves a schedule's due time (a clock changed); its firings stay counted. */
  retime(id: string, dueAt: string | null): void;
  /** A card due now, unless already due sooner. */
  touchCard(s: NewSchedule): void;
  /**
   * Moves a schedule on from the due time this process read to `next` (null: nothing more due),
   * counting a firing when `firedAt` is given. True for the one process whose update found it as
   * read: it alone fires it. False: another process claimed it first, or it changed meanwhile.
   */
  claimSchedule(id: string, seenDue: string, next: string | null, firedAt: string | null): boolean;
  /**
   * After a firing Discord did not take: due again at `retryAt` (one more try counted), if the
   * schedule is still as the claim left it (due at `claimedNext`) and has been retried fewer than `maxRetries` times.
   * False: the tries are spent, or it changed meanwhile (a turn passed, a request was answered).
   */
  retrySchedule(id: string, claimedNext: string | null, retryAt: string, maxRetries: number): boolean;
  /** The firing under way was delivered: its tries start again from none. */
  delivered(id: string): void;
  dropSchedule(id: string): void;
  /** The card of the game in this channel, if it has one, due at `at` unless due sooner (a result was shown there). */
  touchChannelCard(guildId: string, channelId: string, at: string): void;
}

export const REQUEST_SQL = {
  get: 'SELECT * FROM roll_requests WHERE guild_id = ? AND id = ?',
  open: "SELECT * FROM roll_requests WHERE game_id = ? AND state = 'open' ORDER BY created_at, id LIMIT ?",
  add: `INSERT INTO roll_requests (id, guild_id, channel_id, game_id, asker_id, asker_name, player_id, player_name, command, roll, created_at, locale)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  answer: `UPDATE roll_requests SET state = 'answered', settled_at = ?, settled_by = ?, answer_id = ?
           WHERE id = ? AND state = 'open' AND player_id = ? RETURNING id`,
  cancel: "UPDATE roll_requests SET state = 'cancelled', settled_at = ?, settled_by = ? WHERE id = ? AND state = 'open' RETURNING id",
  clock: 'SELECT * FROM game_clocks WHERE game_id = ?',
  addClock: 'INSERT INTO game_clocks (game_id, guild_id, channel_id) VALUES (?, ?, ?) ON CONFLICT (game_id) DO NOTHING',
} as const;

/** The clock's columns a patch may set (never a name from the caller: the SQL is built from this list). */
export const CLOCK_FIELDS = [
  'turn_player_id',
  'turn_player_name',
  'turn_since',
  'remind_after_s',
  'repeat_every_s',
  'quiet_from',
  'quiet_to',
  'time_zone',
  'card_message_id',
  'locale',
] as const;

/** The UPDATE of a clock's named fields, and its values (the game's id last). */
export function clockUpdate(c: ClockPatch): { sql: string; params: unknown[] } | undefined {
  const set = CLOCK_FIELDS.filter((f) => c[f] !== undefined);
  if (!set.length) return undefined;
  return { sql: `UPDATE game_clocks SET ${set.map((f) => `${f} = ?`).join(', ')} WHERE game_id = ?`, params: [...set.map((f) => c[f]), c.game_id] };
}

export const SCHEDULE_SQL = {
  due: 'SELECT * FROM schedules WHERE due_at IS NOT NULL AND due_at <= ? ORDER BY due_at, id LIMIT ?',
  get: 'SELECT * FROM schedules WHERE id = ?',
  ofGame: 'SELECT * FROM schedules WHERE game_id = ? ORDER BY id',
  set: `INSERT INTO schedules (id, kind, guild_id, channel_id, game_id, user_id, since, due_at, fired, last_fired_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, NULL)
        ON CONFLICT (id) DO UPDATE SET user_id = excluded.user_id, since = excluded.since, due_at = excluded.due_at, fired = 0,
          last_fired_at = NULL, attempts = 0`,
  retime: 'UPDATE schedules SET due_at = ? WHERE id = ?',
  touch: `INSERT INTO schedules (id, kind, guild_id, channel_id, game_id, user_id, since, due_at, fired, last_fired_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, NULL)
          ON CONFLICT (id) DO UPDATE SET due_at = CASE WHEN schedules.due_at IS NULL OR schedules.due_at > excluded.due_at
            THEN excluded.due_at ELSE schedules.due_at END`,
  // The claim: only the update that finds the due time this process read moves it on.
  claim: `UPDATE schedules SET due_at = ?, fired = fired + ?, last_fired_at = COALESCE(?, last_fired_at)
          WHERE id = ? AND due_at = ? RETURNING id`,
  // IS NOT DISTINCT FROM: the claim may have left it due at no time (null), and = never matches null.
  retry: `UPDATE schedules SET due_at = ?, attempts = attempts + 1
          WHERE id = ? AND due_at IS NOT DISTINCT FROM ? AND attempts < ? RETURNING id`,
  delivered: 'UPDATE schedules SET attempts = 0 WHERE id = ? AND attempts > 0',
  drop: 'DELETE FROM schedules WHERE id = ?',
  touchChannel: "UPDATE schedules SET due_at = ? WHERE kind = 'card' AND guild_id = ? AND channel_id = ? AND (due_at IS NULL OR due_at > ?)",
} as const;

/** A request's values in the order REQUEST_SQL.add takes them. */
export const requestParams = (r: NewRequest) => [
  ...[r.id, r.guild_id, r.channel_id, r.game_id, r.asker_id, r.asker_name, r.player_id, r.player_name],
  ...[r.command, r.roll, r.created_at, r.locale],
];

/** A schedule's values in the order SCHEDULE_SQL.set and .touch take them. */
export const scheduleParams = (s: NewSchedule) => [s.id, s.kind, s.guild_id, s.channel_id, s.game_id, s.user_id, s.since, s.due_at];

/** The claim's values in SCHEDULE_SQL.claim's order. */
export const claimParams = (id: string, seenDue: string, next: string | null, firedAt: string | null) => [next, firedAt ? 1 : 0, firedAt, id, seenDue];

/** SQLite's requests, clocks and schedules (PostgreSQL's twin: postgres/pg-requests.ts). */
export class Requests implements RequestReads, RequestWrites, ScheduleReads, ScheduleWrites {
  private readonly q;
  constructor(private readonly db: Db) {
    type Stmt = Database.Statement<unknown[]>;
    const prepare = <K extends string>(sqls: Record<K, string>) =>
      Object.fromEntries(Object.entries<string>(sqls).map(([k, sql]) => [k, db.prepare<unknown[]>(sql)])) as Record<K, Stmt>;
    this.q = { r: prepare(REQUEST_SQL), s: prepare(SCHEDULE_SQL) };
  }

  request(guildId: string, id: string): RollRequest | undefined {
    return this.q.r.get.get(guildId, id) as RollRequest | undefined;
  }

  openRequests(gameId: string, limit: number): RollRequest[] {
    return this.q.r.open.all(gameId, limit) as RollRequest[];
  }

  clock(gameId: string): GameClock | undefined {
    return this.q.r.clock.get(gameId) as GameClock | undefined;
  }

  addRequest(r: NewRequest): void {
    this.q.r.add.run(...requestParams(r));
  }

  answerRequest(id: string, playerId: string, answerId: string, at: string): boolean {
    return this.q.r.answer.get(at, playerId, answerId, id, playerId) !== undefined;
  }

  cancelRequest(id: string, by: string, at: string): boolean {
    return this.q.r.cancel.get(at, by, id) !== undefined;
  }

  patchClock(c: ClockPatch): void {
    this.q.r.addClock.run(c.game_id, c.guild_id, c.channel_id);
    const update = clockUpdate(c);
    if (update) this.db.prepare(update.sql).run(...update.params);
  }

  dueSchedules(at: string, limit: number): Schedule[] {
    return this.q.s.due.all(at, limit) as Schedule[];
  }

  schedule(id: string): Schedule | undefined {
    return this.q.s.get.get(id) as Schedule | undefined;
  }

  schedulesOf(gameId: string): Schedule[] {
    return this.q.s.ofGame.all(gameId) as Schedule[];
  }

  setSchedule(s: NewSchedule): void {
    this.q.s.set.run(...scheduleParams(s));
  }

  retime(id: string, dueAt: string | null): void {
    this.q.s.retime.run(dueAt, id);
  }

  touchCard(s: NewSchedule): void {
    this.q.s.touch.run(...scheduleParams(s));
  }

  claimSchedule(id: string, seenDue: string, next: string | null, firedAt: string | null): boolean {
    return this.q.s.claim.get(...claimParams(id, seenDue, next, firedAt)) !== undefined;
  }

  retrySchedule(id: string, claimedNext: string | null, retryAt: string, maxRetries: number): boolean {
    return this.q.s.retry.get(retryAt, id, claimedNext, maxRetries) !== undefined;
  }

  delivered(id: string): void {
    this.q.s.delivered.run(id);
  }

  dropSchedule(id: string): void {
    this.q.s.drop.run(id);
  }

  touchChannelCard(guildId: string, channelId: string, at: string): void {
    this.q.s.touchChannel.run(at, guildId, channelId, at);
  }
}
