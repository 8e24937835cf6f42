import type { CheckRequest, WorkerMessage } from './worker.js';
import { fill, PAGE_WORDS, pageLanguage, pageLocale, sizeText } from './words.js';

/**
 * verify.html's page: takes the export (dropped or picked), a pinned head, a receipt and a key,
 * hands them to the worker (its source is inlined by the build as WORKER_SOURCE, started from a
 * blob: URL: no network), and shows what it reports, line for line as `npm run verify` prints it.
 */
declare const WORKER_SOURCE: string;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
let chosen: File | undefined;

// The reader's language, from the browser; the page was written in English.
const languages = navigator.languages ?? [navigator.language];
const lang = pageLanguage(languages);
const locale = pageLocale(languages, lang);
const w = PAGE_WORDS[lang];
document.documentElement.lang = lang;
document.title = w.title;
document.querySelectorAll<HTMLElement>('[data-w]').forEach((el) => {
  el.textContent = w[el.dataset.w as keyof typeof w];
});
// Our own words, with their <code> marks: no text from a file ever goes in here.
$('intro').innerHTML = w.intro;
$('file').setAttribute('aria-label', w.fileLabel);

function choose(file: File | undefined) {
  chosen = file;
  $('chosen').textContent = file ? `${file.name} (${sizeText(file.size, locale)})` : w.noneChosen;
}

function show(el: HTMLElement, ok: boolean, lines: string[]) {
  el.textContent = lines.join('\n');
  el.className = ok ? 'ok' : 'bad';
}

function onMessage(m: WorkerMessage) {
  const progress = $<HTMLProgressElement>('progress');
  if (m.type === 'progress') {
    progress.hidden = false;
    progress.value = m.total ? m.read / m.total : 1;
    $('status').textContent = fill(w.reading, { pct: Math.round((100 * m.read) / Math.max(1, m.total)) });
  } else if (m.type === 'report') {
    show($('report'), m.ok, m.lines);
    $('heads').textContent = m.heads.length ? fill(w.heads, { heads: m.heads.join(', ') }) : '';
    $('verdict').textContent = m.ok ? w.verified : w.notVerified;
    $('verdict').className = m.ok ? 'ok' : 'bad';
  } else if (m.type === 'receipt') show($('receipt-report'), m.ok, m.lines);
  else {
    $('status').textContent = fill(w.done, { ms: m.ms });
    $<HTMLButtonElement>('check').disabled = false;
    document.body.dataset.done = 'true';
  }
}

function check() {
  const req: CheckRequest = {
    head: $<HTMLInputElement>('head').value,
    receipt: $<HTMLTextAreaElement>('receipt').value,
    key: $<HTMLInputElement>('key').value,
    discordKey: $<HTMLInputElement>('discord-key').value.trim(),
  };
  if (chosen) req.file = chosen;
  if (!req.file && !req.receipt?.trim()) {
    $('status').textContent = w.chooseFirst;
    return;
  }
  // The key's form only, said in the reader's words; the worker pins it as npm run verify's --discord-key does.
  if (req.discordKey && !/^[0-9a-f]{64}$/i.test(req.discordKey)) {
    $('status').textContent = w.discordKeyBad;
    return;
  }
  for (const id of ['report', 'receipt-report', 'verdict', 'heads']) $(id).textContent = '';
  delete document.body.dataset.done;
  $<HTMLButtonElement>('check').disabled = true;
  // The worker's own source goes with the request: a large export is walked by copies of it, in ranges.
  req.workerSource = WORKER_SOURCE;
  const worker = new Worker(URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'text/javascript' })));
  worker.onmessage = (e: MessageEvent<WorkerMessage>) => {
    onMessage(e.data);
    if (e.data.type === 'done') worker.terminate();
  };
  worker.postMessage(req);
}

const drop = $('drop');
drop.addEventListener('dragover', (e) => {
  e.preventDefault();
  drop.classList.add('over');
});
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  choose(e.dataTransfer?.files[0]);
});
$<HTMLInputElement>('file').addEventListener('change', (e) => choose((e.target as HTMLInputElement).files?.[0]));
$('check').addEventListener('click', check);
