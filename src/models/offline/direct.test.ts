import { describe, expect, it } from "vitest";
import { directSentence, languageOf, statement } from "./direct.js";

describe("statement", () => {
  it("puts the value in place of a subject question word", () => {
    expect(statement("Who maintains the firmware that drives the Star Tracker?", "Dana Okafor")).toBe(
      "Dana Okafor maintains the firmware that drives the Star Tracker.",
    );
    expect(statement("Wer leitet das Lager in Hamburg?", "Jana Meyer")).toBe("Jana Meyer leitet das Lager in Hamburg.");
  });

  it("turns a copula question around", () => {
    expect(statement("What is the client-side retry budget for PUT /v3/payouts?", "12 seconds")).toBe(
      "The client-side retry budget for PUT /v3/payouts is 12 seconds.",
    );
    expect(statement("What's the noise limit on our docks?", "70 dB")).toBe("The noise limit on our docks is 70 dB.");
    expect(statement("Wer ist in Bremen Brandschutzbeauftragter?", "Jana Meyer")).toBe(
      "In Bremen Brandschutzbeauftragter ist Jana Meyer.",
    );
  });

  it("answers Chinese and Japanese questions in place", () => {
    expect(statement("地面站主天线的直径是多少？", "3.7 米")).toBe("地面站主天线的直径是3.7 米。");
    expect(statement("アンテナの直径はいくつですか？", "3.7 m")).toBe("アンテナの直径は3.7 mです。");
  });

  it("has no rewrite for questions with an auxiliary or a 'which' noun", () => {
    expect(statement("What fee does Halvard charge per chargeback?", "15 USD")).toBeUndefined();
    expect(statement("Which team owns the gateway?", "Flight Software")).toBeUndefined();
    expect(statement("What p95 error budget has the gateway?", "80 ms")).toBeUndefined();
    expect(directSentence("How long is a token valid?", "15 minutes")).toBe("15 minutes.");
  });
});

describe("languageOf", () => {
  it("tells the four languages apart", () => {
    expect(languageOf("Wie viele Tage haben Mieter Zeit?")).toBe("de");
    expect(languageOf("地面站主天线的直径是多少？")).toBe("zh");
    expect(languageOf("大阪の倉庫はどの棟ですか？")).toBe("ja");
    expect(languageOf("How many days?")).toBe("en");
  });
});
