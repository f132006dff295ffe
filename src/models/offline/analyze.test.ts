import { describe, expect, it } from "vitest";
import { fold } from "../../text/overlap.js";
import { answerTypeOf, askedFor, codeRun, contentTerms, decompose, namedByCode, refersToNamed } from "./analyze.js";

describe("codeRun", () => {
  it("splits a name made only of codes side by side into its codes", () => {
    expect(codeRun("ZQ7 ACME")).toEqual(["ZQ7", "ACME"]);
    expect(decompose("How long did the ZQ7 ACME outage last?")[0]!.entities).toEqual(["ZQ7", "ACME"]);
  });

  it("keeps a name with a word in lower case, and a single code, whole", () => {
    expect(codeRun("Blue Harbor Press")).toEqual(["Blue Harbor Press"]);
    expect(codeRun("ACME Harbor")).toEqual(["ACME Harbor"]);
    expect(codeRun("ZQ7")).toEqual(["ZQ7"]);
  });
});

describe("decompose", () => {
  it("splits at a joiner before a hedged question word, not before a hedge alone", () => {
    expect(
      decompose("What is the toll on the north bridge, and roughly how many cars cross it daily?").map((p) => p.text),
    ).toEqual(["What is the toll on the north bridge", "roughly how many cars cross it daily"]);
    expect(decompose("Wie hoch ist die Gebühr, und ungefähr wie viele Autos fahren täglich?").length).toBe(2);
    expect(decompose("Which ferry runs at dawn and roughly at dusk?").length).toBe(1);
  });

  it("splits a compound question at clauses that start a new question, resolving pronouns", () => {
    const parts = decompose("What is the refund timeout, who maintains it, and were there complaints last week?");
    expect(parts.map((p) => p.text)).toEqual([
      "What is the refund timeout",
      "who maintains it",
      "were there complaints last week",
    ]);
    expect(parts[1]!.query).toContain("refund timeout");
  });

  it("keeps a single question whole and marks a relative-clause chain", () => {
    const [part, ...rest] = decompose("Who leads the squad that runs the worker behind the /v3/payouts route?");
    expect(rest).toHaveLength(0);
    expect(part!.chain).toBe(true);
    expect(part!.head).toEqual(["lead", "squad"]);
    expect(part!.entities).toContain("/v3/payouts");
    expect(part!.answerType).toBe("person");
  });

  it("marks a chain told by links (of, possessive, von/des, 的, の) and keeps one-link lookups plain", () => {
    const en = decompose("What is the home country of the founder of Borealis Freight?")[0]!;
    expect(en.chain).toBe(true);
    expect(en.head).toEqual(["home", "country"]);
    const poss = decompose("Which river flows through Dana Okafor's town of birth?")[0]!;
    expect(poss.chain).toBe(true);
    expect(poss.head).toContain("river");
    expect(poss.head.some((t) => t.includes("okafor"))).toBe(false);
    const de = decompose("Wer ist der Leiter des Lagers von Nordhafen Logistik?")[0]!;
    expect(de.chain).toBe(true);
    expect(de.head).toContain("leiter");
    expect(decompose("北极星公司的创始人的国籍是什么？")[0]!.chain).toBe(true);
    expect(decompose("北极星公司的创始人是谁？")[0]!.chain).toBe(false);
    expect(decompose("北星物流の創業者の出身国はどこですか？")[0]!.chain).toBe(true);
    expect(decompose("北星物流の創業者は誰ですか？")[0]!.chain).toBe(false);
    // One link is one lookup; "what kind of" only says what is asked.
    expect(decompose("What is the retention period of audit logs?")[0]!.chain).toBe(false);
    expect(decompose("What kind of license does the founder of Borealis hold?")[0]!.chain).toBe(false);
    expect(decompose("Where is the depot of Borealis Freight?")[0]!.chain).toBe(false);
  });

  it("splits comparisons into one part per alternative", () => {
    const parts = decompose("Which outage went on longer, OPS-2029-112 or OPS-2029-207?");
    expect(parts).toHaveLength(2);
    expect(parts[0]!.entities).toEqual(["OPS-2029-112"]);
    expect(parts[1]!.entities).toEqual(["OPS-2029-207"]);
    const both = decompose("Are Marisol Quintero and Devraj Ohlsson both opera directors?");
    expect(both.map((p) => p.entities[0])).toEqual(["Marisol Quintero", "Devraj Ohlsson"]);
    expect(both[0]!.terms).toContain("director");
  });

  it("splits 'compare A and B' and 'between A and B, which' into aligned sides", () => {
    const tiers = decompose("How do the upload quotas for plan K and plan M customers compare?");
    expect(tiers.map((p) => p.alternative)).toEqual(["plan K", "plan M"]);
    expect(tiers[1]!.text).toContain("customers");
    expect(tiers[1]!.terms).not.toContain("compare");
    // A bare variant on the right takes the left side's leading words.
    const versions = decompose("Compare the refund windows in Charter v7 and v8.");
    expect(versions.map((p) => p.alternative)).toEqual(["Charter v7", "Charter v8"]);
    const between = decompose("Between Quillmoor and Brackenfold, which depot has more bays?");
    expect(between.map((p) => p.alternative)).toEqual(["Quillmoor", "Brackenfold"]);
    expect(between[0]!.comparative).toBe("max");
    const de = decompose("Wie unterscheiden sich die Gebühren von Tarif K und Tarif M?");
    expect(de.map((p) => p.alternative)).toEqual(["Tarif K", "Tarif M"]);
    const ja = decompose("クイルムーアとブラッケンフォールドの料金を比較してください");
    expect(ja.map((p) => p.alternative)).toEqual(["クイルムーア", "ブラッケンフォールド"]);
  });

  it("keeps 'between A and B' whole when it does not ask which one", () => {
    expect(decompose("What is the link between Quillmoor Press and Brackenfold Mills?")).toHaveLength(1);
    // A compound question goes on after the sides: its clauses are the parts.
    const compound = decompose("Between Quillmoor and Brackenfold, which has more bays, and who runs them?");
    expect(compound.map((p) => p.alternative)).toEqual([undefined, undefined, undefined]);
  });

  it("does not split a noun phrase joined by and", () => {
    expect(decompose("What are the parameters and limits of the payouts API?")).toHaveLength(1);
  });

  it("flags aggregation questions", () => {
    expect(decompose("How many low-priority alerts were opened in October?")[0]!.aggregation).toBe(true);
  });
});

describe("decompose: a definite reference to a named record", () => {
  const q = "Which crane moved work order WO-17, and when was the order closed?";
  it("carries the record's identifier into the later clause that names its kind with 'the'", () => {
    const parts = decompose(q);
    expect(parts).toHaveLength(2);
    expect(parts[1]!.entities).toContain("WO-17");
    expect(parts[1]!.query).toContain("WO-17");
  });
  it("leaves the later clause alone when turned off, or when it names another kind or no article", () => {
    expect(decompose(q, { definiteRefs: false })[1]!.entities).not.toContain("WO-17");
    expect(refersToNamed("when was the order closed", "work order WO-17", "en")).toBe(true);
    expect(refersToNamed("when was the crane serviced", "work order WO-17", "en")).toBe(false);
    expect(refersToNamed("when was an order closed", "work order WO-17", "en")).toBe(false);
    expect(refersToNamed("wann wurde der Auftrag geschlossen", "Auftrag WO-17", "de")).toBe(true);
  });
});

describe("answerTypeOf", () => {
  it("reads the wanted kind of answer from the question", () => {
    expect(answerTypeOf("Who was the shift supervisor?")).toBe("person");
    expect(answerTypeOf("When is the weekly handoff?")).toBe("date");
    expect(answerTypeOf("How long did the stoppage last?")).toBe("duration");
    expect(answerTypeOf("How many tickets are open?")).toBe("number");
    expect(answerTypeOf("Are both film directors?")).toBe("yesno");
  });
});

describe("askedFor", () => {
  it("names what a wh-question asks for", () => {
    expect(askedFor("What monthly allowance does a nurse on night duty receive?")).toEqual(["monthly", "allowance"]);
    expect(askedFor("How many pilots are in the reserve pool?")).toEqual(["pilots"]);
    expect(askedFor("Who leads the team?")).toEqual([]);
  });
});

describe("analysis in four languages", () => {
  it("reads the kind of answer in German, Chinese and Japanese", () => {
    expect(answerTypeOf("Wer ist in Bremen Brandschutzbeauftragter?")).toBe("person");
    expect(answerTypeOf("Wann beginnt die Nachtschicht?")).toBe("date");
    expect(answerTypeOf("Wie viele Tage haben Mieter Zeit?")).toBe("duration");
    expect(answerTypeOf("Wie viele Pakete gingen nach Polen?")).toBe("number");
    expect(answerTypeOf("Darf ein Fahrer zehn Stunden fahren?")).toBe("yesno");
    expect(answerTypeOf("Was ist bei VF-17 passiert?")).toBe("fact");
    expect(answerTypeOf("上海仓库的负责人是谁？")).toBe("person");
    expect(answerTypeOf("索赔需要多久？")).toBe("duration");
    expect(answerTypeOf("可以周日提货吗？")).toBe("yesno");
    expect(answerTypeOf("入荷受付は何時からですか？")).toBe("date");
    expect(answerTypeOf("危険物倉庫はどの棟ですか？")).toBe("entity");
    expect(answerTypeOf("日曜日に集荷できますか？")).toBe("yesno");
    expect(answerTypeOf("What's the crane speed limit on the quay?")).toBe("number");
  });

  it("splits compound questions in German and Japanese, carrying the subject", () => {
    const de = decompose("Wer ist in Bremen Brandschutzbeauftragter, und wer vertritt ihn?");
    expect(de.map((p) => p.text)).toEqual(["Wer ist in Bremen Brandschutzbeauftragter", "wer vertritt ihn"]);
    expect(de[1]!.query).toContain("Bremen");
    const ja = decompose("大阪の危険物倉庫はどの棟ですか？保管できる危険物の種類も教えてください。");
    expect(ja).toHaveLength(2);
    expect(ja[1]!.query).toContain("大阪");
  });

  it("does not split at a question mark followed by context words", () => {
    expect(decompose("for the sea carrier? liability cap aerovia")).toHaveLength(1);
  });

  it("does not demand filler words, time words or grammar of the evidence", () => {
    const [en] = decompose("How many hours ahead must an oversized cargo pickup be booked these days?");
    expect(en!.terms).not.toContain("ahead");
    expect(en!.terms).not.toContain("day");
    expect(en!.terms).toContain("book");
    const [major] = decompose("What were the major recent changes to the refund policy?");
    expect(major!.terms).toEqual(expect.not.arrayContaining(["major", "recent", "chang"]));
    const [de] = decompose("Wie lange dauert die Druckprüfung des Tanks?");
    expect(de!.terms).not.toContain("lange");
    // A compound ending in a known word is asked for by that word's gloss.
    expect(de!.terms).toContain(fold("inspection"));
    const [ja] = decompose("大阪の危険物倉庫はどの棟ですか");
    expect(ja!.terms).toContain("warehouse");
    expect(ja!.terms.some((t) => /[\p{Script=Hiragana}]/u.test(t))).toBe(false);
  });

  it("keeps German capitalised nouns as terms, not as names the evidence must spell", () => {
    const [part] = decompose("Wie viele Wochen haben Mieter nach der Übergabe Zeit, einen Mangel anzuzeigen?");
    expect(part!.entities).toEqual([]);
    expect(part!.terms).toContain("übergabe");
  });

  it("splits comparisons with German oder and Japanese どちら", () => {
    expect(decompose("Welcher Hub ist größer, Hamburg oder Rotterdam?").map((p) => p.alternative)).toEqual([
      "Hamburg",
      "Rotterdam",
    ]);
    const ja = decompose("ハンブルクと大阪では、倉庫内のフォークリフト制限速度はどちらが低いですか？");
    expect(ja.map((p) => p.alternative)).toEqual(["ハンブルク", "大阪"]);
    expect(ja[0]!.comparative).toBe("min");
  });

  it("flags aggregation in German and Chinese", () => {
    expect(decompose("Wie viele Pakete gingen im Oktober 2027 nach Portugal?")[0]!.aggregation).toBe(true);
    expect(decompose("二月一共发了多少票货？")[0]!.aggregation).toBe(true);
    expect(decompose("Who approves a claim?")[0]!.aggregation).toBe(false);
  });
});

describe("contentTerms across languages", () => {
  it("asks a known Japanese word by its English gloss, not by its character pairs", () => {
    const terms = contentTerms("倉庫の保管温度は何度ですか？", "ja");
    expect(terms).toEqual(expect.arrayContaining(["warehouse", fold("storage"), "temperature"]));
    expect(terms).not.toContain("倉庫");
    expect(terms).not.toContain("管温");
  });

  it("asks a German word by its gloss too, so an English passage covers it", () => {
    const terms = contentTerms("Welche Paletten braucht der Kunde?", "de");
    expect(terms).toEqual(expect.arrayContaining(["pallet", "customer"]));
  });
});

describe("namedByCode", () => {
  it("takes a CJK name the question spells by a code in parentheses off what the evidence must spell", () => {
    const spelled = namedByCode("名古屋（NGO）の倉庫は何時に開きますか");
    expect(spelled).toEqual(new Set(["名古屋", "名古", "古屋"]));
    expect(contentTerms("名古屋（NGO）の倉庫は何時に開きますか", "ja")).not.toContain("名古屋");
    expect(contentTerms("名古屋（NGO）の倉庫は何時に開きますか", "ja")).toContain("ngo");
  });

  it("keeps a name without a code, and a parenthesis that is not a code", () => {
    expect(namedByCode("名古屋の倉庫（第二）は何時に開きますか").size).toBe(0);
    expect(contentTerms("名古屋の倉庫は何時に開きますか", "ja")).toContain("名古屋");
  });
});
