import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import type { SqlDialect } from "../../../spec/sql-dialect.js";
import { sqliteDialect } from "../../../stores/sqlite/sql-dialect.js";
import { startsAsQuestion } from "./cues.js";
import { asksAggregate } from "./intent.js";
import { mapQuestion, planSql, speaksOfTable } from "./plan-sql.js";
import { distinctProbeSql } from "./probe.js";
import { profileColumns } from "./profile.js";
import type { PlanSqlOptions, SqlPlan } from "./types.js";
import { valuePhrases, withinOneEdit } from "./values.js";

// A small made-up table: 12 parcels of a courier firm in 2025. Cities and countries are stored as codes.
type Row = [string, string, string | null, string, string, string, string, number, number, string | null];
const ROWS: Row[] = [
  ["P-01", "2025-01-04", "2025-01-06", "MUC", "DE", "Swift Post", "yes", 2.5, 120, null],
  ["P-02", "2025-01-20", "2025-01-29", "PAR", "IT", "Blue Arrow Express", "no", 1800, 900, "corner dented"],
  ["P-03", "2025-02-02", "2025-02-05", "TYO", "JP", "Swift Post", "no", 3.1, 60, null],
  ["P-04", "2025-02-14", null, "MUC", "FR", "Blue Arrow Express", "yes", 2600, 4000, null],
  ["P-05", "2025-03-03", "2025-03-04", "PAR", "DE", "Swift Post", "no", 0.4, 15, "wet box"],
  ["P-06", "2025-03-09", "2025-03-15", "TYO", "US", "Kite Freight", "yes", 950, 2500, null],
  ["P-07", "2025-03-28", "2025-04-02", "MUC", "IT", "Kite Freight", "no", 12, 80, null],
  ["P-08", "2025-04-11", "2025-04-12", "MUC", "DE", "Swift Post", "yes", 7, 300, "torn label"],
  ["P-09", "2025-05-05", null, "PAR", "FR", "Blue Arrow Express", "no", 3100, 1500, null],
  ["P-10", "2025-05-22", "2025-05-30", "TYO", "JP", "Kite Freight", "no", 40, 700, null],
  ["P-11", "2025-06-02", "2025-06-03", "MUC", "DE", "Swift Post", "no", 1.2, 25, null],
  ["P-12", "2025-06-20", null, "PAR", "US", "Blue Arrow Express", "yes", 2200, 5200, null],
];
const TABLE: PlanSqlOptions["table"] = {
  name: "parcels",
  primaryKey: "parcel_id",
  description:
    "Parcel log for 2025, one row per parcel: sent_on, delivered_on, origin_city (MUC, PAR, TYO), dest_country " +
    "(ISO code), courier, fragile (yes/no), weight_kg, value_usd, damage_note (empty unless damaged).",
  columns: [
    { name: "parcel_id", type: "TEXT" },
    { name: "sent_on", type: "TEXT" },
    { name: "delivered_on", type: "TEXT" },
    { name: "origin_city", type: "TEXT" },
    { name: "dest_country", type: "TEXT" },
    { name: "courier", type: "TEXT" },
    { name: "fragile", type: "TEXT" },
    { name: "weight_kg", type: "REAL" },
    { name: "value_usd", type: "REAL" },
    { name: "damage_note", type: "TEXT" },
    { name: "_id", type: "TEXT" },
  ],
};
// describe_table samples only the most frequent values: dest_country's `US` and `JP` are left out here, and the
// free-text damage_note is not sampled at all.
const DESCRIBE = [
  { column: "parcel_id", type: "TEXT", kind: "text", distinct: 12, nulls: 0, key: true },
  { column: "sent_on", type: "TEXT", kind: "date", distinct: 12, nulls: 0, min: "2025-01-04", max: "2025-06-20" },
  { column: "delivered_on", type: "TEXT", kind: "date", distinct: 9, nulls: 3, min: "2025-01-06", max: "2025-05-30" },
  { column: "origin_city", type: "TEXT", kind: "text", distinct: 3, nulls: 0, values: ["MUC", "PAR", "TYO"] },
  { column: "dest_country", type: "TEXT", kind: "text", distinct: 5, nulls: 0, values: ["DE", "FR", "IT"] },
  {
    column: "courier",
    type: "TEXT",
    kind: "text",
    distinct: 3,
    nulls: 0,
    values: ["Blue Arrow Express", "Swift Post", "Kite Freight"],
  },
  { column: "fragile", type: "TEXT", kind: "text", distinct: 2, nulls: 0, values: ["no", "yes"] },
  { column: "weight_kg", type: "REAL", kind: "number", distinct: 12, nulls: 0, min: 0.4, max: 3100 },
  { column: "value_usd", type: "REAL", kind: "number", distinct: 12, nulls: 0, min: 15, max: 5200 },
  { column: "damage_note", type: "TEXT", kind: "text", distinct: 3, nulls: 9 },
];

const db = new Database(":memory:");
db.exec(
  "CREATE TABLE parcels (parcel_id TEXT, sent_on TEXT, delivered_on TEXT, origin_city TEXT, dest_country TEXT, " +
    "courier TEXT, fragile TEXT, weight_kg REAL, value_usd REAL, damage_note TEXT, _id TEXT)",
);
const insert = db.prepare("INSERT INTO parcels VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
for (const row of ROWS) insert.run(...row, `parcels.csv#${row[0]}`);
afterAll(() => db.close());

const probeSql = distinctProbeSql(TABLE, DESCRIBE);
const PROBE = probeSql ? (db.prepare(probeSql).all() as Record<string, unknown>[]) : [];

function plan(question: string, extra: Partial<PlanSqlOptions> = {}): SqlPlan {
  const p = planSql({ question, dialect: sqliteDialect, table: TABLE, describe: DESCRIBE, distinct: PROBE, ...extra });
  if (!p) throw new Error(`no plan for: ${question}`);
  return p;
}

function ids(question: string, extra: Partial<PlanSqlOptions> = {}): unknown[] {
  const p = plan(question, extra);
  return (db.prepare(p.listSql).all() as Record<string, unknown>[]).map((r) => r.parcel_id);
}

function value(question: string): Record<string, unknown> | undefined {
  return db.prepare(plan(question).sql).get() as Record<string, unknown> | undefined;
}

describe("aggregate cues", () => {
  it("recognise counting, sums, averages and extremes in English, German, Chinese and Japanese", () => {
    for (const q of [
      "How many parcels went to Italy?",
      "Wie viele Pakete gingen nach Italien?",
      "有多少包裹寄往意大利？",
      "イタリア向けの荷物は何件ですか？",
      "Durchschnittliches Gewicht?",
      "What was the lightest parcel?",
      "合計金額は？",
    ]) {
      expect(asksAggregate(q), q).toBe(true);
    }
    for (const q of ["Who signs off fragile parcels?", "Wer unterschreibt?", "誰が担当ですか？"]) {
      expect(asksAggregate(q), q).toBe(false);
    }
  });

  it("choose the aggregate in any of those languages", () => {
    expect(plan("Wie viele Pakete gingen nach Frankreich?").kind).toBe("count");
    expect(plan("フランス向けの荷物は何件ですか？").kind).toBe("count");
    expect(plan("Durchschnittliches Gewicht der Pakete nach Frankreich?").kind).toBe("avg");
  });
});

describe("the distinct-values probe", () => {
  it("reads every value of text columns describe_table sampled only in part, and nothing else", () => {
    expect(probeSql).toContain(`'dest_country' AS "column"`);
    expect(probeSql).toContain(`'damage_note' AS "column"`);
    expect(probeSql).not.toContain(`'courier'`);
    expect(probeSql).not.toContain(`'parcel_id'`);
    expect(distinctProbeSql(TABLE, DESCRIBE, 4)).not.toContain("'dest_country'");
  });

  it("lets a value the sample left out be matched", () => {
    expect(ids("How many parcels went to Japan?")).toEqual(["P-03", "P-10"]);
    expect(
      planSql({
        question: "How many parcels went to Japan?",
        dialect: sqliteDialect,
        table: TABLE,
        describe: DESCRIBE,
      }),
    ).toBeUndefined();
  });
});

describe("value normalisation", () => {
  it("matches place names in four languages to stored codes, and codes only as written", () => {
    expect(ids("How many parcels went to Germany?")).toEqual(["P-01", "P-05", "P-08", "P-11"]);
    expect(ids("How many parcels went to Deutschland?")).toEqual(["P-01", "P-05", "P-08", "P-11"]);
    expect(ids("How many parcels left Munich for France?")).toEqual(["P-04"]);
    expect(ids("東京からの荷物は何件？")).toEqual(["P-03", "P-06", "P-10"]);
    expect(ids("How many parcels went to IT?")).toEqual(["P-02", "P-07"]);
    // "it" is a pronoun, not Italy's code.
    const p = plan("How many parcels went to Germany, and was it cheap?", { maxUnmapped: 1 });
    expect(p.sql).not.toContain("'IT'");
    expect(p.unmapped).toEqual(["cheap"]);
  });

  it("matches a multi-word value by a word only it has, and plurals of one-word values", () => {
    expect(ids("How many Swift parcels went to Germany?")).toEqual(["P-01", "P-05", "P-08", "P-11"]);
    expect(ids("How many Kite parcels are there?")).toEqual(["P-06", "P-07", "P-10"]);
    // `express` names one courier; no word is shared.
    expect(profileColumns(TABLE, DESCRIBE).find((c) => c.name === "courier")?.values).toContain("Blue Arrow Express");
    expect(valuePhrases(profileColumns(TABLE, DESCRIBE), []).some((p) => p.phrase === "arrow")).toBe(true);
  });

  it("reads a named yes/no column as yes, negated as no, with one typo allowed", () => {
    expect(ids("How many fragile parcels went to the US?")).toEqual(["P-06", "P-12"]);
    expect(ids("How many non-fragile parcels went to the US?")).toEqual([]);
    expect(ids("How many fragle parcels went to France?")).toEqual(["P-04"]);
    expect(withinOneEdit("hazardus", "hazardous")).toBe(true);
    expect(withinOneEdit("hazard", "hazardous")).toBe(false);
  });

  it("reads an often-empty text column as present when named, and as empty when negated", () => {
    expect(ids("How many damaged Swift Post parcels are there?")).toEqual(["P-05", "P-08"]);
    expect(ids("How many Swift Post parcels have no damage note?")).toEqual(["P-01", "P-03", "P-11"]);
  });
});

describe("measures, units, shares and rankings", () => {
  it("converts a unit to the column's (tonnes to kg)", () => {
    expect(ids("How many parcels weighed more than 2 tonnes?")).toEqual(["P-04", "P-09", "P-12"]);
    expect(plan("How many parcels weighed more than 2 tonnes?").sql).toContain('"weight_kg" > 2000');
  });

  it("finds the measure a superlative names (lightest: weight; most expensive: value)", () => {
    expect(ids("What was the lightest parcel?")).toEqual(["P-05"]);
    expect(ids("What was the heaviest Swift Post parcel?")).toEqual(["P-08"]);
    expect(ids("What was the most expensive parcel to the US?")).toEqual(["P-12"]);
  });

  it("computes the share of rows meeting the condition named last", () => {
    const p = plan("What share of Swift Post parcels were damaged?");
    expect(p.kind).toBe("share");
    expect(value("What share of Swift Post parcels were damaged?")).toEqual({ value: 40, k: 2, n: 5 });
  });

  it("ranks groups by a count, all of them, highest first", () => {
    const p = plan("Rank the couriers by number of fragile parcels.");
    expect(p.kind).toBe("group");
    expect(db.prepare(p.sql).all()).toEqual([
      { courier: "Blue Arrow Express", n: 2 },
      { courier: "Swift Post", n: 2 },
      { courier: "Kite Freight", n: 1 },
    ]);
    expect(plan("Which country got the most parcels from Paris?").kind).toBe("top_group");
  });

  it("counts a relative window back from the data's latest date", () => {
    expect(ids("How many parcels were sent last month?")).toEqual(["P-09", "P-10"]);
    expect(ids("How many parcels were sent in the past 10 days?")).toEqual(["P-12"]);
  });
});

describe("what is not mapped is said, not guessed", () => {
  it("keeps one unexplained word as unmapped, and gives up on two or on a strict setting", () => {
    const p = plan("How many parcels are stuck in Munich?", { maxUnmapped: 1 });
    expect(p.unmapped).toEqual(["stuck"]);
    expect(
      planSql({
        question: "How many parcels are stuck in Munich?",
        dialect: sqliteDialect,
        table: TABLE,
        describe: DESCRIBE,
      }),
    ).toBe(undefined);
    expect(
      planSql({
        question: "How many parcels went to Narnia via wormhole?",
        dialect: sqliteDialect,
        table: TABLE,
        describe: DESCRIBE,
        maxUnmapped: 1,
      }),
    ).toBeUndefined();
  });
});

describe("names and dates the data does not hold are not left out", () => {
  it("gives up on an unmatched place or capitalised name, and on a range outside the data's dates", () => {
    const none = (question: string) =>
      planSql({ question, dialect: sqliteDialect, table: TABLE, describe: DESCRIBE, distinct: PROBE, maxUnmapped: 1 });
    expect(none("How many parcels went to Australia?")).toBeUndefined();
    expect(none("How many Acme parcels went to Italy?")).toBeUndefined();
    expect(none("How many parcels were sent in 2024?")).toBeUndefined();
    expect(none("How many parcels were sent in 2025?")).toBeDefined();
    // A word left out needs conditions that were named, and is never a time unit (a rate).
    expect(none("How many parcels are stuck?")).toBeUndefined();
    expect(none("How many parcels to Italy are stuck?")?.unmapped).toEqual(["stuck"]);
    expect(none("How many parcels a week go to Italy?")).toBeUndefined();
  });
});

describe("mapQuestion", () => {
  it("says why a question could not be mapped, naming the words or dates the table does not hold", () => {
    const why = (question: string) =>
      mapQuestion({
        question,
        dialect: sqliteDialect,
        table: TABLE,
        describe: DESCRIBE,
        distinct: PROBE,
        maxUnmapped: 1,
      }).reason;
    expect(why("How many truck bays does the Munich depot have?")).toBe(
      "no column or value of the parcels table matches: truck, bays, depot",
    );
    expect(why("How many parcels were sent in 2024?")).toBe(
      "the dates asked for fall outside the parcels table's data (2025-01-04 to 2025-06-20)",
    );
    expect(why("How many parcels went to Italy?")).toBeUndefined();
  });
});

describe("speaksOfTable", () => {
  it("hears the table in its rows' name and synonyms, its columns, date verbs and listed place codes", () => {
    expect(speaksOfTable("How many parcels went to Italy?", TABLE)).toBe(true);
    expect(speaksOfTable("What is the total value usd?", TABLE)).toBe(true);
    expect(speaksOfTable("How many were delivered in May?", TABLE)).toBe(true);
    expect(speaksOfTable("東京の件数は？", TABLE)).toBe(true);
    expect(speaksOfTable("How many engineers are on call?", TABLE)).toBe(false);
  });
});

describe("the store's dialect", () => {
  it("writes the SQL that differs between databases through the dialect it is given", () => {
    expect(sqliteDialect.daysBetween("a", "b")).toBe('julianday("b") - julianday("a")');
    expect(sqliteDialect.equalsIgnoreCase("c", "'x'")).toBe(`"c" = 'x' COLLATE NOCASE`);
    expect(sqliteDialect.datePrefix("d", 7)).toBe('substr("d", 1, 7)');
    expect(plan("What is the average time to deliver a parcel?").sql).toContain("julianday");
    const other: SqlDialect = {
      ...sqliteDialect,
      daysBetween: (start, end) => `days_from(${start}, ${end})`,
      present: (column) => `has_value(${column})`,
    };
    const average = plan("What is the average time to deliver a parcel?", { dialect: other }).sql;
    expect(average).toMatch(/days_from\(\w+, \w+\)/);
    expect(average).not.toContain("julianday");
    expect(plan("How many parcels have a damage note?", { dialect: other }).sql).toContain("has_value(damage_note)");
  });
});

describe("startsAsQuestion", () => {
  it("tells a clause asking its own question from a fragment of a split one", () => {
    expect(startsAsQuestion("How long does a refund take")).toBe(true);
    expect(startsAsQuestion("Wie lange dauert es")).toBe(true);
    expect(startsAsQuestion("From Munich")).toBe(false);
    expect(startsAsQuestion("Of the parcels sent in May")).toBe(false);
    expect(startsAsQuestion("On average")).toBe(false);
  });
});
