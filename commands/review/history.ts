import { checkAccess, EVERYONE, gmOnly } from '../../src/core/access.js';
import { gameChoices } from '../../src/core/choices.js';
import { message } from '../../src/core/replies.js';
import { refuse } from '../../src/core/user-error.js';
import { customId, defineCommand, type Context, type Reply } from '../../src/core/command.js';
import { filterOptions, toFilter, type FilterValues } from '../../src/core/filters.js';
import { choice } from '../../src/core/options.js';
import { viewsFor } from '../../src/core/review.js';
import { newRollId } from '../../src/ledger/next-row.js';
import { HISTORY_PAGE, historyEmbed, historyLine } from '../../src/render/review.js';
import { command, said } from '../../src/i18n/said.js';
import { say } from '../../src/i18n/reader.js';

const PAGE = 'history_page';

type Params = FilterValues & { scope: 'channel' | 'server' };

async function page(ctx: Context, queryId: string, params: Params, n: number): Promise<Reply> {
  const filter = await toFilter(ctx, params, params.scope === 'server');
  const { history } = ctx.services.ledger;
  const first = await history.page(filter, HISTORY_PAGE, Math.max(0, n) * HISTORY_PAGE);
  const { total, capped } = first;
  const pages = Math.max(1, Math.ceil(total / HISTORY_PAGE));
  const p = Math.min(Math.max(0, n), pages - 1);
  // A stale button may point past the end: show the last page instead.
  const { rows } = p === n ? first : await history.page(filter, HISTORY_PAGE, p * HISTORY_PAGE);
  const ids = rows.map((r) => r.id);
  const voids = await history.voided(ctx.actor.guildId, ids);
  const messages = await history.messages(ids);
  const undelivered = await history.undelivered(ids);
  const lines = (await viewsFor(ctx, rows)).map(({ row, hidden }) =>
    historyLine(row, { voidReason: voids.get(row.id), messageId: messages.get(row.id), undelivered: undelivered.get(row.id), hidden }),
  );
  const embed = historyEmbed(
    say('review.historyTitle'),
    lines,
    p,
    pages,
    total,
    say(params.scope === 'server' ? 'review.scopeServer' : 'review.scopeChannel'),
    capped,
  );
  const buttons = [
    ...(p > 0 ? [{ custom_id: customId(PAGE, `${queryId}-${p - 1}`), label: say('review.newer'), style: 'secondary' as const }] : []),
    ...(p < pages - 1 ? [{ custom_id: customId(PAGE, `${queryId}-${p + 1}`), label: say('review.older'), style: 'secondary' as const }] : []),
  ];
  return message(embed, true, buttons);
}

/** Whole-server history is for GMs: checked on the command and again on every page press. */
const historyAccess = (o: { scope?: string }) => (o.scope === 'server' ? gmOnly(said('gmSeeServerHistory')) : EVERYONE);

export default defineCommand({
  name: 'history',
  access: historyAccess,
  description: 'Rolls on record, newest first: this channel, or the whole server for a GM',
  example: '/history user:@alice since:3d',
  cost: 2,
  options: {
    ...filterOptions,
    scope: choice({ description: 'This channel (default), or the whole server (GM only)', choices: ['channel', 'server'] as const, default: 'channel' }),
  },
  autocomplete: (ctx, option, value) => (option === 'game' ? gameChoices(ctx, value) : []),
  async run(ctx, o) {
    const params: Params = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Params;
    await toFilter(ctx, params, params.scope === 'server');
    // The filters live in the database; the paging buttons carry only the query's id.
    const id = newRollId();
    await ctx.services.ledger.queries.save({
      id,
      guild_id: ctx.actor.guildId,
      channel_id: ctx.actor.channelId,
      user_id: ctx.actor.userId,
      params,
      created_at: ctx.services.ledger.timestamp(),
    });
    return page(ctx, id, params, 0);
  },
  buttons: {
    [PAGE]: async (ctx, target) => {
      const m = /^([0-9a-z]+)-(\d{1,6})$/.exec(target);
      const q = m && (await ctx.services.ledger.queries.get(ctx.actor.guildId, m[1]!, ctx.services.ledger.timestamp()));
      if (!m || !q) refuse('pageNotHere');
      if (q === 'expired') refuse('pageExpired', { history: command('history') });
      if (q.user_id !== ctx.actor.userId) refuse('pageNotYours', { history: command('history') });
      // A member who is no longer a GM pages no further through the whole server.
      checkAccess(ctx, historyAccess, q.params);
      const reply = await page(ctx, q.id, q.params as Params, Number(m[2]));
      return reply.type === 'message' ? { type: 'update', embed: reply.embed, buttons: reply.buttons } : reply;
    },
  },
});
