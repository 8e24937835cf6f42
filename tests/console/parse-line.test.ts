import { describe, expect, it } from 'vitest';
import { LineError, parseLine } from '../../src/console/parse-line.js';
import { tokenize } from '../../src/core/option-text.js';

describe('console line parsing', () => {
  it.each([
    ['/rally disorder:2', ['/rally', 'disorder:2']],
    ['  /rally   disorder:2  ', ['/rally', 'disorder:2']],
    ['/rally unit:"1st Foot"', ['/rally', 'unit:1st Foot']],
    ["/rally unit:'Old Guard'", ['/rally', 'unit:Old Guard']],
    ['/rally unit:"say \\"hi\\""', ['/rally', 'unit:say "hi"']],
    ['/rally unit:""', ['/rally', 'unit:']],
  ])('tokenizes %s', (line, tokens) => {
    expect(tokenize(line)).toEqual({ tokens });
  });

  it('reads a command with options', () => {
    expect(parseLine('/rally disorder:2 quality:militia unit:"1st Foot"')).toEqual({
      type: 'command',
      name: 'rally',
      options: { disorder: '2', quality: 'militia', unit: '1st Foot' },
    });
  });

  it('reads a bare word after the name as a subcommand', () => {
    expect(parseLine('/game start system:asl name:"Bulge"')).toEqual({
      type: 'command',
      name: 'game',
      subcommand: 'start',
      options: { system: 'asl', name: 'Bulge' },
    });
  });

  it('keeps colons inside a value', () => {
    expect(parseLine('/rally unit:"A:B"')).toMatchObject({ options: { unit: 'A:B' } });
  });

  it.each([
    ['press v1:reroll:abc', { type: 'press', customId: 'v1:reroll:abc' }],
    ['press', { type: 'press', customId: undefined }],
    ['as bob', { type: 'as', user: 'bob', gm: false }],
    ['as carol gm', { type: 'as', user: 'carol', gm: true }],
    ['complete /rally unit:1s', { type: 'complete', name: 'rally', option: 'unit', value: '1s', options: {} }],
    ['', { type: 'blank' }],
    ['# a comment', { type: 'blank' }],
    ['quit', { type: 'quit' }],
  ])('reads %j', (line, expected) => {
    expect(parseLine(line)).toEqual(expected);
  });

  it.each([
    ['/rally unit:"1st Foot', /quote is not closed/],
    ['/rally 2', /expected option:value after \/rally, got "2"/],
    ['/rally disorder:1 disorder:2', /`disorder` is given twice/],
    ['rally disorder:1', /a command starts with \/ and a name/],
    ['as', /as takes a user/],
    ['as bob admin', /as takes a user/],
    ['press a b', /press takes one custom_id/],
  ])('refuses %j', (line, message) => {
    expect(() => parseLine(line)).toThrow(LineError);
    expect(() => parseLine(line)).toThrow(message);
  });
});
