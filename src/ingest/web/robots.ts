/** robots.txt rules per origin, fetched once per crawl (robots-parser reads them). */
import robotsModule from "robots-parser";
import { AccessDeniedError } from "../../spec/errors.js";

/** robots.txt bytes, at most (Google reads the first 500 KiB). */
export const MAX_ROBOTS_BYTES = 512 * 1024;

/** The package is CommonJS (`module.exports = function`) while its types declare a default export. */
const robotsParser = robotsModule as unknown as typeof robotsModule.default;
type Robots = ReturnType<typeof robotsParser>;

export interface RobotsRules {
  /** Throws `AccessDeniedError` when robots.txt disallows the URL for the user agent. */
  check(url: URL): Promise<void>;
  /** The origin's `Crawl-delay` in ms, when it gives one (after `check` read its rules). */
  crawlDelayMs(url: URL): number | undefined;
}

/**
 * Rules read through `fetchText` (the caller's guarded fetch). A missing robots.txt (4xx) allows everything;
 * one that cannot be read (5xx, network) disallows the origin, as crawlers conventionally do.
 */
export function createRobotsRules(options: {
  userAgent: string;
  fetchText: (url: URL) => Promise<{ status: number; text: string }>;
}): RobotsRules {
  const byOrigin = new Map<string, Promise<Robots | "all" | "none">>();
  const rulesFor = (url: URL) => {
    let rules = byOrigin.get(url.origin);
    if (!rules) {
      const robotsUrl = new URL("/robots.txt", url.origin);
      rules = options.fetchText(robotsUrl).then(
        ({ status, text }) => {
          if (status >= 200 && status < 300) return robotsParser(robotsUrl.href, text);
          return status >= 400 && status < 500 ? "all" : "none";
        },
        (error: unknown) => {
          // A refused address is the answer for the whole origin, not a robots.txt that could not be read.
          if (error instanceof Error && error.name === "BlockedAddressError") throw error;
          return "none" as const;
        },
      );
      byOrigin.set(url.origin, rules);
    }
    return rules;
  };
  const settled = new Map<string, Robots | "all" | "none">();
  return {
    async check(url) {
      const rules = await rulesFor(url);
      settled.set(url.origin, rules);
      const allowed = rules === "all" ? true : rules === "none" ? false : rules.isAllowed(url.href, options.userAgent);
      if (rules === "none")
        throw new AccessDeniedError(
          `${url.href}: ${url.origin}/robots.txt could not be read, so the site is not crawled`,
          {
            url: url.href,
          },
        );
      if (allowed === false)
        throw new AccessDeniedError(`${url.href}: disallowed by ${url.origin}/robots.txt`, { url: url.href });
    },
    crawlDelayMs(url) {
      const rules = settled.get(url.origin);
      if (rules === undefined || typeof rules === "string") return undefined;
      const delay = rules.getCrawlDelay(options.userAgent);
      return delay === undefined ? undefined : Math.min(delay, 60) * 1000;
    },
  };
}
