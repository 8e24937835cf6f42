import { EVERYONE } from '../../src/core/access.js';
import { defineSubcommand } from '../../src/core/command.js';
import { readScope } from '../../src/core/games.js';
import { chanceOptions, oddsAnswer } from '../../src/core/odds-entry.js';
import { boolean, text } from '../../src/core/options.js';
import { defineSystem } from '../../src/core/system.js';
import { refuse } from '../../src/core/user-error.js';
import { aslTitle, describeSituation } from '../../src/render/asl.js';
import { quoted, userText } from '../../src/render/embed.js';
import { HOB_ORDER, hobDistribution } from '../../src/rules/asl/hob.js';
import { ASL_RALLY_ORDER, checkDistribution, checkOrder, MC_ORDER } from '../../src/rules/asl/mc.js';

import { parseUnit } from '../../src/rules/asl/parse-unit.js';
import { ASL_FIELD_DEFAULTS } from '../../src/rules/asl/roster.js';
import dr from './dr.js';
import hob from './hob.js';
import * as hobInput from './hob-input.js';
import mc from './mc.js';
import * as mcInput from './mc-input.js';
import { isSaid, option } from '../../src/i18n/said.js';
import { say } from '../../src/i18n/reader.js';
import type { MessageKey } from '../../src/i18n/messages/en.js';

/** The odds' header: the roll's own title and situation, with what its dice would have shown (ML, DRMs). */
const aslHeader = (kind: 'mc' | 'rally' | 'hob', unit: string, options: Record<string, unknown>) => ({
  title: aslTitle(kind, unit),
  situation: describeSituation(options, true, true),
});

/** Result names by code in the reader's language: each code's `<prefix>.<code>` in the catalogs. */
const namesOf = (prefix: 'asl.mc' | 'asl.hob', codes: readonly string[]) => Object.fromEntries(codes.map((c) => [c, say(`${prefix}.${c}` as MessageKey)]));

const FLAGS = ['broken', 'disrupted', 'berserk', 'fanatic', 'heroic', 'wounded'] as const;

/** Advanced Squad Leader: Morale Checks and Rallies, Heat of Battle, and every other DR or dr. */
export default defineSystem({
  id: 'asl',
  commands: [mc, hob, dr],
  units: {
    label: 'ASL',
    // Disrupted is set by rolls and cleared with broken:false.
    fields: {
      counter: text({ description: 'The counter, e.g. German 4-6-7', maxLength: 60 }),
      broken: boolean({ description: 'Broken' }),
      berserk: boolean({ description: 'Berserk' }),
      fanatic: boolean({ description: 'Fanatic' }),
      heroic: boolean({ description: 'A heroic leader' }),
      wounded: boolean({ description: 'A wounded leader or hero' }),
    },
    required: ['counter'],
    defaults: () => ({ ...ASL_FIELD_DEFAULTS }),
    check: (f) => {
      const u = parseUnit(String(f.counter));
      if (isSaid(u)) refuse('counterUnreadable', { fields: option('fields'), given: quoted(f.counter), why: u });
      if (f.heroic && u.kind !== 'leader') refuse('heroicForLeader', { fields: option('fields') });
      if (f.wounded && u.kind !== 'leader' && u.kind !== 'hero') refuse('woundedForLeader', { fields: option('fields') });
      return { ...f, counter: u.name, ...(f.broken === false ? { disrupted: false } : {}) };
    },
    summary: (f) => {
      const flags = FLAGS.filter((k) => f[k]);
      return `${userText(String(f.counter))}${flags.length ? ` · ${flags.join(', ')}` : ''}`;
    },
  },
  hooks: {},
  odds: {
    mc: defineSubcommand({
      description: 'ASL Morale Check or Rally, with the Heat of Battle DR an Original 2 brings',
      access: EVERYONE,
      options: chanceOptions(mcInput.options),
      check: mcInput.check,
      async run(ctx, o) {
        const { input, tracked, options } = await mcInput.prepare(await readScope(ctx, 'asl'), ctx, o, 'read');
        return oddsAnswer(
          aslHeader(input.check, tracked?.unit.name ?? input.unit.name, options),
          checkDistribution(input, true),
          checkOrder(input),
          HOB_ORDER,
          { ...namesOf('asl.mc', [...MC_ORDER, ...ASL_RALLY_ORDER]), ...namesOf('asl.hob', HOB_ORDER) },
        );
      },
    }),
    hob: defineSubcommand({
      description: 'ASL Heat of Battle DR',
      access: EVERYONE,
      options: chanceOptions(hobInput.options),
      async run(ctx, o) {
        const { input, tracked, options } = await hobInput.prepare(await readScope(ctx, 'asl'), ctx, o, 'read');
        return oddsAnswer(
          aslHeader('hob', tracked?.unit.name ?? input.unit.name, options),
          hobDistribution(input),
          HOB_ORDER,
          [],
          namesOf('asl.hob', HOB_ORDER),
        );
      },
    }),
  },
});
