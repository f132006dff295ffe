/**
 * A structured (JSON) reply from a model: AI SDK structured output with a zod schema; a reply that does
 * not parse is repaired with jsonrepair, then the model gets one retry that shows it the error, then the
 * call fails with ModelOutputError.
 */
import {
  generateText,
  type ModelMessage,
  NoObjectGeneratedError,
  NoOutputGeneratedError,
  Output,
  type Schema,
  zodSchema,
} from "ai";
import type { z } from "zod";
import type { LlmUsage } from "../spec/engine.js";
import { type CallSettings, callModel, type LlmRole, type TokenCounts } from "./call.js";
import { ModelOutputError } from "./errors.js";
import { formatRetryPrompt, JSON_FORMAT, type PromptParts } from "./prompts.js";
import type { ResolvedModel } from "./resolve.js";
import { parseLooseJson, TextProtocolError } from "./text-protocol.js";

/**
 * Each reply schema converted to JSON Schema once per process: the AI SDK converts a zod schema it is given
 * on every call, and a `zodSchema()` wrapper keeps its conversion.
 */
const CONVERTED = new WeakMap<object, Schema<unknown>>();

function sentSchema<T>(schema: z.ZodType<T>): Schema<T> {
  let sent = CONVERTED.get(schema) as Schema<T> | undefined;
  if (!sent) {
    sent = zodSchema(schema) as Schema<T>;
    CONVERTED.set(schema, sent as Schema<unknown>);
  }
  return sent;
}

type Attempt<T> =
  | { ok: true; value: T; usage?: TokenCounts }
  | { ok: false; text: string; error: string; usage?: TokenCounts };

function firstObject(text: string): string {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  return start >= 0 && end > start ? text.slice(start, end + 1) : text;
}

/** Fields a reply may leave out, filled in before validation (the schema sent still requires them). */
function withDefaults(value: unknown, defaults: Record<string, unknown> | undefined): unknown {
  if (!defaults || typeof value !== "object" || value === null || Array.isArray(value)) return value;
  return { ...defaults, ...value };
}

/** Repairs and validates raw text against the schema; returns an error message when it cannot. */
export function repairStructured<T>(
  schema: z.ZodType<T>,
  text: string,
  defaults?: Record<string, unknown>,
): { value: T } | { error: string } {
  let value: unknown;
  try {
    value = withDefaults(parseLooseJson(firstObject(text), "the reply"), defaults);
  } catch (error) {
    return { error: error instanceof TextProtocolError ? error.message : String(error) };
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return { value: parsed.data };
  const issue = parsed.error.issues[0];
  return { error: `the JSON does not match the schema at ${issue?.path.join(".") || "(root)"}: ${issue?.message}` };
}

/** `result.output` throws when the model produced none; this returns the error instead. */
function safeOutput(result: { output: unknown }): unknown {
  try {
    return result.output;
  } catch (error) {
    return error;
  }
}

export async function generateStructured<T>(options: {
  role: LlmRole;
  model: ResolvedModel;
  schema: z.ZodType<T>;
  name: string;
  prompt: PromptParts;
  question: string;
  signal: AbortSignal;
  settings: CallSettings;
  /** Values for fields a reply may leave out (a model asked for a field it does not need may omit it). */
  defaults?: Record<string, unknown>;
}): Promise<{ value: T; usage: LlmUsage[] }> {
  const { role, model, schema, prompt, defaults } = options;
  const usage: LlmUsage[] = [];
  const fromText = (text: string, tokens: TokenCounts | undefined): Attempt<T> => {
    const repaired = repairStructured(schema, text, defaults);
    if ("value" in repaired) return { ok: true, value: repaired.value, usage: tokens };
    return { ok: false, text, error: text ? repaired.error : "the reply was empty", usage: tokens };
  };
  const attempt = async (messages: ModelMessage[]): Promise<Attempt<T>> => {
    const { result, usage: entry } = await callModel({
      role,
      model,
      signal: options.signal,
      settings: options.settings,
      run: async (abortSignal): Promise<Attempt<T>> => {
        try {
          // Without schema support the schema is in the prompt and the reply is validated here.
          const output = model.structuredOutputs
            ? Output.object({ schema: sentSchema(schema), name: options.name })
            : Output.json();
          const r = await generateText({
            model: model.model,
            system: prompt.system,
            messages,
            output,
            maxRetries: 0,
            abortSignal,
          });
          const value = safeOutput(r);
          if (value === undefined || NoOutputGeneratedError.isInstance(value)) return fromText(r.text, r.usage);
          const checked = schema.safeParse(withDefaults(value, defaults));
          if (checked.success) return { ok: true, value: checked.data, usage: r.usage };
          return fromText(r.text, r.usage);
        } catch (error) {
          if (NoObjectGeneratedError.isInstance(error)) return fromText(error.text ?? "", error.usage);
          if (NoOutputGeneratedError.isInstance(error)) return fromText("", undefined);
          throw error;
        }
      },
    });
    usage.push(entry);
    return result;
  };

  const first: ModelMessage[] = [{ role: "user", content: prompt.prompt }];
  const one = await attempt(first);
  if (one.ok) return { value: one.value, usage };
  const two = await attempt([
    ...first,
    { role: "assistant", content: one.text || "(empty reply)" },
    { role: "user", content: formatRetryPrompt({ question: options.question, error: one.error, format: JSON_FORMAT }) },
  ]);
  if (two.ok) return { value: two.value, usage };
  throw new ModelOutputError(`${role} reply from ${model.id} is not usable JSON after a retry: ${two.error}`, {
    role,
    model: model.id,
    raw: two.text,
    usage,
  });
}
