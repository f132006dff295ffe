/** Page URLs from a sitemap or sitemap index (XML read by fast-xml-parser). */
import { XMLParser } from "fast-xml-parser";
import { InvalidInputError } from "../../spec/errors.js";

export interface SitemapEntries {
  /** Page URLs (`<urlset><url><loc>`). */
  pages: string[];
  /** Further sitemaps (`<sitemapindex><sitemap><loc>`). */
  sitemaps: string[];
}

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  htmlEntities: false,
  isArray: (name) => name === "url" || name === "sitemap",
  parseTagValue: false,
});

function locs(items: unknown): string[] {
  if (!Array.isArray(items)) return [];
  const out: string[] = [];
  for (const item of items) {
    const loc = (item as { loc?: unknown } | null)?.loc;
    if (typeof loc === "string" && loc.trim() !== "") out.push(loc.trim());
  }
  return out;
}

/** Parses sitemap XML; throws `InvalidInputError` naming the sitemap when it is neither a urlset nor an index. */
export function parseSitemap(xml: string, where: string): SitemapEntries {
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(xml) as Record<string, unknown>;
  } catch (error) {
    throw new InvalidInputError(
      `${where}: not valid sitemap XML (${(error as Error).message})`,
      { file: where },
      error,
    );
  }
  const urlset = doc.urlset as { url?: unknown } | undefined;
  const index = doc.sitemapindex as { sitemap?: unknown } | undefined;
  if (urlset === undefined && index === undefined)
    throw new InvalidInputError(`${where}: not a sitemap (no <urlset> or <sitemapindex>)`, { file: where });
  return { pages: locs(urlset?.url), sitemaps: locs(index?.sitemap) };
}
