import { describe, expect, it } from "vitest";
import type { AgentState, CallRecord, ToolDescriptor } from "../../spec/engine.js";
import type { TableSchema } from "../../spec/source.js";
import { sqliteDialect } from "../../stores/sqlite/sql-dialect.js";
import { makeState } from "../__fixtures__/state.js";
import { decompose } from "./analyze.js";
import { borrowsDescription, sqlCalls } from "./sql-steps.js";

// A made-up courier firm: a handbook and a table of parcels whose text columns describe_table listed in full.
const tool = (name: string): ToolDescriptor => ({
  name,
  description: name,
  inputSchema: { type: "object", properties: {} },
  parallelSafe: true,
});
const PARCELS: TableSchema = {
  name: "parcels",
  primaryKey: "parcel_id",
  columns: [
    { name: "parcel_id", type: "TEXT" },
    { name: "sent_on", type: "TEXT" },
    { name: "courier", type: "TEXT" },
    { name: "value_usd", type: "REAL" },
  ],
};
const DESCRIBED = [
  { column: "parcel_id", type: "TEXT", kind: "text", distinct: 9, nulls: 0, key: true },
  { column: "sent_on", type: "TEXT", kind: "date", distinct: 9, nulls: 0, min: "2025-01-04", max: "2025-06-20" },
  { column: "courier", type: "TEXT", kind: "text", distinct: 2, nulls: 0, values: ["Swift Post", "Kite Freight"] },
  { column: "value_usd", type: "REAL", kind: "number", distinct: 9, nulls: 0, min: 15, max: 5200 },
];

function tableState(question: string, calls: CallRecord[]): AgentState {
  const base = makeState({ question, standaloneQuestion: question });
  return {
    ...base,
    sources: [
      ...base.sources,
      {
        name: "parcels",
        tenant: "t",
        kind: "table",
        description: "Parcel log, one row per parcel: sent_on, courier, value_usd.",
        acl: [],
        documents: 9,
        chunks: 9,
        tables: [PARCELS],
      },
    ],
    tools: [...base.tools, tool("describe_table"), tool("run_sql")],
    sqlDialect: sqliteDialect,
    calls,
  };
}

const describedBy = (part: number): CallRecord => ({
  call: { callId: `d${part}`, tool: "describe_table", args: { table: "parcels" }, subQuestion: part },
  step: 1,
  status: "ok",
  passageKeys: [],
  rows: DESCRIBED,
});

describe("two clauses over one table", () => {
  const question =
    "Above which value does the handbook want insured parcels, and how many parcels did Kite Freight carry?";
  const parts = decompose(question);

  it("a part whose table another part described plans its SQL on that description", () => {
    expect(parts).toHaveLength(2);
    const state = tableState(question, [describedBy(0)]);
    expect(borrowsDescription(state, parts[1]!, 1)).toBe(true);
    const calls = sqlCalls(state, parts[1]!, 1);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((c) => c.tool === "run_sql" && c.subQuestion === 1)).toBe(true);
    expect(String(calls[0]!.args.sql)).toContain("Kite Freight");
  });

  it("borrows nothing without another part's description, or for a clause that asks for no computation", () => {
    expect(borrowsDescription(tableState(question, []), parts[1]!, 1)).toBe(false);
    const plain = "Who signs for insured parcels, and what does the handbook say about parcels left outside?";
    const plainParts = decompose(plain);
    expect(borrowsDescription(tableState(plain, [describedBy(0)]), plainParts[1]!, 1)).toBe(false);
  });
});
