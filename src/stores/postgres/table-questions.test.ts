/**
 * The offline engine's table questions (count, group-by, average, date range) over one CSV, ingested into a
 * SQLite file and into PostgreSQL (PGlite, and the PostgreSQL 15 cluster where present): each answer is the
 * same on both stores, and the numbers are the ones the CSV holds.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createFerret } from "../../ferret.js";
import { LOCAL_OWNER } from "../../spec/principal.js";
import { describeOnServers } from "./test-servers.js";

const PRIORITIES = ["low", "medium", "high", "urgent"];
const PRODUCTS = ["Telemetry_Gateway", "launch_scheduler", "ground_station"];

/** 24 tickets: priority cycles through four values, product through three; hours are 1.5 * (i % 5) + 1. */
function ticketsCsv(): string {
  const lines = ["ticket_id,created_at,product,priority,status,hours_spent,title"];
  for (let i = 0; i < 24; i++) {
    const month = String(1 + (i % 4)).padStart(2, "0");
    const day = String(1 + i).padStart(2, "0");
    lines.push(
      [
        `T-${100 + i}`,
        `2026-${month}-${day}`,
        PRODUCTS[i % 3],
        PRIORITIES[i % 4],
        i % 2 === 0 ? "open" : "closed",
        String(1.5 * (i % 5) + 1),
        `Ticket number ${i}`,
      ].join(","),
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Each question with the figure its answer must state (computed from the CSV above by hand). */
const QUESTIONS: [string, string][] = [
  ["How many support tickets are there?", "24 support tickets"],
  ["How many support tickets are there per priority?", "high 6, low 6, medium 6, urgent 6"],
  ["How many open support tickets are there?", "12 support tickets"],
  ["What is the average hours spent per support ticket?", "3.88"],
  [
    "What is the average hours spent per product?",
    "launch_scheduler 4.19, ground_station 3.81, Telemetry_Gateway 3.63",
  ],
  ["Which product has the highest average hours spent?", "launch_scheduler"],
  ["How many tickets were created in February 2026?", "6 support tickets"],
  ["Between 2026-02-01 and 2026-03-31, how many tickets were created?", "12 support tickets"],
];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "ferret-pg-tables-"));
  mkdirSync(join(dir, "data"));
  writeFileSync(join(dir, "data", "support_tickets.csv"), ticketsCsv());
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function answers(db: string): Promise<{ status: string; text: string }[]> {
  const ferret = await createFerret({ db, principal: LOCAL_OWNER });
  try {
    await ferret.ingest(join(dir, "data", "support_tickets.csv"), { source: "support_tickets" });
    const out = [];
    for (const [question] of QUESTIONS) {
      const answer = await ferret.ask(question);
      out.push({ status: answer.status, text: answer.text });
    }
    return out;
  } finally {
    await ferret.close();
  }
}

describeOnServers(
  (kind) => `the offline engine's table questions on ${kind} and SQLite`,
  (server, kind) => {
    it("gives the same answers on both stores", async () => {
      {
        const fromSqlite = await answers(join(dir, `${kind.length}-ferret.db`));
        const fromPg = await answers(await (await server()).database());
        for (const [i, [question, figure]] of QUESTIONS.entries()) {
          expect(fromSqlite[i]?.status, question).toBe("answered");
          expect(fromSqlite[i]?.text, question).toContain(figure);
          expect(fromPg[i], question).toEqual(fromSqlite[i]);
        }
      }
    }, 120_000);
  },
);
