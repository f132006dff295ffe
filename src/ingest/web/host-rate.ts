/** Spaces requests to each host: at most one per interval, the first at once. */

export interface HostRate {
  /** Resolves when a request to the URL's host may start, and books that slot. */
  wait(url: URL, minIntervalMs: number): Promise<void>;
}

export function createHostRate(options: { now?: () => number; sleep?: (ms: number) => Promise<void> } = {}): HostRate {
  const now = options.now ?? (() => performance.now());
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const next = new Map<string, number>();
  return {
    async wait(url, minIntervalMs) {
      const at = next.get(url.host) ?? 0;
      const start = Math.max(now(), at);
      next.set(url.host, start + minIntervalMs);
      const delay = start - now();
      if (delay > 0) await sleep(delay);
    },
  };
}
