/**
 * French typography, applied to every French sentence by one formatter rather than by hand: a
 * narrow no-break space (U+202F) before : ; ! ? and %, so "Système :" and "Alliés :" agree and a
 * line never breaks before the mark. Code (`fields:x`, a table in a code block), name:value
 * syntax, times (18:00) and links are left as they are.
 */
export const NARROW_NBSP = '\u202f';

const CODE = /(```[\s\S]*?```|`[^`\n]*`)/;

function prose(text: string, afterCode: boolean): string {
  return (
    // A mark right after code (`champs` : …) takes the space too.
    (afterCode ? text.replace(/^([:;!?])(?=\s|$)/, `${NARROW_NBSP}$1`) : text)
      // A space (plain or no-break) already there becomes the narrow one.
      .replace(/[ \u00a0\u202f]+([:;!?])(?=\s|$|[)*_»"”’])/g, `${NARROW_NBSP}$1`)
      // None yet, after a word or a closing mark: one is added, but only where the mark ends a clause.
      .replace(/([^\s\u202f:;!?/\\([{<])([:;!?])(?=\s|$)/g, `$1${NARROW_NBSP}$2`)
      // A number, or the placeholder a page fills with one ("{pct} %").
      .replace(/(\d|\})[ \u00a0\u202f]?%/g, `$1${NARROW_NBSP}%`)
  );
}

/** The text with French spacing before its high punctuation and its percent signs, code untouched. */
export function frenchTypography(text: string): string {
  return text
    .split(CODE)
    .map((part, i) => (i % 2 ? part : prose(part, i > 0)))
    .join('');
}
