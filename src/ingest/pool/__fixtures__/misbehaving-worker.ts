/** A parse worker that misbehaves on purpose for files named so: stalls, fills its heap, throws, exits. */
import { type ParsedFile, parseFile } from "../parse-file.js";
import type { PoolTask } from "../parse-worker.js";
import { announceStart } from "../started.js";

export default async function parse({ id, task }: PoolTask): Promise<ParsedFile> {
  announceStart(id);
  const name = task.relPath;
  if (name.endsWith("stall.txt")) for (;;) {}
  if (name.endsWith("heap.txt")) {
    const hold: string[][] = [];
    for (;;) hold.push(new Array(100_000).fill(`${name}${hold.length}`));
  }
  if (name.endsWith("throw.txt")) throw new Error("parser bug on purpose");
  if (name.endsWith("exit.txt")) process.exit(7);
  if (name.endsWith("stray.txt")) {
    // Throws from a timer that fires just after the result has been handed back.
    return parseFile(task).then((result) => {
      setTimeout(() => {
        throw new Error("stray callback after the parse");
      }, 0);
      return result;
    });
  }
  return parseFile(task);
}
