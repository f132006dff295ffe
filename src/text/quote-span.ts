import { stripNeutralisation } from "../safety/fence.js";

/** Characters that render as nothing (as `stripInvisible` removes them). */
const INVISIBLE = /^\p{Default_Ignorable_Code_Point}$/u;
const SPACE = /^\s$/u;

interface View {
  text: string;
  /** `from[i]`, `to[i]`: the source span of the character that produced `text[i]`. */
  from: number[];
  to: number[];
}

/**
 * The text as citations compare it (invisible characters dropped, NFKC, lower case, whitespace runs as one
 * space, trimmed), folded one code point at a time so every character keeps the span it came from.
 */
function foldedView(source: string): View {
  const view: View = { text: "", from: [], to: [] };
  const parts: string[] = [];
  let spaced = true;
  for (let i = 0; i < source.length; ) {
    const code = source.codePointAt(i) as number;
    const width = code > 0xffff ? 2 : 1;
    const char = source.slice(i, i + width);
    if (SPACE.test(char)) {
      if (!spaced) {
        parts.push(" ");
        view.from.push(i);
        view.to.push(i + width);
        spaced = true;
      }
    } else if (!INVISIBLE.test(char)) {
      for (const unit of char.normalize("NFKC").toLowerCase()) {
        for (let k = 0; k < unit.length; k++) {
          parts.push(unit[k] as string);
          view.from.push(i);
          view.to.push(i + width);
        }
        spaced = false;
      }
    }
    i += width;
  }
  view.text = parts.join("");
  if (view.text.endsWith(" ")) {
    view.text = view.text.slice(0, -1);
    view.from.pop();
    view.to.pop();
  }
  return view;
}

/** A quote as citations check it: without the fence's `[quoted] ` marks, quotation marks or ellipses. */
function foldedQuote(quote: string): string {
  return foldedView(stripNeutralisation(quote))
    .text.replace(/^["'“”‘’«»]+|["'“”‘’«»]+$/g, "")
    .replace(/^(\.\.\.|…)\s*|\s*(\.\.\.|…)$/g, "")
    .trim();
}

/**
 * Where a verified quote sits in its passage: `text.slice(start, end)` is the quoted span, compared as the
 * citation check compares (case, width, invisible characters and whitespace aside). Undefined when the
 * quote does not occur. Linear in the text (one folding pass, one substring search).
 */
export function quoteSpan(text: string, quote: string): { start: number; end: number } | undefined {
  const wanted = foldedQuote(quote);
  if (wanted === "") return undefined;
  const view = foldedView(text);
  const at = view.text.indexOf(wanted);
  if (at < 0) return undefined;
  return { start: view.from[at] as number, end: view.to[at + wanted.length - 1] as number };
}
