import { describe, expect, it } from "vitest";
import { ConcurrencyLimiter } from "./concurrency.js";

describe("ConcurrencyLimiter", () => {
  it("makes a lazy signal only for a caller that has to wait, and drops that waiter when it aborts", async () => {
    const limiter = new ConcurrencyLimiter({ max: 1, queue: 2 });
    let made = 0;
    const controller = new AbortController();
    const lazy = () => {
      made++;
      return controller.signal;
    };
    const release = await limiter.acquire(lazy);
    expect(made).toBe(0);
    const waiting = limiter.acquire(lazy);
    expect(made).toBe(1);
    expect(limiter.queued).toBe(1);
    controller.abort(new Error("client gone"));
    await expect(waiting).rejects.toThrow("client gone");
    expect(limiter.queued).toBe(0);
    release();
    expect(limiter.active).toBe(0);
  });

  it("hands a freed slot to the next waiter in order and refuses beyond the queue", async () => {
    const limiter = new ConcurrencyLimiter({ max: 1, queue: 1 });
    const order: string[] = [];
    const first = limiter.run(async () => {
      order.push("first");
      await new Promise((r) => setTimeout(r, 5));
    });
    const second = limiter.run(async () => order.push("second"));
    await expect(limiter.acquire()).rejects.toThrow(/busy/);
    await Promise.all([first, second]);
    expect(order).toEqual(["first", "second"]);
    expect(limiter.active).toBe(0);
  });
});
