import { describe, expect, it } from "vitest";
import { fieldValueIn, keyLike, lookupWorthy } from "./key-link.js";

describe("keyLike", () => {
  it("reads capital codes and letter-digit ids as codes", () => {
    for (const code of ["ZQ", "ZQ-417", "B2B", "qo-117", "AB_12"]) expect(keyLike(code), code).toBe(true);
  });

  it("does not read names, plain words, numbers or long runs as codes", () => {
    for (const name of ["Zuid Trans", "Zuidkade", "depot", "417", "Z", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"]) {
      expect(keyLike(name), name).toBe(false);
    }
  });
});

describe("fieldValueIn and lookupWorthy", () => {
  const record = [{ text: "order_id: QO-117\ndepot: ZQ\ncarrier: Zuid Trans" }];
  const prose = [{ text: "Orders picked at ZQ are packed by Zuid Trans the same day." }];

  it("finds a name that is a record field's whole value", () => {
    expect(fieldValueIn("ZQ", record)).toBe(true);
    expect(fieldValueIn("zuid trans", record)).toBe(true);
    expect(fieldValueIn("Zuid", record)).toBe(false);
    expect(fieldValueIn("ZQ", prose)).toBe(false);
  });

  it("looks up a code a record gives as a field's value; one in prose only when asked to; never a name", () => {
    expect(lookupWorthy("ZQ", record)).toBe(true);
    expect(lookupWorthy("ZQ", prose)).toBe(false);
    expect(lookupWorthy("ZQ", prose, true)).toBe(true);
    expect(lookupWorthy("Zuid Trans", record)).toBe(false);
  });

  it("looks up a plain name only with names on, and only when a record gives it as a field's whole value", () => {
    expect(lookupWorthy("Zuid Trans", record, false, true)).toBe(true);
    expect(lookupWorthy("Zuid Trans", prose, false, true)).toBe(false);
    expect(lookupWorthy("Zuid", record, false, true)).toBe(false);
  });
});
