/** Small inline SVG charts for the HTML report: no scripts, no external assets. */

export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

export interface BarSeries {
  name: string;
  color: string;
}

export interface BarGroup {
  label: string;
  /** One value per series, in series order, in 0..max; `null` draws no bar. */
  values: (number | null)[];
}

const LABEL_WIDTH = 130;
const BAR_WIDTH = 320;

/** Horizontal grouped bars: one group per label, one bar per series, with a legend. */
export function barChart(options: { title: string; series: BarSeries[]; groups: BarGroup[]; max?: number }): string {
  const { title, series, groups } = options;
  const max = options.max ?? 1;
  const barHeight = 12;
  const groupHeight = series.length * (barHeight + 2) + 8;
  const top = 28 + 16;
  const height = top + groups.length * groupHeight + 8;
  const width = LABEL_WIDTH + BAR_WIDTH + 60;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="${escapeXml(title)}">`,
    `<text x="0" y="16" font-size="14" font-weight="bold">${escapeXml(title)}</text>`,
  ];
  series.forEach((s, i) => {
    const x = LABEL_WIDTH + i * 150;
    parts.push(`<rect x="${x}" y="24" width="10" height="10" fill="${s.color}"/>`);
    parts.push(`<text x="${x + 14}" y="33" font-size="11">${escapeXml(s.name)}</text>`);
  });
  groups.forEach((group, g) => {
    const y0 = top + g * groupHeight;
    parts.push(
      `<text x="${LABEL_WIDTH - 6}" y="${y0 + groupHeight / 2}" font-size="12" text-anchor="end">${escapeXml(group.label)}</text>`,
    );
    group.values.forEach((value, i) => {
      if (value === null) return;
      const y = y0 + i * (barHeight + 2);
      const w = Math.max(0, Math.min(1, value / max)) * BAR_WIDTH;
      const color = series[i]?.color ?? "#888";
      parts.push(`<rect x="${LABEL_WIDTH}" y="${y}" width="${w.toFixed(1)}" height="${barHeight}" fill="${color}"/>`);
      parts.push(`<text x="${LABEL_WIDTH + w + 4}" y="${y + barHeight - 2}" font-size="10">${value.toFixed(2)}</text>`);
    });
  });
  parts.push("</svg>");
  return parts.join("");
}

/** A histogram of values in `bins` equal-width bins from 0 to the largest value. */
export function histogram(options: { title: string; values: number[]; bins?: number; unit?: string }): string {
  const { title, values } = options;
  const bins = Math.max(1, options.bins ?? 10);
  const unit = options.unit ?? "";
  const width = 520;
  const height = 220;
  const left = 40;
  const bottom = height - 36;
  const plotWidth = width - left - 10;
  const plotHeight = bottom - 30;
  const maxValue = Math.max(1, ...values);
  const size = maxValue / bins;
  const counts = new Array<number>(bins).fill(0);
  for (const v of values) counts[Math.min(bins - 1, Math.floor(v / size))]!++;
  const maxCount = Math.max(1, ...counts);
  const barWidth = plotWidth / bins;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="${escapeXml(title)}">`,
    `<text x="0" y="16" font-size="14" font-weight="bold">${escapeXml(title)}</text>`,
    `<line x1="${left}" y1="${bottom}" x2="${width - 10}" y2="${bottom}" stroke="#444"/>`,
    `<text x="${left - 4}" y="34" font-size="10" text-anchor="end">${maxCount}</text>`,
    `<text x="${left - 4}" y="${bottom}" font-size="10" text-anchor="end">0</text>`,
  ];
  counts.forEach((count, i) => {
    const h = (count / maxCount) * plotHeight;
    const x = left + i * barWidth;
    parts.push(
      `<rect x="${(x + 1).toFixed(1)}" y="${(bottom - h).toFixed(1)}" width="${(barWidth - 2).toFixed(1)}" height="${h.toFixed(1)}" fill="#4a7bd0"><title>${count} in ${Math.round(i * size)}-${Math.round((i + 1) * size)}${unit}</title></rect>`,
    );
  });
  for (const i of [0, Math.floor(bins / 2), bins]) {
    parts.push(
      // The last label ends at the axis end, so it is not cut off by the edge of the picture.
      `<text x="${(left + i * barWidth).toFixed(1)}" y="${bottom + 14}" font-size="10" text-anchor="${i === bins ? "end" : i === 0 ? "start" : "middle"}">${Math.round(i * size)}${unit}</text>`,
    );
  }
  parts.push("</svg>");
  return parts.join("");
}

/** A line through (x, y) points in 0..1 on both axes, with axis labels (the risk–coverage curve). */
export function lineChart(options: {
  title: string;
  points: { x: number; y: number }[];
  xLabel: string;
  yLabel: string;
}): string {
  const { title, points } = options;
  const width = 420;
  const height = 260;
  const left = 44;
  const bottom = height - 40;
  const top = 30;
  const plotWidth = width - left - 16;
  const plotHeight = bottom - top;
  const px = (x: number) => (left + Math.max(0, Math.min(1, x)) * plotWidth).toFixed(1);
  const py = (y: number) => (bottom - Math.max(0, Math.min(1, y)) * plotHeight).toFixed(1);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="${escapeXml(title)}">`,
    `<text x="0" y="16" font-size="14" font-weight="bold">${escapeXml(title)}</text>`,
    `<line x1="${left}" y1="${bottom}" x2="${left + plotWidth}" y2="${bottom}" stroke="#444"/>`,
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${bottom}" stroke="#444"/>`,
    `<text x="${left - 4}" y="${top + 4}" font-size="10" text-anchor="end">1</text>`,
    `<text x="${left - 4}" y="${bottom}" font-size="10" text-anchor="end">0</text>`,
    `<text x="${left + plotWidth}" y="${bottom + 14}" font-size="10" text-anchor="end">1</text>`,
    `<text x="${left + plotWidth / 2}" y="${bottom + 28}" font-size="11" text-anchor="middle">${escapeXml(options.xLabel)}</text>`,
    `<text x="12" y="${top + plotHeight / 2}" font-size="11" text-anchor="middle" transform="rotate(-90 12 ${top + plotHeight / 2})">${escapeXml(options.yLabel)}</text>`,
  ];
  if (points.length > 0) {
    const path = points.map((p, i) => `${i === 0 ? "M" : "L"}${px(p.x)},${py(p.y)}`).join(" ");
    parts.push(`<path d="${path}" fill="none" stroke="#4a7bd0" stroke-width="2"/>`);
    for (const p of points) parts.push(`<circle cx="${px(p.x)}" cy="${py(p.y)}" r="2.5" fill="#4a7bd0"/>`);
  } else {
    parts.push(`<text x="${left + 8}" y="${top + 20}" font-size="11">no answer carried a confidence</text>`);
  }
  parts.push("</svg>");
  return parts.join("");
}
