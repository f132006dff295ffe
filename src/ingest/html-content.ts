/** The content of a web page without its boilerplate: navigation, header, footer, sidebars, cookie banners. */
import { Readability } from "@mozilla/readability";
import { type DomDocument, type DomElement, H1_MARK, htmlText } from "./html-text.js";

/** Site chrome by element or landmark role. */
const CHROME =
  "nav, aside, header, footer, [role=navigation], [role=banner], [role=contentinfo], [role=complementary], [role=search]";
/** Cookie and consent banners by id, class or aria-label (outside the main content, where such words can be text's own). */
const BANNER_ATTRS = "[id], [class], [aria-label]";
const BANNER = /cookie|consent|gdpr|\bbanner\b/i;
/** Never removed, nor anything that contains them: the page's main content and its title heading. */
const PROTECTED = "main, article, [role=main], h1";
/** The main content, as the page marks it. */
const CONTENT = "main, article, [role=main]";

/** Readability's result is trusted only when it keeps enough of the page (it can pick too small a part). */
const MIN_ARTICLE_CHARS = 500;
const MIN_ARTICLE_SHARE = 0.25;
const WHOLE_ARTICLE_SHARE = 0.8;
/** When removing chrome leaves less than this share of the text, the page had no recognisable layout: keep it. */
const MIN_CLEAN_SHARE = 0.1;

export interface HtmlContent {
  text: string;
  /** `readability` when the article extractor's result was used, `body` for the whole (cleaned) body. */
  extractor: "readability" | "body";
}

function ancestorsOf(elements: ArrayLike<DomElement>): Set<DomElement> {
  const marked = new Set<DomElement>();
  for (let i = 0; i < elements.length; i++) {
    let node: DomElement | null = elements[i] ?? null;
    while (node && !marked.has(node)) {
      marked.add(node);
      node = node.parentElement;
    }
  }
  return marked;
}

/** Removes site chrome and banners from the body, sparing the main content and whatever contains it. */
function removeBoilerplate(body: DomElement): void {
  const spared = ancestorsOf(body.querySelectorAll(PROTECTED));
  const doomed: DomElement[] = [];
  const chrome = body.querySelectorAll(CHROME);
  for (let i = 0; i < chrome.length; i++) {
    const el = chrome[i] as DomElement;
    if (spared.has(el)) continue;
    // A header or footer inside an article or section belongs to it (its title, its date).
    const tag = el.localName.toLowerCase();
    if ((tag === "header" || tag === "footer") && el.closest(`${CONTENT}, section`)) continue;
    doomed.push(el);
  }
  const tagged = body.querySelectorAll(BANNER_ATTRS);
  for (let i = 0; i < tagged.length; i++) {
    const el = tagged[i] as DomElement;
    if (spared.has(el) || el.closest(CONTENT)) continue;
    const label = `${el.getAttribute("id") ?? ""} ${el.getAttribute("class") ?? ""} ${el.getAttribute("aria-label") ?? ""}`;
    if (BANNER.test(label)) doomed.push(el);
  }
  for (const el of doomed) el.remove();
}

/** Pages nested deeper than this are not scored (real pages stay far below it). */
const MAX_SCORED_DEPTH = 128;

/** Whether any element lies more than `limit` levels below `root` (iterative: no recursion on hostile depth). */
function deeperThan(root: DomElement, limit: number): boolean {
  const stack: [DomElement, number][] = [[root, 0]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [el, depth] = item;
    if (depth > limit) return true;
    const children = el.children;
    for (let i = 0; i < children.length; i++) stack.push([children[i] as DomElement, depth + 1]);
  }
  return false;
}

const visible = (text: string) => text.replace(/\s+/g, "").length;
const words = (text: string) => text.split(/[\s|]+/).filter((w) => w !== "" && !/^#+$/.test(w));

/**
 * Words of the page's own content region, its `<article>` elements (else its `<main>`), which an
 * extractor may not drop: the author marked them as the content. Undefined without such markup.
 */
function regionWords(body: DomElement): Set<string> | undefined {
  let regions = body.querySelectorAll("article");
  if (regions.length === 0) regions = body.querySelectorAll("main, [role=main]");
  if (regions.length === 0) return undefined;
  const out = new Set<string>();
  for (let i = 0; i < regions.length; i++) for (const word of words(htmlText(regions[i] as DomElement))) out.add(word);
  return out;
}

/**
 * The page's content as text (see `htmlText`). Chrome (nav, header, footer, aside, landmark roles)
 * and cookie/consent banners are removed first; then Mozilla Readability picks the article. Its
 * result is used only when it keeps every table row, every word of the page's `<article>` (or
 * `<main>`) and most of the cleaned page (or a solid share of a long one); otherwise (short pages,
 * table pages, pages it misreads) the whole cleaned body is kept. Pages with more than `maxScoredElements`
 * elements, or nested deeper than real pages are, are not scored. Modifies the document.
 */
export function extractHtmlContent(options: { document: DomDocument; maxScoredElements: number }): HtmlContent {
  const { document, maxScoredElements } = options;
  const body = document.body ?? document.documentElement;
  const raw = htmlText(body);
  removeBoilerplate(body);
  const cleaned = htmlText(body);
  if (visible(cleaned) < visible(raw) * MIN_CLEAN_SHARE) return { text: raw, extractor: "body" };
  // Readability's scoring grows with element count times nesting depth: bound both before scoring.
  if (body.querySelectorAll("*").length > maxScoredElements || deeperThan(body, MAX_SCORED_DEPTH))
    return { text: cleaned, extractor: "body" };

  const title = body.querySelector("h1")?.textContent?.replace(/\s+/g, " ").trim();
  const rows = body.querySelectorAll("tr").length;
  const region = regionWords(body);
  const h1s = body.querySelectorAll("h1");
  for (let i = 0; i < h1s.length; i++) h1s[i]?.setAttribute(H1_MARK, "");
  let article: DomElement | null | undefined;
  try {
    article = new Readability<DomElement>(document as never, {
      maxElemsToParse: maxScoredElements,
      serializer: (node) => node as unknown as DomElement,
    }).parse()?.content;
  } catch {
    article = undefined;
  }
  if (!article) return { text: cleaned, extractor: "body" };
  const articleRows = article.querySelectorAll("tr").length;
  let text = htmlText(article);
  // Readability drops a first heading that repeats the page title; the chunker wants it as the top section.
  if (title && !text.split("\n").includes(`# ${title}`)) text = `# ${title}\n\n${text}`;
  const share = visible(text) / Math.max(1, visible(cleaned));
  const kept = new Set(words(text));
  const enough =
    articleRows >= rows &&
    (region === undefined || [...region].every((word) => kept.has(word))) &&
    (share >= WHOLE_ARTICLE_SHARE || (visible(text) >= MIN_ARTICLE_CHARS && share >= MIN_ARTICLE_SHARE));
  return enough ? { text, extractor: "readability" } : { text: cleaned, extractor: "body" };
}
