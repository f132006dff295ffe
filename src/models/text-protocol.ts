/**
 * The text tool-call protocol for models without native tool calling:
 *
 *   THINKING: what to look for and why
 *   SUBQUESTIONS: ["...", "..."]      (optional)
 *   TOOL: search
 *   PARAMS: {"query": "...", "corpus": "docs"}
 *   (more TOOL / PARAMS pairs)
 *
 * or `ANSWER` when searching is done. PARAMS are repaired with jsonrepair (single quotes, trailing commas,
 * missing braces, code fences); what cannot be repaired is a `TextProtocolError` naming the problem.
 */
import { jsonrepair } from "jsonrepair";

export interface TextProtocolReply {
  thought: string;
  subQuestions: string[];
  calls: { tool: string; args: Record<string, unknown> }[];
  /** The model said ANSWER (and made no calls). */
  answer: boolean;
}

/** The reply does not follow the protocol; the message is shown to the model on retry. */
export class TextProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TextProtocolError";
  }
}

const KEYWORD = /^[\s>*_#-]*(THINKING|SUBQUESTIONS|SUB-QUESTIONS|TOOL|PARAMS|ANSWER)\b[*_]*\s*:?[*_]*\s?(.*)$/i;

interface Section {
  key: string;
  body: string;
}

function sections(text: string): Section[] {
  const out: Section[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = KEYWORD.exec(line);
    if (m) out.push({ key: m[1]!.toUpperCase().replace("-", ""), body: m[2] ?? "" });
    else if (out.length > 0) out[out.length - 1]!.body += `\n${line}`;
  }
  return out.map((s) => ({ key: s.key, body: s.body.trim() }));
}

function stripFences(text: string): string {
  return text
    .replace(/^```[a-z]*\s*/i, "")
    .replace(/```\s*$/, "")
    .trim();
}

/** Parses JSON, repairing it when needed; throws TextProtocolError when it cannot. */
export function parseLooseJson(text: string, what: string): unknown {
  const body = stripFences(text);
  if (!body) throw new TextProtocolError(`${what} is empty`);
  try {
    return JSON.parse(body);
  } catch {
    try {
      return JSON.parse(jsonrepair(body));
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new TextProtocolError(`${what} is not valid JSON (${detail}): ${body.slice(0, 200)}`);
    }
  }
}

function toolName(raw: string): string {
  return raw
    .split("\n")[0]!
    .replace(/[`"'*]/g, "")
    .trim();
}

/** Parses one reply. Reasoning in `<think>` blocks is ignored. */
export function parseTextProtocol(text: string): TextProtocolReply {
  const cleaned = text.replace(/<think>[\s\S]*?<\/think>/gi, "").trim();
  const reply: TextProtocolReply = { thought: "", subQuestions: [], calls: [], answer: false };
  let pending: string | undefined;
  const flush = (args: Record<string, unknown>) => {
    if (pending !== undefined) reply.calls.push({ tool: pending, args });
    pending = undefined;
  };
  for (const section of sections(cleaned)) {
    switch (section.key) {
      case "THINKING":
        reply.thought = reply.thought ? `${reply.thought}\n${section.body}` : section.body;
        break;
      case "SUBQUESTIONS": {
        const value = parseLooseJson(section.body, "SUBQUESTIONS");
        if (!Array.isArray(value)) throw new TextProtocolError("SUBQUESTIONS must be a JSON array of strings");
        reply.subQuestions = value.map(String).filter((q) => q.trim().length > 0);
        break;
      }
      case "TOOL": {
        flush({});
        const name = toolName(section.body);
        if (!name) throw new TextProtocolError("a TOOL line names no tool");
        pending = name;
        break;
      }
      case "PARAMS": {
        if (pending === undefined) throw new TextProtocolError("a PARAMS line does not follow a TOOL line");
        const value = parseLooseJson(section.body, `PARAMS of ${pending}`);
        if (typeof value !== "object" || value === null || Array.isArray(value)) {
          throw new TextProtocolError(`PARAMS of ${pending} must be a JSON object`);
        }
        flush(value as Record<string, unknown>);
        break;
      }
      case "ANSWER":
        reply.answer = true;
        break;
    }
  }
  flush({});
  if (reply.calls.length > 0) reply.answer = false;
  else if (!reply.answer) throw new TextProtocolError("the reply has no TOOL line and no ANSWER line");
  return reply;
}
