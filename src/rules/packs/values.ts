/** An option's or a text field's value as a pack's conditions compare it. */
export type OptionValue = string | number | boolean;
