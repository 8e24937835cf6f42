import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packJsonSchema } from '../../src/rules/packs/json-schema.js';

describe('docs/pack.schema.json', () => {
  it('is the JSON Schema of the zod schema the bot validates with (npm run pack-schema writes it)', () => {
    expect(fs.readFileSync('docs/pack.schema.json', 'utf8')).toBe(packJsonSchema());
  });

  it('tells an editor the fields, their bounds and their choices', () => {
    const schema = JSON.parse(packJsonSchema());
    expect(schema.required).toEqual(['pack', 'version', 'name', 'description', 'tests']);
    expect(schema.properties.options.maxItems).toBe(20);
    expect(schema.properties.name.maxLength).toBe(80);
    expect(schema.properties.tests.additionalProperties.properties.compare.enum).toEqual(['at_most', 'at_least']);
  });
});
