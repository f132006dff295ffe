import { describe, expect, it } from "vitest";
import { inOrder } from "./in-order.js";

/** Work whose calls finish only when the test says so, recording how many run at once. */
function controlled() {
  const waiting = new Map<number, () => void>();
  let running = 0;
  let most = 0;
  const started: number[] = [];
  return {
    started,
    most: () => most,
    finish(item: number) {
      waiting.get(item)?.();
    },
    work(item: number): Promise<string> {
      started.push(item);
      running++;
      most = Math.max(most, running);
      return new Promise((resolve) =>
        waiting.set(item, () => {
          running--;
          resolve(`r${item}`);
        }),
      );
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("inOrder", () => {
  it("yields results in item order whatever order they finish in, never above the concurrency", async () => {
    const c = controlled();
    const items = [0, 1, 2, 3, 4, 5];
    const out: string[] = [];
    const consumer = (async () => {
      for await (const [item, result] of inOrder({ items, work: c.work, concurrency: 2, ahead: 10 })) {
        out.push(`${item}:${result}`);
      }
    })();
    for (const item of [1, 0, 3, 2, 5, 4]) {
      while (!c.started.includes(item)) await tick();
      c.finish(item);
      await tick();
    }
    await consumer;
    expect(out).toEqual(["0:r0", "1:r1", "2:r2", "3:r3", "4:r4", "5:r5"]);
    expect(c.most()).toBe(2);
  });

  it("starts nothing more than `ahead` items past a slow head", async () => {
    const c = controlled();
    const items = Array.from({ length: 20 }, (_, i) => i);
    const consumer = (async () => {
      const seen: number[] = [];
      for await (const [item] of inOrder({ items, work: c.work, concurrency: 3, ahead: 4 })) seen.push(item);
      return seen;
    })();
    await tick();
    for (const item of [1, 2, 3]) {
      c.finish(item);
      await tick();
    }
    // The head (0) is still running: items 1..3 are done, nothing past 0 + 4 may have started.
    expect(c.started).toEqual([0, 1, 2, 3]);
    for (let item = 0; item < 20; item++) {
      while (!c.started.includes(item)) await tick();
      c.finish(item);
      await tick();
    }
    expect(await consumer).toEqual(items);
  });
});
