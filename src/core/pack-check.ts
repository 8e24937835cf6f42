import type { Worker } from 'node:worker_threads';
import type { PackLoad } from '../rules/packs/checked.js';
import type { TakenNames } from '../rules/packs/reserved.js';
import { besideModule, startWorker } from '../util/worker.js';

/**
 * Past this, a pack's check is stopped and the pack refused. The check's own work is bounded (its
 * limits are counted before it runs, well under a second); this stops anything those limits missed
 * from holding the checker, never the bot.
 */
export const CHECK_TIMEOUT_MS = 10_000;
/** A checker left idle this long is ended (a new one starts at the next install, in about half a second). */
const IDLE_MS = 10 * 60_000;

type Asked = { resolve: (l: PackLoad) => void; reject: (e: Error) => void };

/**
 * The worker thread packs are checked in, started at the first install and kept warm: starting one
 * (zod, the YAML parser and the checks loaded) costs more than checking most packs. Checks go one
 * at a time, so two GMs installing at once never take both cores from the bot.
 */
class Checker {
  private worker: Worker | undefined;
  private asked = new Map<number, Asked>();
  private next = 0;
  private idle: NodeJS.Timeout | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  check(text: string, taken: [string, string][]): Promise<PackLoad> {
    const run = () => this.ask(text, taken);
    const done = this.queue.then(run, run);
    this.queue = done.catch(() => undefined);
    return done;
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const w = startWorker(besideModule(import.meta.url, 'pack-check-worker'), undefined, { maxOldGenerationSizeMb: 256 });
    w.on('message', (m: { id: number; result?: PackLoad; error?: string }) => {
      const a = this.asked.get(m.id);
      this.asked.delete(m.id);
      if (m.error === undefined) a?.resolve(m.result!);
      else a?.reject(new Error(`the pack check: ${m.error}`));
    });
    // Stopped (the timeout, its memory limit) or crashed: what it was asked is refused, and the next install starts a new one.
    const ended = (err?: Error) => {
      if (this.worker === w) this.worker = undefined;
      const stopped = !err || (err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      for (const a of this.asked.values())
        if (stopped) a.resolve(STOPPED);
        else a.reject(err);
      this.asked.clear();
    };
    w.on('error', ended);
    w.on('exit', () => ended());
    // After the listeners (a 'message' listener refs the worker's port again): a warm checker never keeps a process alive.
    w.unref();
    this.worker = w;
    return w;
  }

  private ask(text: string, commands: [string, string][]): Promise<PackLoad> {
    const w = this.started();
    const id = this.next++;
    clearTimeout(this.idle);
    return new Promise<PackLoad>((resolve, reject) => {
      const timer = setTimeout(() => void w.terminate(), CHECK_TIMEOUT_MS);
      const settle = () => {
        clearTimeout(timer);
        this.idle = setTimeout(() => void this.worker?.terminate(), IDLE_MS).unref();
      };
      this.asked.set(id, {
        resolve: (l) => {
          settle();
          resolve(l);
        },
        reject: (e) => {
          settle();
          reject(e);
        },
      });
      w.postMessage({ id, text, commands });
    });
  }
}

const STOPPED: PackLoad = {
  ok: false,
  problems: [`the file: checking it took longer than ${CHECK_TIMEOUT_MS / 1000} s, or more memory than a pack may; it was stopped`],
};

const checker = new Checker();

/**
 * loadPack in a worker thread: the event loop goes on serving every server while a pack is parsed
 * and checked. A check that overruns CHECK_TIMEOUT_MS is stopped and the pack refused.
 */
export function loadPackInWorker(text: string, commands: TakenNames): Promise<PackLoad> {
  const taken = commands instanceof Map ? [...commands] : (commands as readonly string[]).map((c): [string, string] => [c, '']);
  return checker.check(text, taken);
}
