/** Links that open a web page at the cited sentence: URL text fragments (`#:~:text=`). */

/** Words of the cited sentence's start that go into the fragment, at most. */
const FRAGMENT_WORDS = 8;

/** Percent-encodes a text directive value: `encodeURIComponent` plus `-`, which the directive syntax reserves. */
function encodeDirective(text: string): string {
  return encodeURIComponent(text).replace(/-/g, "%2D");
}

/** True for an http(s) URL (a web page's document id). */
export function isWebUrl(value: string): boolean {
  return /^https?:\/\//i.test(value);
}

/**
 * The page URL with a text fragment of the quote's first sentence's start (its first few words), so a browser
 * scrolls to and highlights it. Any fragment the URL had is replaced; a blank quote gives the plain URL.
 */
export function textFragmentUrl(url: string, quote: string): string {
  const hash = url.indexOf("#");
  const base = hash < 0 ? url : url.slice(0, hash);
  const sentence = quote.trim().split(/(?<=[.!?])\s+/, 1)[0] ?? "";
  const words = sentence
    .split(/\s+/)
    .filter((w) => w !== "")
    .slice(0, FRAGMENT_WORDS);
  if (words.length === 0) return base;
  return `${base}#:~:text=${encodeDirective(words.join(" "))}`;
}
