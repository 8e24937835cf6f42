import { gmOnly } from '../../src/core/access.js';
import { defineCommand } from '../../src/core/command.js';
import { text } from '../../src/core/options.js';
import { rollIdChoices } from '../../src/core/choices.js';
import { gmMark } from './gm-mark.js';
import { ACKNOWLEDGE, acknowledge } from './acknowledge.js';
import { said } from '../../src/i18n/said.js';

export default defineCommand({
  name: 'annotate',
  access: gmOnly(said('gmAnnotate')),
  description: 'GM: add a note to a roll (a new ledger row; the roll is unchanged)',
  example: '/annotate id:<roll id> note:"agreed re-roll after the table was bumped"',
  options: {
    id: text({ description: 'The roll id', maxLength: 20, required: true, autocomplete: true }),
    note: text({ description: 'The note', maxLength: 500, required: true }),
  },
  autocomplete: (ctx, option, value) => (option === 'id' ? rollIdChoices(ctx, value) : []),
  run: (ctx, o) => gmMark(ctx, o.id, 'annotation', o.note),
  // An opponent's acknowledgement of a tournament result is a note on the roll too, by a player.
  buttons: { [ACKNOWLEDGE]: acknowledge },
});
