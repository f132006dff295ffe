import { mentions } from "../../text/entities.js";
import { keyLike } from "./key-link.js";

/** A code standing for a named thing: "QRV", "BLM", "X2" (capitals and digits, at least one letter). */
const CODE = /^[\p{Lu}\d]{2,6}$/u;
/** A code in brackets: "Quarrow Docks (QRV)". */
const PAREN_CODE = /\(([\p{Lu}\d]{2,6})\)/gu;
/** Most characters between a name and the bracketed code that stands for it ("Quarrow Docks (QRV)"). */
const PAREN_GAP = 24;
/** Longest line read for an alias (a longer one is prose or data, not a directory entry). */
const MAX_LINE = 1000;
/** Names shorter than this are not matched inside cells (too many accidental hits). */
const MIN_NAME = 3;

const fold = (s: string) => s.normalize("NFKC").toLowerCase();

function cellsOf(line: string): string[] | undefined {
  const t = line.trim();
  if (!t.startsWith("|") && !/\S \| \S/.test(t)) return undefined;
  return t
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((c) => c.trim().replace(/[*`_]/g, "").trim());
}

/**
 * The codes a directory gives for a name: the first cell of a table row when another cell of that row starts
 * with the name ("| QRV | Quarrow Docks | NL |" gives QRV for Quarrow), or a code in brackets shortly after the
 * name ("Quarrow Docks (QRV)"). A cell that only mentions the name later ("Quarrow's own team") is not its
 * entry: a row keyed by a code says what that code is in the cell that names it. One pass over each line.
 */
export function aliasCodes(name: string, texts: readonly string[]): string[] {
  const wanted = fold(name.trim());
  if (wanted.length < MIN_NAME || CODE.test(name.trim()) || keyLike(name)) return [];
  const out = new Set<string>();
  for (const text of texts) {
    for (const line of text.split("\n")) {
      if (line.length > MAX_LINE) continue;
      const lower = fold(line);
      const at = lower.indexOf(wanted);
      if (at < 0) continue;
      const cells = cellsOf(line);
      if (cells) {
        const key = cells[0] ?? "";
        if (CODE.test(key) && /\p{L}/u.test(key) && cells.slice(1).some((c) => startsWithName(c, wanted))) out.add(key);
        continue;
      }
      for (const m of line.matchAll(PAREN_CODE)) {
        const gap = (m.index ?? 0) - (at + wanted.length);
        if (gap < 0 || gap > PAREN_GAP) continue;
        const between = line.slice(at + wanted.length, m.index);
        if (/\p{L}/u.test(m[1]!) && !/[,;.:]/.test(between)) out.add(m[1]!);
      }
    }
  }
  return [...out];
}

/** Does the cell start with the name, as whole words ("Quarrow Docks" starts with "quarrow", "Quarrowside" not)? */
function startsWithName(cell: string, wanted: string): boolean {
  const c = fold(cell);
  if (!c.startsWith(wanted)) return false;
  return !/[\p{L}\p{N}]/u.test(c.charAt(wanted.length));
}

/** Names of the question and the codes the evidence gives for each (only names that have one). */
export type Aliases = ReadonlyMap<string, readonly string[]>;

/** The codes the gathered texts give for each of the names. */
export function aliasesOf(names: readonly string[], texts: readonly string[]): Aliases {
  const out = new Map<string, string[]>();
  for (const name of new Set(names)) {
    const codes = aliasCodes(name, texts);
    if (codes.length > 0) out.set(name, codes);
  }
  return out;
}

/** Does the text hold the code as a word of its own ("LYS" in "| LYS | broker |", not in "ANALYSIS")? */
export function holdsCode(text: string, code: string): boolean {
  let from = 0;
  for (;;) {
    const at = text.indexOf(code, from);
    if (at < 0) return false;
    const before = text.charAt(at - 1);
    const after = text.charAt(at + code.length);
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return true;
    from = at + 1;
  }
}

/** Does the text name the thing, by its name or by a code the evidence gives for it? */
export function mentionsAliased(text: string, name: string, aliases: Aliases): boolean {
  if (mentions(text, name)) return true;
  return (aliases.get(name) ?? []).some((code) => holdsCode(text, code));
}

/**
 * The text with the names its codes stand for added at the end: a row keyed by "LYS" reads as about the
 * site the directory names for LYS, so term coverage and name checks treat the code as the name.
 */
export function withAliasNames(text: string, aliases: Aliases): string {
  if (aliases.size === 0) return text;
  const names: string[] = [];
  for (const [name, codes] of aliases) {
    if (!mentions(text, name) && codes.some((code) => holdsCode(text, code))) names.push(name);
  }
  return names.length === 0 ? text : `${text}\n${names.join(" ")}`;
}

/** The codes every passage gathered so far gives for the names, when `on`; none otherwise. */
export function evidenceAliases(evidence: readonly { text: string }[], names: readonly string[], on: boolean): Aliases {
  if (!on || names.length === 0) return new Map();
  return aliasesOf(
    names,
    evidence.map((e) => e.text),
  );
}

/** Shortest capitalised word of a question read as a name that may have a code. */
const MIN_CAPITALISED = 3;

/**
 * The names of a part that may stand for codes: its entities, and its capitalised words after the first
 * (German capitalises every noun, so its entity list is empty; "Quarrow" in "welche Klassen nimmt Quarrow an"
 * is still a name). A word that is itself a code is what the evidence is keyed by already.
 */
export function aliasNames(part: { text: string; entities: readonly string[] }): string[] {
  const out = new Set(part.entities);
  const words = part.text.match(/[\p{L}][\p{L}\p{N}'’-]*/gu) ?? [];
  for (const w of words.slice(1)) {
    if (w.length >= MIN_CAPITALISED && /^\p{Lu}\p{Ll}/u.test(w)) out.add(w);
  }
  return [...out].filter((n) => !CODE.test(n) && !keyLike(n));
}
