import type { MetricFormat } from "./aggregate.js";

/** A metric value for people: ratios to 3 places, means of counts to 2, milliseconds whole, dollars to 4. */
export function formatValue(value: number | null | undefined, format: MetricFormat): string {
  if (value === null || value === undefined) return "-";
  switch (format) {
    case "ratio":
      return value.toFixed(3);
    case "count":
      return Number.isInteger(value) ? String(value) : value.toFixed(2);
    case "ms":
      return `${Math.round(value)} ms`;
    case "usd":
      return `$${value.toFixed(4)}`;
  }
}

/** A signed difference, or "-" where there is none. */
export function formatDelta(value: number | null | undefined, format: MetricFormat): string {
  if (value === null || value === undefined) return "-";
  const sign = value > 0 ? "+" : value < 0 ? "-" : "±";
  return sign + formatValue(Math.abs(value), format);
}
