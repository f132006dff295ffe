/** Timing and memory helpers: percentiles over samples, a high-resolution clock, a peak-RSS sampler. */

export function now(): number {
  return performance.now();
}

/** The p-th percentile (0..100) by nearest rank of unsorted samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export function mean(samples: readonly number[]): number {
  return samples.length === 0 ? Number.NaN : samples.reduce((a, b) => a + b, 0) / samples.length;
}

/**
 * Runs `fn` once per input, sequentially, and returns the milliseconds each call took. With `budgetMs`, stops
 * early (after at least `min` calls) once the total passes the budget, so a pathological case cannot stall
 * the whole run; the caller reports how many samples it got.
 */
export async function timeEach<T>(
  inputs: readonly T[],
  fn: (input: T) => unknown,
  options: { budgetMs?: number; min?: number } = {},
): Promise<number[]> {
  const budget = options.budgetMs ?? Number.POSITIVE_INFINITY;
  const min = options.min ?? 5;
  const out: number[] = [];
  let total = 0;
  for (const input of inputs) {
    const start = now();
    await fn(input);
    const ms = now() - start;
    out.push(ms);
    total += ms;
    if (total > budget && out.length >= min) break;
  }
  return out;
}

/** Latency summary of a list of millisecond samples. */
export function latency(samples: readonly number[]): { p50: number; p95: number; mean: number; n: number } {
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), mean: mean(samples), n: samples.length };
}

/**
 * Peak resident set size: samples on a timer and whenever `sample()` is called (synchronous work blocks
 * the timer, so callers sample between batches too).
 */
export class RssSampler {
  #peak = 0;
  #timer: NodeJS.Timeout | undefined;
  readonly startBytes: number;

  constructor(intervalMs = 25) {
    this.startBytes = process.memoryUsage.rss();
    this.#peak = this.startBytes;
    this.#timer = setInterval(() => this.sample(), intervalMs);
    this.#timer.unref();
  }

  sample(): void {
    const rss = process.memoryUsage.rss();
    if (rss > this.#peak) this.#peak = rss;
  }

  stop(): { peakBytes: number; startBytes: number } {
    this.sample();
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    return { peakBytes: this.#peak, startBytes: this.startBytes };
  }
}

export const MB = 1024 * 1024;
