import { createRequire } from 'node:module';

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
const H = 400;
const PAD = { left: 56, right: 16, top: 40, bottom: 130 };

/**
 * One palette for both of Discord's themes: a dark panel with light text reads on the dark theme
 * and stands out as a card on the light one (a white chart glared on dark mode, issue 30).
 */
export const CHART_THEME = { background: '#2b2d31', text: '#f2f3f5', muted: '#b5bac1', grid: '#4e5058' } as const;

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

export function chartSvg(spec: ChartSpec): string {
  const fmt = spec.format ?? ((v: number) => String(Math.round(v * 100) / 100));
  const max = Math.max(1e-9, ...spec.series.flatMap((s) => s.values));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const groupW = plotW / Math.max(1, spec.labels.length);
  const barW = (groupW * 0.8) / Math.max(1, spec.series.length);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="DejaVu Sans, Arial, sans-serif">`,
    `<rect width="${W}" height="${H}" fill="${CHART_THEME.background}"/>`,
    `<text x="${W / 2}" y="24" font-size="16" text-anchor="middle" fill="${CHART_THEME.text}">${esc(spec.title)}</text>`,
  ];
  for (let t = 0; t <= 4; t++) {
    const v = (max * t) / 4;
    const y = PAD.top + plotH - (plotH * t) / 4;
    parts.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y}" y2="${y}" stroke="${CHART_THEME.grid}"/>`);
    parts.push(`<text x="${PAD.left - 6}" y="${y + 4}" font-size="11" text-anchor="end" fill="${CHART_THEME.muted}">${esc(fmt(v))}</text>`);
  }
  spec.labels.forEach((label, i) => {
    const x0 = PAD.left + i * groupW + groupW * 0.1;
    spec.series.forEach((s, j) => {
      const v = s.values[i] ?? 0;
      const h = (plotH * v) / max;
      parts.push(`<rect x="${x0 + j * barW}" y="${PAD.top + plotH - h}" width="${barW - 2}" height="${h}" fill="${s.colour}"/>`);
    });
    // Labels slant so that long result names never run into each other.
    const cx = PAD.left + i * groupW + groupW / 2;
    const y = H - PAD.bottom + 14;
    parts.push(`<text x="${cx}" y="${y}" font-size="11" text-anchor="end" transform="rotate(-35 ${cx} ${y})" fill="${CHART_THEME.text}">${esc(label)}</text>`);
  });
  if (spec.series.length > 1) {
    spec.series.forEach((s, j) => {
      const x = PAD.left + j * 140;
      parts.push(`<rect x="${x}" y="${H - 28}" width="12" height="12" fill="${s.colour}"/>`);
      parts.push(`<text x="${x + 18}" y="${H - 18}" font-size="12" fill="${CHART_THEME.text}">${esc(s.name)}</text>`);
    });
  }
  parts.push('</svg>');
  return parts.join('');
}

/** The chart in words, for the attachment's alt text (screen readers, and Discord's "description"): ≤ 1,024 characters. */
export function chartAlt(spec: ChartSpec): string {
  const fmt = spec.format ?? ((v: number) => String(Math.round(v * 100) / 100));
  const series = spec.series.map((s) => `${s.name}: ${spec.labels.map((l, i) => `${l} ${fmt(s.values[i] ?? 0)}`).join(', ')}`);
  const text = `Bar chart, ${spec.title}. ${series.join('. ')}.`;
  return text.length <= 1024 ? text : `${text.slice(0, 1023)}…`;
}

/**
 * The chart as PNG, rasterised on libuv's thread pool (renderAsync): loading the system's fonts and
 * drawing took 200 ms, and on the thread that serves every server it stalled them all (issue 29).
 */
export async function chartPng(spec: ChartSpec): Promise<Buffer> {
  resvg ??= load('@resvg/resvg-js') as typeof import('@resvg/resvg-js');
  const image = await resvg.renderAsync(chartSvg(spec), { font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } });
  return Buffer.from(image.asPng());
}
