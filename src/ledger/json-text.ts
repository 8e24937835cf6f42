/** Finding where a value ends in canonical JSON text (RFC 8785: no whitespace), without parsing it. */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The end (exclusive) of the JSON string starting at `i`, -1 if it has none. */
export function stringEnd(text: string, i: number): number {
  for (let j = text.indexOf('"', i + 1); j >= 0; j = text.indexOf('"', j + 1)) {
    let slashes = 0;
    while (text.charCodeAt(j - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return j + 1;
  }
  return -1;
}

/** The end (exclusive) of the JSON value of canonical text starting at `i`, -1 if it has none. */
export function valueEnd(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return stringEnd(text, i);
  if (c !== 0x7b && c !== 0x5b) {
    let j = i;
    for (let d = c; j < text.length && d !== 0x2c && d !== 0x7d && d !== 0x5d; d = text.charCodeAt(++j));
    return j;
  }
  // A container ends where its brackets balance, strings skipped whole (a loop over the characters:
  // a regular expression run to the next quote or bracket cost more than reading them).
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const d = text.charCodeAt(j);
    if (d === QUOTE) {
      const end = stringEnd(text, j);
      if (end < 0) return -1;
      j = end - 1;
    } else if (d === 0x7b || d === 0x5b) depth++;
    else if ((d === 0x7d || d === 0x5d) && --depth === 0) return j + 1;
  }
  return -1;
}
