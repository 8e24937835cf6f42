import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A file written a piece at a time (a chunk of an export's rows), each piece as it comes: nothing of
 * it waits in memory. Gathering a MiB before each write saved disk round trips but cost resident
 * memory during /export, where memory is the bound that matters (the bench's export line).
 */
export class SpoolFile {
  bytes = 0;
  constructor(
    readonly name: string,
    readonly path: string,
    private readonly handle: fs.promises.FileHandle,
  ) {}

  // Written as a string: Node encodes it outside the JS heap and frees it when the write is done,
  // where a Buffer made here would wait for the garbage collector (RSS during /export).
  async write(text: string): Promise<void> {
    this.bytes += Buffer.byteLength(text, 'utf8');
    if (text) await this.handle.write(text, null, 'utf8');
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}

/**
 * Files in a private temporary folder (an export of a whole ledger): the folder is removed when the
 * reply that carries them has been sent, or at once when the work fails half-way.
 */
export class Spool {
  private readonly files: SpoolFile[] = [];
  private constructor(readonly dir: string) {}

  static async create(): Promise<Spool> {
    return new Spool(await fs.promises.mkdtemp(path.join(os.tmpdir(), SPOOL_PREFIX)));
  }

  async file(name: string): Promise<SpoolFile> {
    const file = path.join(this.dir, path.basename(name));
    const f = new SpoolFile(name, file, await fs.promises.open(file, 'wx', 0o600));
    this.files.push(f);
    return f;
  }

  /** Closes every file (they stay, for the reply). */
  async close(): Promise<void> {
    await Promise.all(this.files.map((f) => f.close().catch(() => undefined)));
  }

  /** Closes and removes everything. */
  async discard(): Promise<void> {
    await this.close();
    await fs.promises.rm(this.dir, { recursive: true, force: true });
  }
}

export const SPOOL_PREFIX = 'morale-officer-spool-';

/**
 * Removes a spooled file and its folder, off the thread (freeing a 1,000,000-row export's blocks
 * took 100 ms of it); the promise says when it is gone. A path outside a Spool's folder is left alone.
 */
export function removeSpooled(file: string): Promise<void> {
  const dir = path.dirname(file);
  if (path.dirname(dir) !== path.resolve(os.tmpdir()) || !path.basename(dir).startsWith(SPOOL_PREFIX)) return Promise.resolve();
  return fs.promises.rm(dir, { recursive: true, force: true }).catch(() => undefined);
}
