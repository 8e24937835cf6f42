/**
 * The one reader of an export's bytes, for every verifier (npm run verify, verify.html, and each of
 * their worker threads): the file is cut into lines the same way everywhere, so no door can read a
 * file another reads differently. The rules, one verdict each:
 * - UTF-8 only: bytes that are not UTF-8 stop the reading, named by the line they are on.
 * - A byte-order mark at the very start is skipped (an editor on Windows adds one), and said.
 * - A line ends at LF; a CR just before that LF belongs to the line end (CRLF). Any other CR is the
 *   line's own: between two JSON values it is whitespace, inside a string JSON refuses it, and lone
 *   CR line ends (old Macs) make the whole file one line, which is no ledger row.
 * - The last line needs no LF.
 * Bytes are decoded a run of whole lines at a time (an LF is never inside a UTF-8 sequence), so a
 * chunk's decoding needs nothing of the chunk before it.
 */
const LF = 0x0a;
const CR = '\r';
const BOM = '\uFEFF';

export type LineSink = (line: string, lineNo: number) => void;
/** Bytes as text, or undefined when they are not UTF-8. Node's Buffer splits its output much faster than TextDecoder's. */
export type Utf8 = (bytes: Uint8Array) => string | undefined;

const webDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** The browser's way (and the default): TextDecoder, refusing what is not UTF-8. */
export const webUtf8: Utf8 = (bytes) => {
  try {
    return webDecoder.decode(bytes);
  } catch {
    return undefined;
  }
};

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export class LineSplitter {
  /** Bytes after the last LF seen: the start of a line still to come. */
  private pending: Uint8Array[] = [];
  private lineNo: number;
  private started = false;
  /** True when the file began with a byte-order mark (skipped). */
  bom = false;
  /** Why the bytes could not be read (not UTF-8), once they could not; nothing is read after it. */
  failure: string | undefined;

  /** `firstLine`: the number of the first line this splitter sees; `atStart`: these bytes begin the file. */
  constructor(
    private readonly sink: LineSink,
    firstLine = 1,
    private readonly atStart = true,
    private readonly utf8: Utf8 = webUtf8,
  ) {
    this.lineNo = firstLine;
  }

  push(bytes: Uint8Array): void {
    if (this.failure || !bytes.length) return;
    const lf = bytes.lastIndexOf(LF);
    if (lf < 0) {
      this.pending.push(Uint8Array.prototype.slice.call(bytes));
      return;
    }
    // Only the line that straddles the chunks is copied together; the rest is read where it lies.
    const first = this.pending.length ? bytes.indexOf(LF) : -1;
    if (first >= 0) this.read(concat([...this.pending, bytes.subarray(0, first + 1)]), true);
    if (lf > first) this.read(bytes.subarray(first + 1, lf + 1), true);
    // A copy of the tail (a part of one line): the caller may reuse its chunk's memory.
    this.pending = lf + 1 < bytes.length ? [Uint8Array.prototype.slice.call(bytes, lf + 1)] : [];
  }

  end(): void {
    if (this.failure || !this.pending.length) return;
    const rest = concat(this.pending);
    this.pending = [];
    this.read(rest, false);
  }

  /** The number the next line would have. */
  get lines(): number {
    return this.lineNo;
  }

  private read(bytes: Uint8Array, endsWithLf: boolean): void {
    if (this.failure) return;
    let text = this.utf8(bytes);
    if (text === undefined) {
      // The lines before the bad bytes are read, so the failure names the line they are on.
      const good = bytes.subarray(0, firstInvalidUtf8(bytes));
      const upTo = good.lastIndexOf(LF);
      if (upTo >= 0) this.read(good.subarray(0, upTo + 1), true);
      this.failure = `line ${this.lineNo} is not UTF-8 text: an export is UTF-8 JSON Lines`;
      return;
    }
    if (!this.started) {
      this.started = true;
      if (this.atStart && text.startsWith(BOM)) {
        this.bom = true;
        text = text.slice(1);
      }
    }
    const parts = text.split('\n');
    if (endsWithLf) parts.pop();
    for (const line of parts) this.sink(line.endsWith(CR) ? line.slice(0, -1) : line, this.lineNo++);
  }
}

/** The index of the first byte that does not start or continue a valid UTF-8 sequence (the length when all are valid). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    const n = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (!n) return i;
    for (let k = 1; k < n; k++) if (i + k >= bytes.length || (bytes[i + k]! & 0xc0) !== 0x80) return i;
    i += n;
  }
  return bytes.length;
}
