import { z } from "@hono/zod-openapi";
import { ErrorSchema } from "../schemas.js";

/** The error responses every protected route may give. */
export const ERRORS = {
  400: {
    description: "Bad request: a field is missing or invalid",
    content: { "application/json": { schema: ErrorSchema } },
  },
  401: { description: "No valid API key or token", content: { "application/json": { schema: ErrorSchema } } },
  429: { description: "Rate limit reached; see Retry-After", content: { "application/json": { schema: ErrorSchema } } },
  503: {
    description: "Busy (queue full) or shutting down; see Retry-After",
    content: { "application/json": { schema: ErrorSchema } },
  },
} as const;

export const NOT_FOUND = {
  404: { description: "Nothing you may read has this id", content: { "application/json": { schema: ErrorSchema } } },
} as const;

export const SECURITY = [{ bearer: [] }];

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

export const IdParam = (name: string, description: string) =>
  z.object({
    [name]: z
      .string()
      .min(1)
      .max(1024)
      .openapi({ param: { name, in: "path" }, description }),
  });
