/** Same-site links of a page, for crawling past the first page. */
import { parseHtmlDocument } from "../html-text.js";

/** Links taken from one page, at most. */
export const MAX_LINKS_PER_PAGE = 500;

/** A URL as a document id and crawl key: no fragment, default port dropped (WHATWG URL serialisation). */
export function pageKey(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = "";
  return copy.href;
}

/**
 * The http(s) links of an HTML page on the page's own origin, resolved against its URL (and `<base href>`),
 * without fragments, deduplicated, in document order, at most `MAX_LINKS_PER_PAGE`.
 */
export function sameOriginLinks(html: string, pageUrl: string): string[] {
  const document = parseHtmlDocument(html);
  const page = new URL(pageUrl);
  let base = page;
  const baseHref = document.querySelector("base[href]")?.getAttribute("href");
  if (baseHref) {
    try {
      base = new URL(baseHref, page);
    } catch {
      // An unusable <base> is ignored, as browsers do.
    }
  }
  const out = new Set<string>();
  const anchors = document.querySelectorAll("a[href]");
  for (let i = 0; i < anchors.length && out.size < MAX_LINKS_PER_PAGE; i++) {
    const href = anchors[i]?.getAttribute("href");
    if (!href) continue;
    let url: URL;
    try {
      url = new URL(href, base);
    } catch {
      continue;
    }
    if (url.origin !== page.origin || (url.protocol !== "http:" && url.protocol !== "https:")) continue;
    out.add(pageKey(url));
  }
  return [...out];
}
