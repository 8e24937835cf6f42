import { z } from 'zod';
import { packSchema } from './schema.js';

/**
 * The JSON Schema of a pack file, generated from the zod schema the bot validates with, so an
 * editor completes and checks a pack as the bot will (`docs/pack.schema.json`). What needs the
 * whole pack (names that point somewhere, bands covering every total) only the bot checks.
 */
export function packJsonSchema(): string {
  const schema = z.toJSONSchema(packSchema, { io: 'input', target: 'draft-2020-12' });
  return `${JSON.stringify({ ...schema, $id: 'https://morale-officer.invalid/pack.schema.json', title: 'Morale Officer rule pack' }, null, 2)}\n`;
}
