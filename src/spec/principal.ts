/** Who asks. Every store read is filtered by tenant and roles inside the query itself. */
export interface Principal {
  tenant: string;
  user: string;
  /** Roles held. The role `*` matches every ACL (the local owner of an embedded store). */
  roles: string[];
}

export const DEFAULT_TENANT = "default";

/** The principal used when nobody is named: the local owner of the database file, holding every role. */
export const LOCAL_OWNER: Principal = Object.freeze({
  tenant: DEFAULT_TENANT,
  user: "local",
  roles: ["*"],
}) as Principal;

/** True when a principal may read something guarded by `acl` (an empty list means everyone in the tenant). */
export function allows(principal: Principal, acl: readonly string[]): boolean {
  if (acl.length === 0) return true;
  if (principal.roles.includes("*")) return true;
  return acl.some((role) => principal.roles.includes(role));
}
