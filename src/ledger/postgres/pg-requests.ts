import type pg from 'pg';
import {
  claimParams,
  clockUpdate,
  REQUEST_SQL,
  requestParams,
  SCHEDULE_SQL,
  scheduleParams,
  type GameClock,
  type RequestReads,
  type RequestWrites,
  type RollRequest,
  type Schedule,
  type ScheduleReads,
  type ScheduleWrites,
} from '../requests.js';
import type { Async } from '../transaction.js';
import { numbered } from './pg-ledger.js';

type Q = Pick<pg.PoolClient, 'query'>;

const R = Object.fromEntries(Object.entries(REQUEST_SQL).map(([k, sql]) => [k, numbered(sql)])) as Record<keyof typeof REQUEST_SQL, string>;
const S = Object.fromEntries(Object.entries(SCHEDULE_SQL).map(([k, sql]) => [k, numbered(sql)])) as Record<keyof typeof SCHEDULE_SQL, string>;

/** PostgreSQL keeps integers of a schedule as numbers (count and sizes are small). */
const schedule = (r: Schedule): Schedule => ({ ...r, fired: Number(r.fired), attempts: Number(r.attempts) });

/**
 * Requested rolls, clocks and schedules on a PostgreSQL connection (the pool's, or a
 * transaction's): the same SQL as SQLite's (requests.ts). A claim is one conditional UPDATE, so of
 * two processes that read the same due schedule, the second's update finds it moved and claims nothing.
 */
export function pgRequests(q: Q): Async<RequestReads & RequestWrites & ScheduleReads & ScheduleWrites> {
  const rows = async <T>(sql: string, params: unknown[]) => (await q.query(sql, params)).rows as T[];
  const claimed = async (sql: string, params: unknown[]) => ((await q.query(sql, params)).rowCount ?? 0) === 1;
  return {
    request: async (guildId, id) => (await rows<RollRequest>(R.get, [guildId, id]))[0],
    openRequests: (gameId, limit) => rows<RollRequest>(R.open, [gameId, limit]),
    clock: async (gameId) => (await rows<GameClock>(R.clock, [gameId]))[0],
    addRequest: async (r) => {
      await q.query(R.add, requestParams(r));
    },
    answerRequest: (id, playerId, answerId, at) => claimed(R.answer, [at, playerId, answerId, id, playerId]),
    cancelRequest: (id, by, at) => claimed(R.cancel, [at, by, id]),
    patchClock: async (c) => {
      await q.query(R.addClock, [c.game_id, c.guild_id, c.channel_id]);
      const update = clockUpdate(c);
      if (update) await q.query(numbered(update.sql), update.params);
    },
    dueSchedules: async (at, limit) => (await rows<Schedule>(S.due, [at, limit])).map(schedule),
    schedule: async (id) => (await rows<Schedule>(S.get, [id])).map(schedule)[0],
    schedulesOf: async (gameId) => (await rows<Schedule>(S.ofGame, [gameId])).map(schedule),
    setSchedule: async (s) => {
      await q.query(S.set, scheduleParams(s));
    },
    retime: async (id, dueAt) => {
      await q.query(S.retime, [dueAt, id]);
    },
    touchCard: async (s) => {
      await q.query(S.touch, scheduleParams(s));
    },
    claimSchedule: (id, seenDue, next, firedAt) => claimed(S.claim, claimParams(id, seenDue, next, firedAt)),
    retrySchedule: (id, claimedNext, retryAt, maxRetries) => claimed(S.retry, [retryAt, id, claimedNext, maxRetries]),
    delivered: async (id) => {
      await q.query(S.delivered, [id]);
    },
    dropSchedule: async (id) => {
      await q.query(S.drop, [id]);
    },
    touchChannelCard: async (guildId, channelId, at) => {
      await q.query(S.touchChannel, [at, guildId, channelId, at]);
    },
  };
}
