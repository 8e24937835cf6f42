import { createRequire } from 'node:module';
import { figuresIn, say } from '../i18n/reader.js';

// Loaded on first use: most processes never draw a chart, and the renderer is large.
const load = createRequire(import.meta.url);
let resvg: typeof import('@resvg/resvg-js') | undefined;

/** A bar chart, drawn as SVG and rasterised server-side by resvg (no browser). */
export type ChartSpec = {
  title: string;
  /** One label per group of bars (a result, a die face). */
  labels: string[];
  /** One series per bar in a group (observed, expected …), each a value per label. */
  series: { name: string; values: number[]; colour: string }[];
  /** How values read on the axis (e.g. as percentages). */
  format?: (v: number) => string;
};

const W = 640;
/** Discord shows an embed's image at most 400 px wide: every text is sized to read at 12 px or more there. */
export const DISPLAY_WIDTH = 400;
export const MIN_DISPLAY_TEXT = 12;
const TEXT = Math.ceil((MIN_DISPLAY_TEXT * W) / DISPLAY_WIDTH) + 1;
const TITLE = TEXT + 2;
const PAD = 16;
const BAR = 18;

/**
 * One palette for both of Discord's themes: a dark panel with light text reads on the dark theme
 * and stands out as a card on the light one (a white chart glared on dark mode).
 */
export const CHART_THEME = { background: '#2b2d31', text: '#f2f3f5', muted: '#b5bac1', grid: '#4e5058' } as const;

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
/** Characters of TEXT-sized type that fit in `px` (an average glyph is about 0.58 of the size). */
const fits = (px: number, size = TEXT) => Math.floor(px / (size * 0.58));
const clipTo = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

/** Words broken into lines of at most `n` characters. */
function wrap(text: string, n: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && `${last} ${word}`.length <= n) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/**
 * A horizontal bar chart, read at phone width: one row per label (short labels beside their bars,
 * long ones on a line above them), each series a bar with its value written at its end; no rotated
 * text, every text at least 12 px at the size Discord shows the image.
 */
/** A bar's value as the reader's language writes numbers (0,25 to a German or French reader). */
const plainFormat = (v: number) => figuresIn(String(Math.round(v * 100) / 100));

export function chartSvg(spec: ChartSpec): string {
  const fmt = spec.format ?? plainFormat;
  const max = Math.max(1e-9, ...spec.series.flatMap((s) => s.values));
  const beside = spec.labels.every((l) => l.length <= 6);
  const labelW = beside ? Math.max(...spec.labels.map((l) => l.length), 1) * TEXT * 0.62 + 12 : 0;
  const valueW = TEXT * 3.6;
  const barMax = W - 2 * PAD - labelW - valueW;
  const title = wrap(spec.title, fits(W - 2 * PAD, TITLE));
  const legend = spec.series.length > 1 ? spec.series : [];
  let y = PAD + title.length * (TITLE + 6) + legend.length * (TEXT + 8) + 8;
  const top = y;
  const rowH = (beside ? 0 : TEXT + 6) + spec.series.length * (BAR + 4) + 10;
  const H = top + spec.labels.length * rowH + PAD;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="DejaVu Sans, Arial, sans-serif">`,
    `<rect width="${W}" height="${H}" fill="${CHART_THEME.background}"/>`,
    ...title.map((line, i) => `<text x="${PAD}" y="${PAD + TITLE + i * (TITLE + 6)}" font-size="${TITLE}" fill="${CHART_THEME.text}">${esc(line)}</text>`),
  ];
  legend.forEach((s, j) => {
    const ly = PAD + title.length * (TITLE + 6) + j * (TEXT + 8) + 6;
    parts.push(`<rect x="${PAD}" y="${ly}" width="${TEXT}" height="${TEXT}" fill="${s.colour}"/>`);
    parts.push(
      `<text x="${PAD + TEXT + 8}" y="${ly + TEXT - 3}" font-size="${TEXT}" fill="${CHART_THEME.text}">${esc(clipTo(s.name, fits(W - 3 * PAD)))}</text>`,
    );
  });
  spec.labels.forEach((label, i) => {
    y = top + i * rowH;
    if (!beside) parts.push(`<text x="${PAD}" y="${y + TEXT}" font-size="${TEXT}" fill="${CHART_THEME.text}">${esc(clipTo(label, fits(W - 2 * PAD)))}</text>`);
    const barsTop = beside ? y : y + TEXT + 6;
    if (beside)
      parts.push(
        `<text x="${PAD + labelW - 12}" y="${barsTop + BAR - 2}" font-size="${TEXT}" text-anchor="end" fill="${CHART_THEME.text}">${esc(label)}</text>`,
      );
    spec.series.forEach((s, j) => {
      const v = s.values[i] ?? 0;
      const by = barsTop + j * (BAR + 4);
      const w = Math.max(1, (barMax * v) / max);
      parts.push(`<rect x="${PAD + labelW}" y="${by}" width="${w}" height="${BAR}" fill="${s.colour}"/>`);
      parts.push(`<text x="${PAD + labelW + w + 6}" y="${by + BAR - 2}" font-size="${TEXT}" fill="${CHART_THEME.muted}">${esc(fmt(v))}</text>`);
    });
  });
  parts.push('</svg>');
  return parts.join('');
}

/** The chart in words, for the attachment's alt text (screen readers, and Discord's "description"): ≤ 1,024 characters. */
export function chartAlt(spec: ChartSpec): string {
  const fmt = spec.format ?? plainFormat;
  const series = spec.series.map((s) => `${s.name}: ${spec.labels.map((l, i) => `${l} ${fmt(s.values[i] ?? 0)}`).join(', ')}`);
  const text = say('chart.alt', { title: spec.title, series: series.join('. ') });
  return text.length <= 1024 ? text : `${text.slice(0, 1023)}…`;
}

/**
 * The chart as PNG, rasterised on libuv's thread pool (renderAsync): loading the system's fonts and
 * drawing took 200 ms, and on the thread that serves every server it stalled them all.
 */
export async function chartPng(spec: ChartSpec): Promise<Buffer> {
  resvg ??= load('@resvg/resvg-js') as typeof import('@resvg/resvg-js');
  const image = await resvg.renderAsync(chartSvg(spec), { font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } });
  return Buffer.from(image.asPng());
}
