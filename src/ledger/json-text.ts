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

/** The next quote or bracket: the only characters a container's end depends on. */
const STRUCTURE = /["{}[\]]/g;

/** The end (exclusive) of the JSON value of canonical text starting at `i`, -1 if it has none. */
export function valueEnd(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return stringEnd(text, i);
  if (c !== 0x7b && c !== 0x5b) {
    let j = i;
    for (let d = c; j < text.length && d !== 0x2c && d !== 0x7d && d !== 0x5d; d = text.charCodeAt(++j));
    return j;
  }
  let depth = 0;
  for (let j = i; ; ) {
    STRUCTURE.lastIndex = j;
    const m = STRUCTURE.exec(text);
    if (!m) return -1;
    const d = text.charCodeAt(m.index);
    if (d === QUOTE) {
      j = stringEnd(text, m.index);
      if (j < 0) return -1;
      continue;
    }
    j = m.index + 1;
    if (d === 0x7b || d === 0x5b) depth++;
    else if (--depth === 0) return j;
  }
}
