import { describe, expect, it } from "vitest";
import { answerKindOf } from "./answer-kind.js";

const kind = (text: string, answerType: "fact" | "person" = "fact") => answerKindOf({ text, answerType });

describe("answerKindOf", () => {
  it("keeps the part's own answer type when it has one", () => {
    expect(kind("Who leads it", "person")).toBe("person");
  });

  it("reads German, Chinese and Japanese question words", () => {
    expect(kind("Wie viele Tage haben Mieter Zeit")).toBe("number");
    expect(kind("Wer vertritt sie")).toBe("person");
    expect(kind("Wie lange dauert es")).toBe("duration");
    expect(kind("地面站主天线的直径是多少？")).toBe("number");
    expect(kind("这个服务是谁负责的？")).toBe("person");
    expect(kind("出荷はいつでしたか？")).toBe("date");
    expect(kind("ハンブルクの運転手は延長を使えますか？")).toBe("fact");
  });

  it("takes German verb-first questions as yes/no, but not a verb later in the sentence", () => {
    expect(kind("Ist der Stapler in Halle 3 erlaubt")).toBe("yesno");
    expect(kind("Welche Regel ist neu")).toBe("fact");
  });
});
