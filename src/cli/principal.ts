import { InvalidInputError } from "../spec/errors.js";
import type { Principal } from "../spec/principal.js";

/** Parses `--as TENANT:USER:ROLE,ROLE` (roles may be empty: `acme:sam:`). */
export function parsePrincipal(value: string): Principal {
  const parts = value.split(":");
  if (parts.length !== 3 || !parts[0] || !parts[1]) {
    throw new InvalidInputError(`--as takes TENANT:USER:ROLE,ROLE (got "${value}")`, { field: "--as" });
  }
  const roles = parts[2]!
    .split(",")
    .map((r) => r.trim())
    .filter(Boolean);
  return { tenant: parts[0], user: parts[1], roles };
}
