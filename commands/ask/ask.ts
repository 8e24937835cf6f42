import { EVERYONE } from '../../src/core/access.js';
import { customId, defineSubcommand, type ButtonHandler, type CommandGroup, type Context, type Reply, type UserFacts } from '../../src/core/command.js';
import { cardTouch, planAsk, planSettle } from '../../src/core/clock.js';
import { readScope, runningGame } from '../../src/core/games.js';
import { text, user } from '../../src/core/options.js';
import { record } from '../../src/core/record.js';
import { message } from '../../src/core/replies.js';
import { answerRefusal, isPlayerOf, waitedText } from '../../src/core/requests.js';
import { changeOutcome } from '../../src/core/roster-unit.js';
import { unitOfWork } from '../../src/core/unit-of-work.js';
import { refuse } from '../../src/core/user-error.js';
import type { NewRequest, RollRequest } from '../../src/ledger/requests.js';
import type { Game } from '../../src/ledger/roster.js';
import { clip, limitEmbed, noticeEmbed, quoted, TONE_COLOUR, userText } from '../../src/render/embed.js';
import { say } from '../../src/i18n/reader.js';
import { command, option, said } from '../../src/i18n/said.js';
import { ASKABLE_NAMES, readAskedRoll, rollChoices, rollShown, type AskedRoll } from './roll-text.js';

/** The button on a request: custom_id `v1:ask:<request id>`; only the asked player's press answers it. */
export const ANSWER = 'ask';

/** Discord's limit on a button's label. */
const LABEL_MAX = 80;

const relative = (iso: string) => `<t:${Math.floor(Date.parse(iso) / 1000)}:R>`;

/** The asked player as the transport knows them: a member of the server, and not a bot. */
function askedPlayer(ctx: Context, id: string): UserFacts {
  const facts = ctx.user?.(id);
  if (!facts?.member) refuse('askUnknownPlayer', { player: option('player'), given: quoted(id) });
  if (facts.bot) refuse('askBotPlayer', { player: option('player'), given: `<@${id}>` });
  return facts;
}

/** The request's odds, read as the asked player would read them (their units, this game): a roll the command refuses is refused now. */
async function oddsFor(ctx: Context, playerId: string, player: UserFacts, asked: AskedRoll): Promise<Extract<Reply, { type: 'message' }>> {
  const actor = { ...ctx.actor, userId: playerId, userName: player.name, isGm: false, roleIds: [] };
  const odds = await asked.odds.run({ ...ctx, actor, given: asked.given }, asked.oddsOptions);
  if (odds.type !== 'message') throw new Error(`the odds of /${asked.name} gave a ${odds.type} reply`);
  return odds;
}

/** The request's row and its record beside the chain, in one transaction with who may ask. */
function recordRequest(ctx: Context, g: Game, playerId: string, player: UserFacts, roll: string, name: string): Promise<RollRequest> {
  return unitOfWork(ctx, null, async (at) => {
    const game = runningGame(at);
    if (game.id !== g.id) refuse('askGameOver');
    if (!ctx.actor.isGm && !(await isPlayerOf(at.tx, game, ctx.actor.userId))) refuse('askNotPlayer', { game: userText(game.name) });
    const why = `${ctx.actor.userName} asked ${player.name} for /${roll.trim()}`;
    const outcome = changeOutcome(game.system, 'requested', 'Roll requested', why);
    const row = await record(at.tx, ctx, { command: 'ask', kind: 'request', input: { player: playerId, roll } }, outcome, [], { game });
    const r: NewRequest = {
      ...{ id: row.id, guild_id: game.guild_id, channel_id: game.channel_id, game_id: game.id },
      ...{ asker_id: ctx.actor.userId, asker_name: ctx.actor.userName, player_id: playerId, player_name: player.name },
      ...{ command: name, roll, created_at: row.created_at, locale: ctx.guildLocale ?? ctx.locale ?? null },
    };
    await at.tx.requests.addRequest(r);
    const open: RollRequest = { ...r, state: 'open', settled_at: null, settled_by: null, answer_id: null };
    await planAsk(at.tx, await at.tx.requests.clock(game.id), open);
    await cardTouch(at.tx, game);
    return open;
  });
}

/** The request as the channel sees it: who is asked for what, its exact odds, and the one button. */
function requestMessage(r: RollRequest, odds: Extract<Reply, { type: 'message' }>): Reply {
  const prefix = say('odds.title', { what: '' });
  const title = odds.embed.title ?? '';
  const what = title.startsWith(prefix) ? title.slice(prefix.length) : `/${r.command}`;
  const body = say('ask.body', { asker: `<@${r.asker_id}>`, player: r.player_id, roll: rollShown(r.roll), cancel: command('ask cancel') });
  // The odds' closing line says nothing was recorded: true of /odds, not of a request.
  const table = (odds.embed.description ?? '').replace(say('odds.exact'), '').trimEnd();
  const embed = limitEmbed({ ...odds.embed, title: say('ask.title', { what }), color: TONE_COLOUR.neutral, description: `${body}\n\n${table}` });
  const label = clip(say('ask.button', { name: r.player_name }), LABEL_MAX);
  // The asked player alone is pinged; the message is remembered as the request's, to show later how it was settled.
  const button = { custom_id: customId(ANSWER, r.id), label, style: 'primary' as const };
  return { type: 'message', ephemeral: false, embed, buttons: [button], files: odds.files ?? [], mention: r.player_id, shows: r.id };
}

async function askFor(ctx: Context, playerId: string, roll: string): Promise<Reply> {
  const g = (await readScope(ctx)).channelGame ?? refuse('askNoGame', { start: command('game start') });
  const player = askedPlayer(ctx, playerId);
  const asked = readAskedRoll(roll);
  const odds = await oddsFor(ctx, playerId, player, asked);
  const r = await recordRequest(ctx, g, playerId, player, roll, asked.name);
  return requestMessage(r, odds);
}

/** The roll's reply, saying whose request it answered and how long it waited. */
function withWait(reply: Reply, r: RollRequest | undefined): Reply {
  if (reply.type !== 'message' || r?.state !== 'answered' || !r.settled_at) return reply;
  const line = say('ask.answered', { player: r.player_id, asker: r.asker_id, when: relative(r.created_at), waited: waitedText(r.created_at, r.settled_at) });
  return { ...reply, embed: limitEmbed({ ...reply.embed, description: [reply.embed.description, line].filter(Boolean).join('\n') }) };
}

/**
 * The asked player's press: their roll, made as its command makes it (bound to the beacon in a
 * beacon game, sealed if asked sealed), answering the request in the roll's own transaction.
 */
export const answer: ButtonHandler = async (ctx, id) => {
  const { ledger } = ctx.services;
  const r = await ledger.requests.request(ctx.actor.guildId, id);
  const why = answerRefusal(r, id, ctx.actor.userId);
  if (why || !r) return refuse(why ?? said('askUnknown', { id }));
  if (r.channel_id !== ctx.actor.channelId) refuse('askGameOver');
  const asked = readAskedRoll(r.roll);
  const reply = await asked.command.run({ ...ctx, given: asked.given, answering: { requestId: r.id, gameId: r.game_id } }, asked.options);
  return withWait(reply, await ledger.requests.request(ctx.actor.guildId, id));
};

/** A request taken back by its asker or a GM: settled, and a row on the chain pointing at it. */
async function cancel(ctx: Context, id: string): Promise<Reply> {
  const r = await unitOfWork(ctx, null, async (at) => {
    const r = await at.tx.requests.request(ctx.actor.guildId, id);
    if (!r) refuse('askUnknown', { id: quoted(id) });
    if (r.state === 'answered') refuse('askAnswered', { roll: r.answer_id ?? '?' });
    if (r.state === 'cancelled') refuse('askCancelled');
    if (!ctx.actor.isGm && ctx.actor.userId !== r.asker_id) refuse('askCancelNotAllowed', { asker: r.asker_id });
    if (!(await at.tx.requests.cancelRequest(r.id, ctx.actor.userId, at.tx.timestamp()))) refuse('alreadyDone');
    const game = at.channelGame?.id === r.game_id ? at.channelGame : undefined;
    const why = `${ctx.actor.userName} cancelled the request of /${r.roll.trim()} asked of ${r.player_name}`;
    const outcome = changeOutcome(game?.system ?? 'unknown', 'request_cancelled', 'Request cancelled', why);
    await record(at.tx, ctx, { command: 'ask', kind: 'request', input: { request: r.id }, parentId: r.id }, outcome, [], { game });
    await planSettle(at.tx, r);
    await cardTouch(at.tx, await at.tx.roster.game(r.guild_id, r.game_id));
    return r;
  });
  const body = say('ask.cancelledBody', { roll: rollShown(r.roll), player: r.player_id, by: ctx.actor.userId });
  return message(noticeEmbed(say('ask.cancelledTitle'), body));
}

/** One open request in a line: its id, who is asked, for what, by whom and when. */
export const requestLine = (r: RollRequest) =>
  say('ask.listLine', { id: r.id, player: r.player_id, roll: rollShown(r.roll), asker: r.asker_id, when: relative(r.created_at) });

async function list(ctx: Context): Promise<Reply> {
  const g = (await readScope(ctx)).channelGame ?? refuse('askNoGame', { start: command('game start') });
  const open = await ctx.services.ledger.requests.openRequests(g.id, 25);
  const body = open.length ? open.map(requestLine).join('\n') : say('ask.listNone', { game: userText(g.name) });
  return message(limitEmbed({ title: say('ask.listTitle', { game: userText(g.name) }), color: TONE_COLOUR.neutral, description: body }));
}

/** The open requests of the channel's game, for /ask cancel's autocomplete. */
async function requestChoices(ctx: Context, value: string) {
  const g = (await readScope(ctx)).channelGame;
  if (!g) return [];
  const typed = value.trim().toLowerCase();
  return (await ctx.services.ledger.requests.openRequests(g.id, 100))
    .filter((r) => r.id.startsWith(typed) || r.roll.toLowerCase().includes(typed) || r.player_name.toLowerCase().includes(typed))
    .map((r) => ({ name: clip(say('ask.choice', { player: r.player_name, roll: `/${r.roll.trim()}` }), 100), value: r.id }));
}

export default {
  name: 'ask',
  description: 'Ask a player for a roll: they answer with one press, and the roll is theirs',
  example: `/ask roll player:@bob roll:"mc unit:'German 4-6-7' number:1"`,
  subcommands: {
    roll: defineSubcommand({
      description: "Ask a player for a roll (a GM, or a player of this channel's game)",
      access: EVERYONE,
      options: {
        player: user({ description: 'The player asked to roll: only their press answers', required: true }),
        roll: text({
          description: `The roll as you would type it, e.g. mc unit:"Squad 3" number:1 (${ASKABLE_NAMES.join(', ')})`.slice(0, 100),
          maxLength: 400,
          required: true,
          autocomplete: true,
          holdsOptions: true,
        }),
      },
      run: (ctx, o) => askFor(ctx, o.player!, o.roll),
    }),
    cancel: defineSubcommand({
      description: 'Take back an open request (whoever asked, or a GM)',
      access: EVERYONE,
      options: { request: text({ description: 'The request (offered as you type)', maxLength: 20, required: true, autocomplete: true }) },
      run: (ctx, o) => cancel(ctx, o.request.trim()),
    }),
    list: defineSubcommand({
      description: "The open requests of this channel's game",
      access: EVERYONE,
      options: {},
      run: (ctx) => list(ctx),
    }),
  },
  buttons: { [ANSWER]: answer },
  autocomplete(ctx, option, value, subcommand) {
    if (subcommand === 'roll' && option === 'roll') return rollChoices(ctx, value);
    if (subcommand === 'cancel' && option === 'request') return requestChoices(ctx, value);
    return [];
  },
} satisfies CommandGroup;
