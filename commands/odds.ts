import { readScope } from '../src/core/games.js';
import { userText } from '../src/render/embed.js';
import { EVERYONE } from '../src/core/access.js';
import type { CommandGroup, Reply } from '../src/core/command.js';
import { defineSubcommand } from '../src/core/command.js';
import { describeSituation } from '../src/render/asl.js';
import { ODDS_CHART, oddsReply } from '../src/render/odds.js';
import { HOB_ORDER, hobDistribution } from '../src/rules/asl/hob.js';
import { checkDistribution, checkOrder } from '../src/rules/asl/mc.js';
import { RALLY_ORDER, rallyDistribution } from '../src/rules/hearts-of-tin/rally.js';
import { MORALE_ORDER, moraleDistribution } from '../src/rules/lightning-war/morale.js';
import { ordered, type Fraction } from '../src/rules/odds.js';
import { classOption, nationalityOption, unitChoices } from './asl/unit-input.js';
import * as hob from './asl/hob-input.js';
import * as mc from './asl/mc-input.js';
import * as morale from './lightning-war/morale-input.js';
import * as rally from './hearts-of-tin/rally-input.js';

/** The rolling command's options, less those that change no chance (sealing, companions, exempt statuses). */
function oddsOptions<O extends Record<string, unknown>>(options: O): O {
  const { sealed: _s, companions: _c, status: _t, ...rest } = options as Record<string, unknown>;
  // Four subcommands' options share one 4,000-character budget: the long nationality and class lists are offered as typed.
  if ('nationality' in rest) Object.assign(rest, { nationality: nationalityOption(true), class: classOption(true) });
  return rest as O;
}

async function answer(title: string, situation: string, dist: Map<string, Fraction>, order: readonly string[], then?: readonly string[]): Promise<Reply> {
  const { embed, png, alt } = await oddsReply(title, situation, ordered(dist, order, then));
  return { type: 'message', ephemeral: true, embed, buttons: [], files: [{ name: ODDS_CHART, data: png, description: alt }] };
}

export default {
  name: 'odds',
  description: 'Exact chances of every outcome, before you roll (nothing is rolled or recorded)',
  example: '/odds rally disorder:2 quality:militia commander_near:true',
  subcommands: {
    rally: defineSubcommand({
      description: 'Hearts of Tin rally; with commander_near, the re-roll is taken on a failure',
      access: EVERYONE,
      options: oddsOptions(rally.options),
      async run(ctx, given) {
        const o = (await rally.prepare(await readScope(ctx, 'hearts-of-tin'), ctx, given, 'read')).options;
        const input = rally.toInput(o);
        const how = input.commanderNear ? 'the commander re-rolls any failure' : 'no commander re-roll';
        return answer(
          `Odds · Rally${o.unit ? ` · ${userText(o.unit)}` : ''}`,
          `${o.disorder} disorder · ${o.quality} · ${how}`,
          rallyDistribution(input, true),
          RALLY_ORDER,
        );
      },
    }),
    morale: defineSubcommand({
      description: 'Lightning War morale check or rally',
      access: EVERYONE,
      options: oddsOptions(morale.options),
      check: morale.check,
      async run(ctx, given) {
        const o = (await morale.prepare(await readScope(ctx, 'lightning-war'), ctx, given, 'read')).options;
        return answer(
          `Odds · ${o.rally ? 'Rally' : 'Morale check'}${o.unit ? ` · ${userText(o.unit)}` : ''}`,
          `${o.morale} morale, ${o.unit_type.replace('_', ' ')}`,
          moraleDistribution(morale.toInput(o)),
          MORALE_ORDER,
        );
      },
    }),
    hob: defineSubcommand({
      description: 'ASL Heat of Battle DR',
      access: EVERYONE,
      options: oddsOptions(hob.options),
      async run(ctx, o) {
        const prepared = await hob.prepare(await readScope(ctx, 'asl'), ctx, o, 'read');
        return answer(`Odds · Heat of Battle · ${userText(prepared.input.unit.name)}`, describeSituation(o), hobDistribution(prepared.input), HOB_ORDER);
      },
    }),
    mc: defineSubcommand({
      description: 'ASL Morale Check or Rally, with the Heat of Battle DR an Original 2 brings',
      access: EVERYONE,
      options: oddsOptions(mc.options),
      check: mc.check,
      async run(ctx, o) {
        const prepared = await mc.prepare(await readScope(ctx, 'asl'), ctx, o, 'read');
        const input = prepared.input;
        const check = input.check === 'mc' ? 'Morale Check' : 'Rally';
        return answer(`Odds · ${check} · ${userText(input.unit.name)}`, describeSituation(o), checkDistribution(input, true), checkOrder(input), HOB_ORDER);
      },
    }),
  },
  autocomplete: (ctx, option, value, subcommand) => (subcommand === 'hob' || subcommand === 'mc' ? unitChoices(ctx, option, value) : []),
} satisfies CommandGroup;
