import { describe, expect, it } from "vitest";
import { keyedBy } from "./keyed.js";

const at = (docId: string, text: string) => ({ docId, text });

describe("keyedBy", () => {
  it("keys a record by its own id and a file by its name", () => {
    expect(keyedBy(at("events.jsonl#EV-8", "site: VX"), "ev-8")?.kind).toBe("record");
    expect(keyedBy(at("notes/ZQ.md", "Zuidkade North."), "ZQ")?.kind).toBe("record");
  });

  it("keys a table row by its first cell, with the header of its table", () => {
    const text = "## Depots\n\n| Code | Site |\n|---|---|\n| VX | Vorstadt East |\n| ZQ | Zuidkade North |";
    const keyed = keyedBy(at("register.md", text), "ZQ");
    expect(keyed).toMatchObject({ kind: "row", header: "| Code | Site |" });
    expect(text.slice(keyed!.start, keyed!.end)).toBe("| ZQ | Zuidkade North |");
    // A row of a converted HTML table has no outer pipes.
    expect(keyedBy(at("tiers.html", "Tier | Rate\nQ | 7 per second"), "Q")?.kind).toBe("row");
  });

  it("does not key a row by a value in another cell, nor a record by a field that names the value", () => {
    expect(keyedBy(at("orders.csv#QO-1", "order_id: QO-1\ndepot: ZQ"), "ZQ")).toBeUndefined();
    expect(keyedBy(at("register.md", "| Site | Code |\n|---|---|\n| Zuidkade North | ZQ |"), "ZQ")).toBeUndefined();
  });

  it("keys a line that starts with the value and defines it, and a heading giving it in brackets", () => {
    expect(keyedBy(at("a.md", "- **ZQ**: Zuidkade North"), "ZQ")?.kind).toBe("entry");
    expect(keyedBy(at("a.md", "## ZQ"), "ZQ")?.kind).toBe("entry");
    expect(keyedBy(at("a.md", "ZQ – the north quay depot"), "ZQ")?.kind).toBe("entry");
    expect(keyedBy(at("a.md", "# Zuidkade North (ZQ)\n\nRules."), "ZQ")?.kind).toBe("alias");
    expect(keyedBy(at("a.md", "# 北埠頭倉庫（ZQ）規則"), "ZQ")?.kind).toBe("alias");
  });

  it("leaves a passage that only mentions the value", () => {
    expect(keyedBy(at("a.md", "Orders picked at ZQ are packed the same day."), "ZQ")).toBeUndefined();
    expect(keyedBy(at("a.md", "ZQ packs overnight."), "ZQ")).toBeUndefined();
    expect(keyedBy(at("a.md", "ZQX: another depot"), "ZQ")).toBeUndefined();
  });

  it("keys a longer first cell that starts with the value as a whole word as an entry below a row", () => {
    const text = "| Carrier | Cap |\n|---|---|\n| Zuid Trans BV | 9 SDR |";
    expect(keyedBy(at("panel.md", text), "Zuid Trans")?.kind).toBe("entry");
    expect(keyedBy(at("panel.md", text), "Zuid Tr")).toBeUndefined();
  });
});
