import { describe, expect, it } from "vitest";
import type { EvidenceItem } from "../../spec/answer.js";
import { decompose, type QuestionPart } from "./analyze.js";
import type { Candidate } from "./candidates.js";
import { dateComparisonClaim, dateIn, dateSide, type SideEvidence, sharedVerdict } from "./compare-shared.js";

/** Units of one hand-made passage, as the candidate scorer would hand them over (best first = in order). */
function passage(n: number, title: string, text: string): Candidate[] {
  const item: EvidenceItem = {
    id: `p${n}`,
    docId: `d${n}`,
    source: "wiki",
    title,
    text,
    score: 1,
    start: 0,
    end: text.length,
    step: 1,
    callId: `c${n}`,
  } as EvidenceItem;
  const out: Candidate[] = [];
  let start = 0;
  for (const sentence of text.split(/(?<=\.)\s+/)) {
    const at = text.indexOf(sentence, start);
    out.push({
      n,
      step: 1,
      quote: sentence,
      title,
      score: 1 - out.length * 0.1,
      context: `${title} ${sentence}`,
      passageText: `${title}\n${text}`,
      start: at,
      asked: 1,
      item,
    });
    start = at + sentence.length;
  }
  return out;
}

const sides = (parts: QuestionPart[], ...evidence: Candidate[][]): SideEvidence[] =>
  parts.map((part, i) => ({ part, all: evidence[i] ?? [] }));

describe("decompose: comparisons of two named things", () => {
  it("splits 'Are A and B both X?' into one side each, with the attribute both must have", () => {
    const parts = decompose("Are Ada Brand and Carl Dorn both jazz pianists?");
    expect(parts.map((p) => p.alternative)).toEqual(["Ada Brand", "Carl Dorn"]);
    expect(parts[0]!.shared).toEqual({ attribute: "jazz pianists", same: [] });
  });

  it("reads 'Are both <kind>, A and B, X?' with the sides after the cue", () => {
    const parts = decompose("Are both journals, the Harbor Review and North Letters, Canadian periodicals?");
    expect(parts.map((p) => p.alternative)).toEqual(["Harbor Review", "North Letters"]);
    expect(parts[1]!.shared?.attribute).toBe("Canadian periodicals");
  });

  it("keeps 'the same X' in the attribute and names X as the value to share", () => {
    const parts = decompose("Are Lindau and Brixen located in the same country?");
    expect(parts.map((p) => p.alternative)).toEqual(["Lindau", "Brixen"]);
    expect(parts[0]!.shared?.same).toEqual(["country"]);
  });

  it("makes 'which came first, A or B' a comparison of dates, and 'which is larger' one of numbers", () => {
    const dated = decompose("Which school was founded first, Elm Academy or Oak College?");
    expect(dated.map((p) => [p.alternative, p.comparative, p.answerType])).toEqual([
      ["Elm Academy", "min", "date"],
      ["Oak College", "min", "date"],
    ]);
    expect(decompose("Who is younger, Ada Brand or Carl Dorn?")[0]!.comparative).toBe("max");
    expect(decompose("Which lake is larger, Lake Ulm or Lake Vrn?")[0]!.answerType).toBe("number");
  });

  it("finds the sides around 'or' when no comma sets them off", () => {
    const parts = decompose("Which band formed first The Quiet Hours or Paper Lanterns?");
    expect(parts.map((p) => p.alternative)).toEqual(["The Quiet Hours", "Paper Lanterns"]);
    expect(parts[0]!.comparative).toBe("min");
  });

  it("German and Chinese shared-attribute cues read the same way", () => {
    const de = decompose("Sind Anna Berg und Carla Dietz beide Architektinnen?");
    expect(de.map((p) => p.alternative)).toEqual(["Anna Berg", "Carla Dietz"]);
  });
});

describe("dateIn", () => {
  it("reads full dates, month and year, bare years and CJK dates as sortable keys", () => {
    expect(dateIn("She was born on July 14, 1939 in Ohio.")?.key).toBe(19390714);
    expect(dateIn("Founded 3 March 1921.")?.key).toBe(19210303);
    expect(dateIn("Opened in May 2004.")?.key).toBe(20040500);
    expect(dateIn("The band formed in 1997 in Los Angeles.")?.key).toBe(19970000);
    expect(dateIn("1998年4月2日に設立された。")?.key).toBe(19980402);
    expect(dateIn("It holds 2500 seats.")).toBeUndefined();
  });
});

describe("dateSide and dateComparisonClaim", () => {
  it("names the side with the earlier date first, citing both dates", () => {
    const parts = decompose("Which school was founded first, Elm Academy or Oak College?");
    const elm = passage(1, "Elm Academy", "Elm Academy is a school in Leeds. It was founded in 1902 by monks.");
    const oak = passage(2, "Oak College", "Oak College is a college. It was founded in 1888.");
    const dated = sides(parts, elm, oak).map(dateSide);
    expect(dated.map((d) => d?.date.key)).toEqual([19020000, 18880000]);
    const claim = dateComparisonClaim("Which school was founded first, Elm Academy or Oak College?", dated as never);
    expect(claim?.text).toBe("Oak College (1888), before Elm Academy (1902).");
    expect(claim?.citations.map((c) => c.n)).toEqual([2, 1]);
  });

  it("takes the later date for 'younger', and compares at the precision both state", () => {
    const parts = decompose("Who is younger, Ada Brand or Carl Dorn?");
    const ada = passage(1, "Ada Brand", "Ada Brand (born 2 May 1960) is a pianist.");
    const carl = passage(2, "Carl Dorn", "Carl Dorn (born 1958) is a drummer.");
    const claim = dateComparisonClaim(
      "Who is younger, Ada Brand or Carl Dorn?",
      sides(parts, ada, carl).map(dateSide) as never,
    );
    expect(claim?.text.startsWith("Ada Brand (2 May 1960), after")).toBe(true);
    const same = passage(2, "Carl Dorn", "Carl Dorn (born 1960) is a drummer.");
    expect(dateComparisonClaim("Who is younger?", sides(parts, ada, same).map(dateSide) as never)).toBeUndefined();
  });

  it("reads a side's date only from the evidence about that side", () => {
    const parts = decompose("Which school was founded first, Elm Academy or Oak College?");
    const other = passage(3, "River Town", "River Town was founded in 1700. Elm Academy stands nearby.");
    expect(dateSide({ part: parts[0]!, all: other })?.date.key).toBe(17000000);
    expect(dateSide({ part: parts[1]!, all: other })).toBeUndefined();
  });
});

describe("sharedVerdict", () => {
  const q = "Are Ada Brand and Carl Dorn both jazz pianists?";
  const parts = decompose(q);
  it("says yes when each side's own passage holds the attribute", () => {
    const ada = passage(1, "Ada Brand", "Ada Brand is an American jazz pianist.");
    const carl = passage(2, "Carl Dorn", "Carl Dorn is a Danish jazz pianist and composer.");
    const claim = sharedVerdict(q, sides(parts, ada, carl));
    expect(claim?.text.startsWith("Yes:")).toBe(true);
    expect(claim?.citations.map((c) => c.n)).toEqual([1, 2]);
  });

  it("says no when one side is described by fewer of the attribute's words, and names that side", () => {
    const ada = passage(1, "Ada Brand", "Ada Brand is an American jazz pianist.");
    const carl = passage(2, "Carl Dorn", "Carl Dorn is a Danish rock guitarist.");
    const claim = sharedVerdict(q, sides(parts, ada, carl));
    expect(claim?.text).toBe("No: the evidence does not describe Carl Dorn as jazz pianists, only Ada Brand.");
  });

  it("stays undecided when neither side is described in the question's words, or a side has no evidence", () => {
    const ada = passage(1, "Ada Brand", "Ada Brand is a painter.");
    const carl = passage(2, "Carl Dorn", "Carl Dorn is a sculptor.");
    expect(sharedVerdict(q, sides(parts, ada, carl))).toBeUndefined();
    expect(sharedVerdict(q, sides(parts, ada, []))).toBeUndefined();
  });

  it("compares the values next to 'the same X' for each side", () => {
    const sq = "Are Lindau and Brixen located in the same country?";
    const sp = decompose(sq);
    const lindau = passage(1, "Lindau", "Lindau is a town on Lake Constance in the country of Bavaria Land.");
    const brixen = passage(2, "Brixen", "Brixen is a town in the South Tyrol country Italia Region.");
    const no = sharedVerdict(sq, sides(sp, lindau, brixen));
    expect(no?.text.startsWith("No:")).toBe(true);
    const also = passage(2, "Brixen", "Brixen is a town near Lake Constance in the country of Bavaria Land.");
    expect(sharedVerdict(sq, sides(sp, lindau, also))?.text.startsWith("Yes:")).toBe(true);
  });

  it("answers in the question's language", () => {
    const de = "Sind Anna Berg und Carla Dietz beide Architektinnen?";
    const dp = decompose(de);
    const anna = passage(1, "Anna Berg", "Anna Berg ist eine bekannte Architektinnen aus Wien.");
    const carla = passage(2, "Carla Dietz", "Carla Dietz ist Malerin.");
    expect(sharedVerdict(de, sides(dp, anna, carla))?.text.startsWith("Nein:")).toBe(true);
  });
});
