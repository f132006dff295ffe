import { readFileSync } from "node:fs";

/** Alive and not a zombie (an orphan's zombie may wait for a reaper that never comes in a container). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}
