import { z } from "zod";
import type { Citation } from "./answer.js";

/**
 * A citation's fields as clients receive them, declared once: the HTTP API makes its `Citation` component of
 * them (`z.object(citationShape).openapi("Citation")`: zod gives `.openapi` only to schemas made after
 * @hono/zod-openapi loaded, so the server builds its own object), and the MCP `ask` tool `citationSchema`.
 */
export const citationShape = {
  n: z.number().describe("The cited passage's number in the answer's evidence, from 1."),
  passageId: z.string().describe("The cited passage's id, unique within its source."),
  docId: z.string().describe("The document holding the passage (a web page's URL for a page)."),
  source: z.string().describe("The passage's source."),
  quote: z.string().describe("The exact words quoted from the passage."),
  url: z
    .string()
    .optional()
    .describe("For a web page: its URL with a text fragment (#:~:text=) that opens it at the quoted sentence."),
  locator: z
    .string()
    .optional()
    .describe("Where to look in the document: `page 3`, `Sheet1!A3:D3`, `slide 2`, `lines 10-42`, `message 4`."),
};

/** The MCP `ask` tool's citation: its output schema, and what strips an answer's citations to those fields. */
export const citationSchema = z.object(citationShape) satisfies z.ZodType<Citation>;
