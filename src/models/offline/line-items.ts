import { cellsOf, isTableRow, type Unit } from "./evidence-view.js";

/**
 * Line items of financial statements under the names filings and people give them: "revenue" is the
 * "Net sales" row, "net profit" the "Profit for the year" row, "R&D" the "Research and development" row.
 * Each entry is one item, its forms lower case; a longer form wins over a shorter one it contains
 * ("income before income taxes" is pre-tax income, not income tax). No entry is about one filing.
 */
const ITEMS: readonly (readonly string[])[] = [
  ["net revenue retention", "net retention", "dollar-based net retention"],
  ["annual recurring revenue", "arr"],
  ["revenue", "revenues", "net sales", "total net sales", "total sales", "turnover", "net revenue", "net revenues"],
  ["cost of sales", "cost of revenue", "cost of revenues", "cost of goods sold"],
  ["gross profit", "gross margin"],
  ["research and development", "r&d"],
  ["selling, general and administrative", "sg&a"],
  ["general and administrative", "g&a"],
  ["sales and marketing", "selling and marketing", "marketing and selling"],
  ["operating income", "operating profit", "operating loss", "income from operations", "operating income (loss)"],
  ["interest expense", "net interest expense", "finance costs"],
  [
    "income before income taxes",
    "income before taxes",
    "profit before tax",
    "profit before taxes",
    "pretax income",
    "pre-tax income",
    "earnings before income taxes",
  ],
  ["income tax", "income taxes", "provision for income taxes", "income tax expense", "tax expense"],
  ["net income", "net profit", "net earnings", "net loss", "profit for the year", "profit for the period"],
  ["earnings per share", "eps"],
  ["cash and cash equivalents"],
  [
    "net cash provided by operating activities",
    "cash generated from operations",
    "cash from operations",
    "operating cash flow",
    "cash flow from operations",
    "operating activities",
  ],
  ["net cash used in investing activities", "investing activities"],
  ["net cash used in financing activities", "financing activities"],
  [
    "capital expenditures",
    "capital expenditure",
    "capex",
    "purchases of property, plant and equipment",
    "additions to property and equipment",
  ],
  ["free cash flow"],
  ["dividends paid", "dividends"],
  ["share repurchases", "repurchases of common stock", "share buybacks", "buybacks", "repurchase of shares"],
  ["property, plant and equipment", "property and equipment"],
  ["accounts receivable", "trade receivables", "receivables"],
  ["inventories", "inventory"],
  ["goodwill"],
  ["intangible assets"],
  ["total assets"],
  ["total current assets", "current assets"],
  ["total liabilities"],
  ["total current liabilities", "current liabilities"],
  ["accounts payable", "trade payables"],
  ["long-term debt", "borrowings", "long-term borrowings", "total debt"],
  ["shareholders' equity", "stockholders' equity", "total equity", "total shareholders' equity"],
  ["deferred revenue", "unearned revenue", "contract liabilities"],
  ["depreciation and amortization", "depreciation"],
  ["restructuring charges", "restructuring charge", "restructuring costs", "restructuring"],
];

/** Every form with its item, longest first, so a longer form is matched before one it contains. */
const FORMS: readonly { form: string; item: number }[] = ITEMS.flatMap((forms, item) =>
  forms.map((form) => ({ form, item })),
).sort((a, b) => b.form.length - a.form.length);

const clean = (text: string) =>
  ` ${text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/g, " ")} `;

const edge = (c: string | undefined) => c === undefined || !/[\p{L}\p{N}&]/u.test(c);

/** Each line-item name in a cleaned text: its item, the form and where it starts, a longer form taking its span. */
function matches(cleaned: string): { item: number; form: string; at: number }[] {
  let rest = cleaned;
  const out: { item: number; form: string; at: number }[] = [];
  for (const { form, item } of FORMS) {
    let at = rest.indexOf(form);
    while (at >= 0) {
      if (edge(rest[at - 1]) && edge(rest[at + form.length])) {
        out.push({ item, form, at });
        rest = `${rest.slice(0, at)}${" ".repeat(form.length)}${rest.slice(at + form.length)}`;
      }
      at = rest.indexOf(form, at + 1);
    }
  }
  return out;
}

/** The line items a text names, each matched span taken by its longest form, with the forms it used. */
export function lineItemsIn(text: string): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const { item, form } of matches(clean(text))) out.set(item, [...(out.get(item) ?? []), form]);
  return out;
}

/** "as a percentage of", "% of", "a share of": what follows is the base of a ratio, not the figure stated. */
const RATIO_OF = /(?:percentage|percent|per cent|%|share|proportion|fraction|ratio)\s+of\s+(?:total\s+)?$/;

/**
 * The line items a sentence states a figure of: those it names other than only as the base of a ratio.
 * "Gross margin as a percentage of net sales was 40.0%" states gross margin, not revenue; "R&D was 12% of
 * revenue" states R&D.
 */
export function statedLineItems(text: string): Set<number> {
  const cleaned = clean(text);
  const stated = matches(cleaned).filter(({ at }) => !RATIO_OF.test(cleaned.slice(Math.max(0, at - 40), at)));
  return new Set(stated.map((m) => m.item));
}

/** The one statement line item a question asks for, if it names exactly one, and the names it gives it. */
export function askedLineItem(question: string): { item: number; names: string[] } | undefined {
  const items = [...lineItemsIn(question)];
  const [only] = items;
  return items.length === 1 && only ? { item: only[0], names: only[1] } : undefined;
}

/**
 * The words a search for a line item adds to the question's: the item's first (fullest) name, when the question
 * calls it only by a one-word name ("R&D", "capex", "EPS", "turnover"). A filing's row is labelled by the full
 * name ("Research and development"), and an abbreviation splits into letters no search or grade can use.
 * Nothing when the question already says a name of more than one word, or the item's first name.
 */
export function searchNameFor(asked: { item: number; names: readonly string[] }): string | undefined {
  const first = ITEMS[asked.item]?.[0];
  if (first === undefined || asked.names.includes(first)) return undefined;
  return asked.names.every((n) => !/\s/.test(n)) ? first : undefined;
}

/** Does a text name the line item, under any of its names? */
export function namesLineItem(text: string, item: number): boolean {
  return lineItemsIn(text).has(item);
}

/**
 * Does a unit state the asked line item? A table row does when its label names it, or, where its label
 * names no line item ("Beverages" in a segment table), when its column headers or heading do; a row labelled
 * by another item is not an answer to this one. A sentence does when it names the item. Either holds a figure.
 */
export function statesLineItem(unit: Unit, item: number): boolean {
  // A line item's amount is a figure: a caption ("Net sales:"), a heading or a sentence without one states none.
  if (!/\d/.test(unit.text) || /^\s*#/.test(unit.text)) return false;
  if (!isTableRow(unit.text)) return statedLineItems(unit.text).has(item);
  const label = cellsOf(unit.text).find((c) => c !== "") ?? "";
  const named = lineItemsIn(label);
  if (named.size > 0) return named.has(item);
  return lineItemsIn(`${unit.header?.join(" | ") ?? ""} | ${unit.heading ?? ""}`).has(item);
}

/** Words of a row label that add nothing to the item it names: a total is the item itself. */
const PLAIN = new Set(["total", "net"]);

/**
 * How well a statement row's label fits the asked line item, 0 to 1: the share of its words besides the
 * item's name that the question says. "Total net sales" fits a question on revenue wholly; "Net sales:
 * Products" fits it less (the question does not ask for products). Not a table row, or not the item: 0.
 */
export function rowFit(unit: Unit, item: number, asked: ReadonlySet<string>): number {
  if (!isTableRow(unit.text)) return 0;
  const label = cellsOf(unit.text).find((c) => c !== "") ?? "";
  const forms = lineItemsIn(label).get(item);
  if (forms === undefined) return 0;
  let rest = clean(label);
  for (const form of forms) rest = rest.replace(form, " ");
  const extra = rest.split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "" && !PLAIN.has(w));
  if (extra.length === 0) return 1;
  return extra.filter((w) => asked.has(w)).length / (extra.length + 1);
}
