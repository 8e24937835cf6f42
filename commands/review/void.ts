import { gmOnly } from '../../src/core/access.js';
import { gmMark } from './gm-mark.js';
import { defineCommand } from '../../src/core/command.js';
import { text } from '../../src/core/options.js';
import { rollIdChoices } from '../../src/core/choices.js';
import { said } from '../../src/i18n/said.js';

export default defineCommand({
  name: 'void',
  access: gmOnly(said('gmVoid')),
  description: 'GM: mark a roll void, with the reason (nothing is changed or deleted)',
  example: '/void id:<roll id> reason:"rolled for the wrong unit"',
  options: {
    id: text({ description: 'The roll id', maxLength: 20, required: true, autocomplete: true }),
    reason: text({ description: 'Why it is void', maxLength: 200, required: true }),
  },
  autocomplete: (ctx, option, value) => (option === 'id' ? rollIdChoices(ctx, value) : []),
  run: (ctx, o) => gmMark(ctx, o.id, 'void', o.reason),
});
