import { describe, expect, it } from "vitest";
import { fieldsOf, typedSpans, valueSpan } from "./value-span.js";

describe("valueSpan", () => {
  it("takes a number with its unit from a two-column table row", () => {
    expect(valueSpan("| Server-side request timeout | 45 seconds |", "number")?.text).toBe("45 seconds");
  });

  it("takes the name from a labelled field, not a name the question already holds", () => {
    const known = "Who leads the team which owns the Telemetry Gateway?";
    expect(valueSpan("- Team lead: Dana Okafor", "person", { known, asked: ["lead"] })?.text).toBe("Dana Okafor");
    expect(valueSpan("Telemetry Gateway is run by Dana Okafor.", "person", { known })?.text).toBe("Dana Okafor");
    expect(valueSpan("The Flight Software Team runs it.", "person", { known })).toBeUndefined();
  });

  it("reads a CJK unit up to its particle", () => {
    const unit = "地面站有一台直径 3.7 米的抛物面天线，工作在 S 波段，频率为 2.2 GHz。";
    expect(valueSpan(unit, "number", { asked: ["直径"] })?.text).toBe("3.7 米");
  });

  it("picks the value nearest the asked attribute among several", () => {
    const unit = "The timeout is 45 seconds and the refund window is 180 days.";
    expect(valueSpan(unit, "number", { asked: ["window"] })?.text).toBe("180 days");
    expect(valueSpan(unit, "number", { asked: ["timeout"] })?.text).toBe("45 seconds");
  });

  it("takes the column the asked terms name in a table row with a header", () => {
    const header = ["Mode", "Sustained rate", "Burst"];
    expect(valueSpan("| Live | 100 requests per second | 200 |", "number", { header, asked: ["burst"] })?.text).toBe(
      "200",
    );
  });

  it("ignores the digits of identifiers and bare years", () => {
    expect(valueSpan("INC-2026-031 lasted 22 minutes in 2026", "number")?.text).toBe("22 minutes");
    expect(valueSpan("Ticket T-1055 was closed", "number")).toBeUndefined();
  });
});

describe("typedSpans", () => {
  it("finds durations only with a time unit, in several languages", () => {
    const spans = (t: string) => typedSpans(t, "duration").map((m) => t.slice(m.start, m.end));
    expect(spans("Frames are kept for 90 days, then deleted; max 64 KB.")).toEqual(["90 days"]);
    expect(spans("Schäden sind innerhalb von 7 Tagen zu melden.")).toEqual(["7 Tagen"]);
    expect(spans("必须在 72 小时内报告。")).toEqual(["72 小时"]);
  });

  it("finds dates from ISO to weekday-and-time forms", () => {
    const spans = (t: string) => typedSpans(t, "date").map((m) => t.slice(m.start, m.end));
    expect(spans("v1 will be retired on 2027-08-15.")).toEqual(["2027-08-15"]);
    expect(spans("The handoff is on Tuesdays at 10:00 Mountain Time.")).toEqual(["Tuesdays at 10:00 Mountain Time"]);
    expect(spans("Gültig ab 1. März 2026.")).toEqual(["1. März 2026"]);
  });
});

describe("fieldsOf", () => {
  it("splits a label line and leaves prose alone", () => {
    expect(fieldsOf("- Size: 6 engineers").map((f) => f.label)).toEqual(["Size"]);
    expect(fieldsOf("The gateway writes to the Frame Store database.")).toEqual([]);
  });
});

describe("labelled values", () => {
  it("reads a key-value table row by its first cell, whatever its header", () => {
    const v = valueSpan("| Availability SLO | 99.95% monthly |", "number", {
      header: ["Field", "Value"],
      asked: ["availability", "slo"],
    });
    expect(v).toEqual(expect.objectContaining({ text: "99.95% monthly", labelled: true }));
  });

  it("takes a fact from a label only when the label names most of what is asked", () => {
    const asked = ["deprecated", "endpoint", "timeout", "refunds"];
    expect(valueSpan("| POST /v2/refunds | Refunds (v2) |", "fact", { asked })).toBeUndefined();
    expect(valueSpan("- Status: closed", "fact", { asked: ["status"] })?.text).toBe("closed");
  });
});

describe("person names", () => {
  it("takes two-word names, not song titles or hyphenated places", () => {
    expect(valueSpan('Her single "You Don\'t Love Me" was produced by Mad Professor.', "person")?.text).toBe(
      "Mad Professor",
    );
    expect(valueSpan("He was born in Austria-Hungary.", "person")).toBeUndefined();
  });
});

describe("table rows keyed by their other cells", () => {
  it("labels the one cell of the asked kind when the row's key cell names what is asked", () => {
    const header = ["Data", "Retention", "Notes"];
    const v = valueSpan("| API request logs | 400 days | Searchable by request_id |", "duration", {
      header,
      asked: ["api", "request", "logs", "retained"],
    });
    expect(v).toEqual(expect.objectContaining({ text: "400 days", labelled: true }));
    const other = valueSpan("| KYC documents | 5 years | Encrypted |", "duration", { header, asked: ["api", "logs"] });
    expect(other?.labelled).toBeFalsy();
  });
});
