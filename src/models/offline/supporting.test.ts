import { describe, expect, it } from "vitest";
import { addsConstraint, earnsCitation, linksTo, type SupportUnit, supportingUnits } from "./supporting.js";

function unit(docId: string, title: string, quote: string, rest = ""): SupportUnit {
  return { quote, context: `${title} ${quote}`, title, passageText: `${title}\n${quote} ${rest}`, item: { docId } };
}

const lead = unit(
  "guides/quillon.md",
  "Quillon gateway",
  "Quillon gateway drops idle sessions after 40 minutes.",
  "Status codes: idle_drop.",
);

describe("earnsCitation", () => {
  const question = "After how long does the Quillon gateway drop idle sessions?";

  it("keeps a sentence of a document the answer already cites", () => {
    const same = unit("guides/quillon.md", "Quillon gateway", "Sessions are kept in memory.");
    expect(earnsCitation(question, same, [lead])).toBe(true);
  });

  it("drops a sentence of another document that only repeats the answer", () => {
    const echo = unit("notes/faq.md", "FAQ", "Idle sessions are dropped after 40 minutes.");
    expect(earnsCitation(question, echo, [lead])).toBe(false);
  });

  it("drops context of another document that names nothing the kept evidence or the question names", () => {
    const context = unit("guides/brimhall.md", "Brimhall relay", "Brimhall relay forwards packets to Ostwick.");
    expect(earnsCitation(question, context, [lead])).toBe(false);
  });

  it("keeps a sentence of another document that holds a name of the question the kept passages lack", () => {
    const q = "After how long does the Quillon gateway drop idle sessions in the Marrowfield region?";
    const region = unit("regions/marrowfield.md", "Marrowfield region", "Marrowfield runs its own Quillon pool.");
    expect(addsConstraint(q, region, [lead])).toBe(true);
    expect(earnsCitation(q, region, [lead])).toBe(true);
    // Once a kept passage holds it, another passage naming it adds nothing.
    expect(addsConstraint(q, region, [lead, region])).toBe(false);
  });

  it("drops a sentence whose passage names the constraint only in another sentence", () => {
    const q = "After how long does the Quillon gateway drop idle sessions in the Marrowfield region?";
    const aside = unit(
      "notes/lore.md",
      "Place names",
      "The old name means 'the headland'.",
      "Marrowfield was once a port.",
    );
    expect(addsConstraint(q, aside, [lead])).toBe(false);
    expect(earnsCitation(q, aside, [lead])).toBe(false);
    const stating = unit("notes/lore.md", "Place names", "Marrowfield was once a port.");
    expect(addsConstraint(q, stating, [lead])).toBe(true);
  });

  it("drops a sentence that adds a constraint but says nothing asked, unless it is that constraint's own record", () => {
    const q = "How long may the Quillon gateway keep idle sessions on a holdover-class link?";
    const asked = ["long", "keep", "idle", "sessions", "link"];
    const namesOnly = unit("guides/reviews.md", "Review calendar", "Holdover-class reviews happen each quarter.");
    expect(addsConstraint(q, namesOnly, [lead], undefined, asked)).toBe(false);
    expect(addsConstraint(q, namesOnly, [lead], { linkInPassage: false, constraintSaysAsked: false }, asked)).toBe(
      true,
    );
    const saying = unit("guides/classes.md", "Link classes", "On holdover-class links idle sessions stay 90 minutes.");
    expect(addsConstraint(q, saying, [lead], undefined, asked)).toBe(true);
    // The record of an identifier the question names stands for it, whatever language its sentence is in.
    const rq = "How long did the Quillon gateway keep idle sessions during QX-12?";
    const record = unit("reports.jsonl#QX-12", "QX-12", "Der Dienst fiel um 04:10 Uhr aus.");
    expect(addsConstraint(rq, record, [lead], undefined, asked)).toBe(true);
  });
});

describe("linksTo", () => {
  const question = "Who is married to the director of Hollow Tide?";
  const film = unit("p#1", "Hollow Tide", "Hollow Tide is a 1951 drama film directed by Orrin Vasko.");

  it("follows a chain to the page of something a kept sentence names", () => {
    const director = unit("p#2", "Orrin Vasko", "He married the painter Lisel Marr in 1940.");
    expect(linksTo(question, director, [film])).toBe(true);
  });

  it("follows a chain through a name a kept sentence and the unit share, not one the question gives", () => {
    const other = unit("p#3", "Marr family", "Orrin Vasko and Lisel Marr lived in Dunmere.");
    expect(linksTo(question, other, [film])).toBe(true);
    const onlyQuestion = unit("p#4", "Reviews", "Critics praised Hollow Tide for its score.");
    expect(linksTo(question, onlyQuestion, [film])).toBe(false);
  });

  it("links a code to a kept sentence or a kept record, to the rest of a page only when the rules say so", () => {
    const status = unit("ops/codes.md", "Operations codes", "idle_drop: the session timed out.");
    // The code is in the kept page, not in its quoted sentence: another sentence of the page is not cited.
    expect(linksTo("Why was my Quillon session dropped?", status, [lead])).toBe(false);
    expect(
      linksTo("Why was my Quillon session dropped?", status, [lead], {
        linkInPassage: true,
        constraintSaysAsked: true,
      }),
    ).toBe(true);
    // A record's fields are one statement about it: its status code links to the page explaining the code.
    const record = unit("sessions.csv#S-77", "Session S-77", "session_id: S-77", "state: idle_drop");
    expect(linksTo("Why was session S-77 dropped?", status, [record])).toBe(true);
    const passageOnly = unit("p#5", "Trivia", "Ostwick Harbour opened in 1902.");
    const kept = unit("p#6", "Hollow Tide", "Hollow Tide is a drama.", "It was shot near Ostwick Harbour.");
    expect(linksTo(question, passageOnly, [kept])).toBe(false);
  });
});

describe("supportingUnits", () => {
  it("keeps each unit that continues the chain from those kept before it, in order", () => {
    const question = "Which river runs past the birth town of the writer of Greyfen?";
    const book = unit("p#1", "Greyfen", "Greyfen is a novel by Tamsin Oake.");
    const author = unit("p#2", "Tamsin Oake", "Tamsin Oake was born in Vellbridge.");
    const town = unit("p#3", "Vellbridge", "Vellbridge lies on the river Coll.");
    const noise = unit("p#4", "Rivers of Norland", "The Skarn is the longest river in Norland.");
    expect(supportingUnits(question, [book], [author, noise, town])).toEqual([author, town]);
  });
});
