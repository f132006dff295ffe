import { InvalidInputError } from "../spec/errors.js";
import { LOCAL_OWNER, type Principal } from "../spec/principal.js";
import type { StoreV1 } from "../spec/store.js";

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

/**
 * The local CLI's principal when a command names none (no `--as`): the owner of the file, holding every
 * role, in the default tenant, or in the store's only tenant when it holds exactly one (an evaluation set
 * ingested for its own tenant). This owner principal is the CLI's policy; the library and the server never
 * choose it for a caller.
 */
export async function localOwnerOf(store: StoreV1): Promise<Principal> {
  const tenants = (await store.tenants?.()) ?? [];
  return tenants.length === 1 && !tenants.includes(LOCAL_OWNER.tenant)
    ? { ...LOCAL_OWNER, tenant: tenants[0]! }
    : LOCAL_OWNER;
}
