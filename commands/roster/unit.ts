import { quoted, userText } from '../../src/render/embed.js';
import { EVERYONE, gmOnly } from '../../src/core/access.js';
import { message } from '../../src/core/replies.js';
import { record } from '../../src/core/record.js';
import { refuse } from '../../src/core/user-error.js';
import { customId, defineSubcommand, type CommandGroup, type Context, type Reply } from '../../src/core/command.js';
import { text, user } from '../../src/core/options.js';
import { rosterChoices } from '../../src/core/unit-option.js';
import { assertMayChange, changeOutcome } from '../../src/core/roster-unit.js';
import type { LedgerTx } from '../../src/ledger/transaction.js';
import { DuplicateUnitError, type Game, type RosterUnit, type UnitPatch } from '../../src/ledger/roster.js';
import { unitEmbed, unitListEmbed, UNITS_PER_PAGE } from '../../src/render/roster.js';
import { readScope, runningGame, type Scope } from '../../src/core/games.js';
import { unitOfWork } from '../../src/core/unit-of-work.js';
import { editedFields, fieldChoices, newUnitFields, typedFields } from '../../src/core/unit-fields.js';
import { unitSpecOf } from '../systems.js';
import { command, said } from '../../src/i18n/said.js';
import { say } from '../../src/i18n/reader.js';

const NAME_MAX = 60;
/** Units one game's roster may hold: far past any scenario, and it bounds autocomplete and /unit list. */
export const MAX_UNITS_PER_GAME = 500;
const PAGE = 'units_page';

const unitName = () => text({ description: 'The unit, by its roster name', maxLength: NAME_MAX, autocomplete: true, required: true });

/** `fields:` of /unit add and /unit edit: every system's unit fields in one option, so /unit does not grow with the systems. */
const fieldsOption = () =>
  text({ description: 'The unit’s fields as name:value, e.g. counter:German 4-6-7 broken:true (offered as you type)', maxLength: 200, autocomplete: true });

/** Autocomplete for `fields`: the fields of the channel's game's system, and their values. */
async function fieldsChoices(ctx: Context, value: string) {
  const game = await ctx.services.ledger.roster.activeGame(ctx.actor.guildId, ctx.actor.channelId);
  return game ? fieldChoices((await unitSpecOf(ctx, game.system)).fields, value, ctx.locale) : [];
}

/** The game and the named unit on its roster; an unknown name is refused. */
async function findUnit(scope: Scope, name: string): Promise<{ game: Game; unit: RosterUnit }> {
  const game = runningGame(scope);
  const unit = await scope.reads.roster.unitByName(game.id, name);
  return { game, unit: unit ?? refuse('noUnitNamed', { name: quoted(name), game: userText(game.name), list: command('unit list') }) };
}

function recordUnit(tx: LedgerTx, ctx: Context, game: Game, unit: string, input: Record<string, unknown>, result: string, label: string, why: string) {
  return record(tx, ctx, { command: 'unit', kind: 'unit', unit, input: { game: game.id, ...input } }, changeOutcome(game.system, result, label, why));
}

/** The fields an edit changes: only these are written, so a roll's write-back to another field still lands. */
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(after)) if (JSON.stringify(before[k]) !== JSON.stringify(v)) out[k] = v;
  return out;
}

/** What `/unit edit` sets: the columns given, and the fields that change. */
function editPatch(o: { new_name?: string | undefined; side?: string | undefined; owner?: string | undefined }, fields: Record<string, unknown>): UnitPatch {
  return {
    ...(o.new_name ? { name: o.new_name } : {}),
    ...(o.side !== undefined ? { side: o.side } : {}),
    ...(o.owner ? { owner_id: o.owner, owner_name: /^\d+$/.test(o.owner) ? `<@${o.owner}>` : o.owner } : {}),
    fields,
  };
}

/** A roster write that may take a name another unit has: refused with the game's name, and the transaction rolls back. */
async function named<T>(game: Game, name: string | undefined, write: Promise<T>, ignoringCase = false): Promise<T> {
  try {
    return await write;
  } catch (err) {
    if (err instanceof DuplicateUnitError) refuse(ignoringCase ? 'unitExistsAnyCase' : 'unitExists', { name: quoted(name), game: userText(game.name) });
    throw err;
  }
}

/** One page of the roster, with paging buttons when there is more than one page. */
async function listPage(ctx: Context, game: Game, page: number): Promise<Reply> {
  const { roster } = ctx.services.ledger;
  const total = await roster.countUnits(game.id);
  const pages = Math.max(1, Math.ceil(total / UNITS_PER_PAGE));
  const p = Math.min(Math.max(0, page), pages - 1);
  const embed = unitListEmbed(game, await unitSpecOf(ctx, game.system), await roster.units(game.id, UNITS_PER_PAGE, p * UNITS_PER_PAGE), p, pages, total);
  const buttons =
    pages > 1
      ? [
          ...(p > 0 ? [{ custom_id: customId(PAGE, `${game.id}-${p - 1}`), label: '◀ Previous', style: 'secondary' as const }] : []),
          ...(p < pages - 1 ? [{ custom_id: customId(PAGE, `${game.id}-${p + 1}`), label: 'Next ▶', style: 'secondary' as const }] : []),
        ]
      : [];
  return message(embed, false, buttons);
}

export default {
  name: 'unit',
  description: "The roster of this channel's game: add, edit, show, list and remove units",
  example: '/unit add name:"1/506 PIR" fields:"attack:7 defense:5 movement:6"',
  subcommands: {
    add: defineSubcommand({
      description: "Add a unit to the game's roster (you own it)",
      access: EVERYONE,
      options: {
        name: text({ description: 'A name for the unit, unique in this game', maxLength: NAME_MAX, required: true }),
        side: text({ description: 'Its side', maxLength: 40 }),
        fields: fieldsOption(),
      },
      async run(ctx, o) {
        const { unit, spec } = await unitOfWork(ctx, null, async (at) => {
          const { tx } = at;
          const game = runningGame(at);
          const spec = await unitSpecOf(ctx, game.system);
          const fields = newUnitFields(spec, typedFields(spec, o.fields));
          // Counted inside the transaction, so two adds at once cannot both pass the cap.
          if ((await tx.roster.countUnits(game.id)) >= MAX_UNITS_PER_GAME)
            refuse('rosterFull', { game: userText(game.name), max: MAX_UNITS_PER_GAME, remove: command('unit remove') });
          const u = await named(
            game,
            o.name,
            tx.roster.addUnit({
              game_id: game.id,
              name: o.name,
              owner_id: ctx.actor.userId,
              owner_name: ctx.actor.userName,
              side: o.side ?? null,
              fields,
              at: tx.timestamp(),
            }),
            true,
          );
          await recordUnit(
            tx,
            ctx,
            game,
            u.name,
            { action: 'add', side: u.side, fields },
            'unit_added',
            'Unit added',
            `${userText(ctx.actor.userName)} added ${userText(u.name)}.`,
          );
          return { unit: u, spec };
        });
        return message(unitEmbed(say('roster.added'), spec, unit));
      },
    }),
    edit: defineSubcommand({
      description: 'Change a unit (its owner or a GM)',
      // Giving a unit away is for a GM; any other change is the owner's or a GM's (assertMayChange).
      access: (o) => (o.owner ? gmOnly(said('gmGiveUnit'), said('gmGiveUnitOnly')) : EVERYONE),
      options: {
        unit: unitName(),
        new_name: text({ description: 'A new name', maxLength: NAME_MAX }),
        side: text({ description: 'Its side', maxLength: 40 }),
        owner: user({ description: 'Give it to another player (GM only)' }),
        fields: fieldsOption(),
      },
      async run(ctx, o) {
        const { updated, spec } = await unitOfWork(ctx, null, async (at) => {
          const { tx } = at;
          // The unit is read in the edit's transaction, and only what the edit changes is written.
          const { game, unit } = await findUnit(at, o.unit);
          assertMayChange(ctx, { game, unit });
          const spec = await unitSpecOf(ctx, game.system);
          const changes = typedFields(spec, o.fields);
          const fields = Object.keys(changes).length ? editedFields(spec, unit.fields, changes) : unit.fields;
          if (!Object.keys(changes).length && !o.new_name && o.side === undefined && !o.owner) refuse('nothingToChange');
          const patch = editPatch(o, changedFields(unit.fields, fields));
          const u = await named(game, o.new_name, tx.roster.patchUnit(unit.id, patch, tx.timestamp()));
          await recordUnit(
            tx,
            ctx,
            game,
            u.name,
            { action: 'edit', unit: unit.name, changes, new_name: o.new_name, side: o.side, owner: o.owner, patch },
            'unit_edited',
            'Unit edited',
            `${userText(ctx.actor.userName)} edited ${userText(unit.name)}.`,
          );
          return { updated: u, spec };
        });
        return message(unitEmbed(say('roster.edited'), spec, updated));
      },
    }),
    show: defineSubcommand({
      description: 'Show a unit and its current effective values',
      access: EVERYONE,
      options: { unit: unitName() },
      async run(ctx, o) {
        const found = await findUnit(await readScope(ctx), o.unit);
        return message(unitEmbed(say('roster.unit'), await unitSpecOf(ctx, found.game.system), found.unit));
      },
    }),
    list: defineSubcommand({
      description: 'The roster with current effective values',
      access: EVERYONE,
      options: {},
      async run(ctx) {
        const game = runningGame(await readScope(ctx));
        return listPage(ctx, game, 0);
      },
    }),
    remove: defineSubcommand({
      description: 'Retire a unit from the roster (its owner or a GM)',
      access: EVERYONE,
      options: { unit: unitName() },
      async run(ctx, o) {
        const { game, unit } = await unitOfWork(ctx, null, async (at) => {
          const { tx } = at;
          const found = await findUnit(at, o.unit);
          const { game, unit } = found;
          assertMayChange(ctx, found, { verb: said('removeIt') });
          await tx.roster.removeUnit(unit.id, tx.timestamp());
          await recordUnit(
            tx,
            ctx,
            game,
            unit.name,
            { action: 'remove' },
            'unit_removed',
            'Unit removed',
            `${userText(ctx.actor.userName)} removed ${userText(unit.name)}.`,
          );
          return { game, unit };
        });
        return message(unitEmbed(say('roster.removed'), await unitSpecOf(ctx, game.system), unit, say('roster.removedNote')));
      },
    }),
  },
  buttons: {
    // The custom_id names a game and a page; the game must be this channel's, in this server.
    [PAGE]: async (ctx, target) => {
      const m = /^([0-9a-z]+)-(\d{1,4})$/.exec(target);
      const game = m && (await ctx.services.ledger.roster.game(ctx.actor.guildId, m[1]!));
      if (!m || !game || game.channel_id !== ctx.actor.channelId) refuse('rosterElsewhere');
      const page = await listPage(ctx, game, Number(m[2]));
      return page.type === 'message' ? { type: 'update', embed: page.embed, buttons: page.buttons } : page;
    },
  },
  autocomplete: (ctx, option, value) => (option === 'unit' ? rosterChoices(ctx, value) : option === 'fields' ? fieldsChoices(ctx, value) : []),
} satisfies CommandGroup;

/** Names on this channel's roster that start with what was typed. */
