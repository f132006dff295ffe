import { fieldLine } from "./bridge-type.js";

/** Longest code a hop looks up as a key (longer runs without spaces are paths, hashes or URLs). */
const MAX_CODE = 24;

/**
 * A name that reads as a code: one word (letters, digits and `-`, `_`, `.`, `/` joiners) with a capital
 * letter and no small one ("ZQ", "ZQ-417", "B2B"), or letters joined to digits ("zq-417"). A code stands for
 * something a directory, a register or the code's own record defines; a plain name is described in prose.
 */
export function keyLike(name: string): boolean {
  const t = name.trim();
  if (t.length < 2 || t.length > MAX_CODE || !/^[\p{L}\p{N}]+(?:[-_./][\p{L}\p{N}]+)*$/u.test(t)) return false;
  if (/\p{Lu}/u.test(t) && !/\p{Ll}/u.test(t)) return true;
  return /[-_./]/.test(t) && /\p{L}/u.test(t) && /\p{N}/u.test(t);
}

/**
 * Is the name the whole value of a record's field in one of the passages ("depot: ZQ", "carrier: Zuid Trans")?
 * A record refers to other things by their keys: its field values are what another register is keyed by.
 */
export function fieldValueIn(name: string, passages: readonly { text: string }[]): boolean {
  const wanted = name.trim().toLowerCase();
  return passages.some((p) =>
    p.text.split("\n").some((line) => fieldLine(line)?.value.trim().toLowerCase() === wanted),
  );
}

/**
 * A bridge worth looking up by key: a code that a record gives as a field's value ("depot: ZQ"); with
 * `inProse`, a code anywhere ("ships from ZQ"); with `names`, also a plain name that is a record field's whole
 * value ("carrier: Zuid Trans"): a record refers to another register's entry by its key, whether that key is a
 * code or a name, and the register's row is what says more about it. A name met in prose is found by search:
 * pages describe it in words.
 */
export function lookupWorthy(
  name: string,
  passages: readonly { text: string }[],
  inProse = false,
  names = false,
): boolean {
  if (keyLike(name)) return inProse || fieldValueIn(name, passages);
  return names && fieldValueIn(name, passages);
}
