import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { onAbort } from "./on-abort.js";

describe("onAbort", () => {
  it("puts one listener on a signal however many subscribe, and removes it when the last leaves", () => {
    const controller = new AbortController();
    const unsubscribe = Array.from({ length: 50 }, () => onAbort(controller.signal, () => {}));
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    for (const off of unsubscribe) off();
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("calls every current subscriber once on abort, and none that left", () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const offs = [1, 2, 3].map((n) => onAbort(controller.signal, () => seen.push(n)));
    offs[1]?.();
    controller.abort();
    controller.abort();
    expect(seen).toEqual([1, 3]);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("calls a subscriber of an already aborted signal in a microtask, unless it left first", async () => {
    const signal = AbortSignal.abort();
    const seen: string[] = [];
    onAbort(signal, () => seen.push("kept"));
    onAbort(signal, () => seen.push("left"))();
    expect(seen).toEqual([]);
    await Promise.resolve();
    expect(seen).toEqual(["kept"]);
  });

  it("starts afresh on a signal after all subscribers left", () => {
    const controller = new AbortController();
    onAbort(controller.signal, () => {})();
    let called = false;
    onAbort(controller.signal, () => {
      called = true;
    });
    controller.abort();
    expect(called).toBe(true);
  });
});
