import { describe, expect, it } from "vitest";
import { directSentence, languageOf, statement } from "./direct.js";

describe("statement", () => {
  it("puts the value in place of a subject question word", () => {
    expect(statement("Who leads the team that owns the Telemetry Gateway?", "Dana Okafor")).toBe(
      "Dana Okafor leads the team that owns the Telemetry Gateway.",
    );
    expect(statement("Wer leitet das Lager in Hamburg?", "Jana Meyer")).toBe("Jana Meyer leitet das Lager in Hamburg.");
  });

  it("turns a copula question around", () => {
    expect(statement("What is the server-side timeout for POST /v2/refunds?", "45 seconds")).toBe(
      "The server-side timeout for POST /v2/refunds is 45 seconds.",
    );
    expect(statement("What's the speed limit on our yards?", "15 km/h")).toBe(
      "The speed limit on our yards is 15 km/h.",
    );
    expect(statement("Wer ist in Hamburg Gefahrgutbeauftragte?", "Jana Meyer")).toBe(
      "In Hamburg Gefahrgutbeauftragte ist Jana Meyer.",
    );
  });

  it("answers Chinese and Japanese questions in place", () => {
    expect(statement("地面站主天线的直径是多少？", "3.7 米")).toBe("地面站主天线的直径是3.7 米。");
    expect(statement("アンテナの直径はいくつですか？", "3.7 m")).toBe("アンテナの直径は3.7 mです。");
  });

  it("has no rewrite for questions with an auxiliary or a 'which' noun", () => {
    expect(statement("What fee does Northwind charge per dispute?", "15 USD")).toBeUndefined();
    expect(statement("Which team owns the gateway?", "Flight Software")).toBeUndefined();
    expect(statement("What p99 latency target has the service?", "80 ms")).toBeUndefined();
    expect(directSentence("How long is a token valid?", "15 minutes")).toBe("15 minutes.");
  });
});

describe("languageOf", () => {
  it("tells the four languages apart", () => {
    expect(languageOf("Wie viele Tage haben Kunden Zeit?")).toBe("de");
    expect(languageOf("地面站主天线的直径是多少？")).toBe("zh");
    expect(languageOf("大阪の倉庫はどの棟ですか？")).toBe("ja");
    expect(languageOf("How many days?")).toBe("en");
  });
});
