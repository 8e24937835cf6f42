import { describe, expect, it } from 'vitest';
import { BUILT_IN_SYSTEMS } from '../../commands/systems.js';
import { editedFields, fieldChoices, newUnitFields, typedFields } from '../../src/core/unit-fields.js';
import { UserError } from '../../src/core/user-error.js';

const hot = BUILT_IN_SYSTEMS['hearts-of-tin'].units;
const asl = BUILT_IN_SYSTEMS.asl.units;
const war = BUILT_IN_SYSTEMS['wacht-am-rhein'].units;

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    if (err instanceof UserError) return err.message;
    throw err;
  }
  return 'not refused';
};

describe('a unit’s fields typed in one option', () => {
  it('reads name:value pairs: a value runs to the next name:, quotes keep spaces, each value typed by its field', () => {
    expect(typedFields(hot, 'quality:Elite original:12 brigade:Picton’s Brigade band:yes')).toEqual({
      quality: 'elite',
      original: 12,
      brigade: 'Picton’s Brigade',
      band: true,
    });
    expect(typedFields(asl, 'counter:"German 4-6-7" broken:true')).toEqual({ counter: 'German 4-6-7', broken: true });
    expect(typedFields(asl, '  ')).toEqual({});
    expect(typedFields(asl, undefined)).toEqual({});
  });

  it('refuses what it cannot read, naming the field and what it takes', () => {
    expect(refusal(() => typedFields(hot, 'elite original:12'))).toBe('`fields`: "elite" is not name:value; write them like original:1.');
    expect(refusal(() => typedFields(hot, 'original:12 original:10'))).toBe('`fields`: `original` is given twice.');
    expect(refusal(() => typedFields(hot, 'counter:German 4-6-7'))).toBe(
      '`fields`: counter is not a field of a Hearts of Tin unit (its fields: quality, band, brigade, original, strength, disorder).',
    );
    expect(refusal(() => typedFields(hot, 'quality:veteran'))).toBe(
      '`fields`: quality must be one of regular, elite, militia, irregular (you gave "veteran").',
    );
    expect(refusal(() => typedFields(hot, 'original:0'))).toBe('`fields`: original must be a whole number from 1 to 100000 (you gave "0").');
    expect(refusal(() => typedFields(hot, 'original:'))).toBe('`fields`: original must be a whole number from 1 to 100000 (you gave "").');
    expect(refusal(() => typedFields(hot, 'original:"12'))).toBe('`fields`: a " quote is not closed.');
  });

  it('a new unit needs its required fields, gets the defaults, and is checked whole', () => {
    expect(newUnitFields(hot, { original: 12 })).toEqual({ quality: 'regular', band: false, brigade: null, disorder: 0, strength: 12, original: 12 });
    expect(refusal(() => newUnitFields(hot, {}))).toBe('A Hearts of Tin unit needs original in `fields`, like fields:"original:1".');
    expect(refusal(() => newUnitFields(hot, { original: 4, strength: 5 }))).toBe('`fields`: strength (5) cannot be more than original (4).');
    expect(newUnitFields(asl, { counter: 'ge 467' })).toMatchObject({ counter: 'German 4-6-7', broken: false });
    expect(refusal(() => newUnitFields(war, { attack: 1, defense: 1, movement: 1, fatigue: 'resting', mode: 'combat_reserve' }))).toBe(
      'A resting unit may not enter Combat Reserve mode (13.1.1).',
    );
  });

  it('an edit changes only what is given, and the whole is checked again', () => {
    const now = newUnitFields(hot, { original: 10 });
    expect(editedFields(hot, now, { disorder: 3 })).toEqual({ ...now, disorder: 3 });
    expect(refusal(() => editedFields(hot, now, { strength: 11 }))).toBe('`fields`: strength (11) cannot be more than original (10).');
  });
});

describe('fields offered as you type', () => {
  it('the fields not yet given, a short choice list spelled out', () => {
    const names = fieldChoices(hot.fields, '').map((c) => c.value);
    expect(names).toEqual([
      'quality:regular',
      'quality:elite',
      'quality:militia',
      'quality:irregular',
      'band:true',
      'band:false',
      'brigade:',
      'original:',
      'strength:',
      'disorder:',
    ]);
    expect(fieldChoices(hot.fields, 'original:12 ')).toContainEqual({
      name: 'original:12 strength: a whole number from 0 to 100000',
      value: 'original:12 strength:',
    });
    expect(fieldChoices(hot.fields, 'original:12 ').map((c) => c.value)).not.toContain('original:12 original:');
  });

  it('the values of the field being typed', () => {
    expect(fieldChoices(hot.fields, 'original:12 quality:e')).toEqual([{ name: 'original:12 quality:elite', value: 'original:12 quality:elite' }]);
    // What a field takes is said in the player's language, the field named as their client names options.
    expect(fieldChoices(hot.fields, 'orig', 'de')).toEqual([{ name: 'ursprünglich: eine ganze Zahl von 1 bis 100000', value: 'ursprünglich:' }]);
    expect(fieldChoices(hot.fields, 'urspr', 'de')).toEqual([{ name: 'ursprünglich: eine ganze Zahl von 1 bis 100000', value: 'ursprünglich:' }]);
    expect(fieldChoices(hot.fields, 'orig', 'fr')).toEqual([{ name: 'initial: un nombre entier de 1 à 100000', value: 'initial:' }]);
    expect(fieldChoices(hot.fields, 'orig')).toEqual([{ name: 'original: a whole number from 1 to 100000', value: 'original:' }]);
    expect(fieldChoices(war.fields, 'mode:')).toHaveLength(6);
    expect(fieldChoices(war.fields, 'mo').map((c) => c.name)).toEqual([
      'movement: a whole number from 0 to 99',
      'mode:tactical',
      'mode:prepared_assault',
      'mode:strategic',
      'mode:exploitation',
      'mode:maneuver_reserve',
      'mode:combat_reserve',
    ]);
    // Nothing past Discord's 100 characters a choice.
    expect(fieldChoices(hot.fields, `brigade:${'x'.repeat(90)} `).every((c) => c.value.length <= 100)).toBe(true);
  });
});
