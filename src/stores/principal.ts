import type { Principal } from "../spec/principal.js";

/** True when the principal holds `*`, which matches every ACL (see `allows`); both stores skip ACL predicates then. */
export function isOwner(principal: Principal): boolean {
  return principal.roles.includes("*");
}
