/** The parse pool's worker entry: one file per task, plain data back (see parse-file.ts). */
import { type ParsedFile, type ParseTask, parseFile } from "./parse-file.js";
import { announceStart } from "./started.js";

/** A file to parse, with the pool's id for it. */
export interface PoolTask {
  id: number;
  task: ParseTask;
}

export default function parse({ id, task }: PoolTask): Promise<ParsedFile> {
  announceStart(id);
  return parseFile(task);
}
