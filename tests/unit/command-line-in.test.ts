import { describe, expect, it } from 'vitest';
import { commandLineIn } from '../../src/i18n/i18n.js';

describe('a typed command line in the reader’s language', () => {
  it('translates the command’s words and option names, never the values', () => {
    expect(commandLineIn('de', '/unit add name:"1st Foot" fields:"quality:elite"')).toBe('/einheit hinzufügen name:"1st Foot" felder:"quality:elite"');
    expect(commandLineIn('fr', '/rally disorder:2')).toBe('/ralliement désordre:2');
    // A value that happens to be a command's English name stays as written.
    expect(commandLineIn('de', '/odds roll:rally')).toMatch(/^\/\S+ \S+:rally$/);
    expect(commandLineIn('en', '/unit add name:x')).toBe('/unit add name:x');
  });
});
