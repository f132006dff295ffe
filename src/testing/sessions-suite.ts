import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StoreV1 } from "../spec/store.js";
import { alice, GLOBEX, harriet, type OpenStore } from "./fixtures.js";

/** The `sessions` capability suite: turns are kept per tenant, user and session, in order. */
export function runSessionsSuite(name: string, open: OpenStore): void {
  describe(`sessions suite: ${name}`, () => {
    let store: StoreV1;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, cleanup } = await open());
    });

    afterEach(async () => {
      await store.close();
      await cleanup();
    });

    it("appends session turns per tenant, user and session", async () => {
      const turn = (content: string, role: "user" | "assistant" = "user") => ({
        role,
        content,
        at: "2024-06-01T10:00:00Z",
      });
      await store.appendTurns("s1", alice, [turn("hi"), turn("hello", "assistant")]);
      await store.appendTurns("s1", alice, [turn("more")]);
      await store.appendTurns("s1", harriet, [turn("other user")]);
      expect((await store.getTurns("s1", alice)).map((t) => t.content)).toEqual(["hi", "hello", "more"]);
      expect((await store.getTurns("s1", alice))[1]).toEqual(turn("hello", "assistant"));
      expect((await store.getTurns("s1", harriet)).map((t) => t.content)).toEqual(["other user"]);
      expect(await store.getTurns("s1", { ...alice, tenant: GLOBEX })).toEqual([]);
      expect(await store.getTurns("s2", alice)).toEqual([]);
    });
  });
}
