import type { MiddlewareHandler } from "hono";
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from "jose";
import type { Ferret, Principal } from "../../index.js";
import type { JwtConfig, ServeConfig } from "../config.js";
import type { ServerEnv } from "../env.js";
import { RateLimitedError, UnauthorizedError } from "../errors.js";
import type { TokenBuckets } from "../limits/token-bucket.js";
import type { Caller } from "../run-service.js";

const NAME = /^[^\s:,]{1,128}$/;
const API_KEY = /^fk_/;

/** The bearer token or `x-api-key` of a request. */
function presented(header: string | undefined, apiKey: string | undefined): string | undefined {
  if (apiKey) return apiKey.trim();
  const match = header ? /^Bearer\s+(\S{1,4096})\s*$/i.exec(header) : null;
  return match?.[1];
}

/**
 * JWT claims to a principal: tenant and user are strings (claim names from the config, default `tenant` and
 * `sub`), roles a list of strings or one comma-separated string (default claim `roles`, missing means none).
 */
export function principalFromClaims(payload: JWTPayload, claims: JwtConfig["claims"]): Principal {
  const tenant = payload[claims.tenant];
  const user = payload[claims.user];
  if (typeof tenant !== "string" || !NAME.test(tenant))
    throw new UnauthorizedError(`The token has no usable "${claims.tenant}" claim.`);
  if (typeof user !== "string" || !NAME.test(user))
    throw new UnauthorizedError(`The token has no usable "${claims.user}" claim.`);
  const raw = payload[claims.roles];
  const list = Array.isArray(raw) ? raw : typeof raw === "string" ? raw.split(",") : raw === undefined ? [] : null;
  if (list === null || !list.every((r) => typeof r === "string"))
    throw new UnauthorizedError(`The token's "${claims.roles}" claim must be a list of role names.`);
  const roles = [...new Set(list.map((r) => r.trim()).filter((r) => NAME.test(r)))];
  return { tenant, user, roles };
}

function jwtVerifier(jwt: JwtConfig): (token: string) => Promise<Principal> {
  const secret = jwt.secret ? new TextEncoder().encode(jwt.secret) : undefined;
  const jwks = jwt.jwksUrl ? createRemoteJWKSet(new URL(jwt.jwksUrl)) : undefined;
  const options = {
    ...(jwt.issuer ? { issuer: jwt.issuer } : {}),
    ...(jwt.audience ? { audience: jwt.audience } : {}),
  };
  return async (token) => {
    let payload: JWTPayload | undefined;
    let failure: unknown;
    for (const verify of [
      secret ? () => jwtVerify(token, secret, { ...options, algorithms: ["HS256", "HS384", "HS512"] }) : undefined,
      jwks ? () => jwtVerify(token, jwks, options) : undefined,
    ]) {
      if (!verify || payload) continue;
      try {
        payload = (await verify()).payload;
      } catch (error) {
        failure = error;
      }
    }
    if (!payload)
      throw new UnauthorizedError(`The token does not verify (${(failure as Error)?.message ?? "no key"}).`);
    return principalFromClaims(payload, jwt.claims);
  };
}

/**
 * Who is asking, for every `/v1` and `/mcp` request: an API key (`Authorization: Bearer fk_...` or
 * `x-api-key`), checked against the store on each request (a revoked key fails on the next one), or a JWT
 * when configured. No credential, no access; `--insecure-local` alone skips this, acting as the local owner.
 * Then the caller's rate: a key's own, else the server's default.
 */
export function authMiddleware(options: {
  ferret: Ferret;
  config: ServeConfig;
  buckets: TokenBuckets;
}): MiddlewareHandler<ServerEnv> {
  const { ferret, config, buckets } = options;
  const verifyJwt = config.jwt ? jwtVerifier(config.jwt) : undefined;
  return async (c, next) => {
    let caller: Caller;
    let bucket: string | undefined;
    let rate = config.defaultRate;
    const token = presented(c.req.header("authorization"), c.req.header("x-api-key"));
    if (config.insecureLocal && token === undefined) {
      caller = { principal: await ferret.defaultPrincipal() };
      bucket = "local";
    } else if (token === undefined) {
      throw new UnauthorizedError("An API key is required: send it as `Authorization: Bearer <key>`.");
    } else if (API_KEY.test(token)) {
      const key = await ferret.keys.verify(token);
      if (!key) throw new UnauthorizedError("The API key is not valid (unknown, malformed or revoked).");
      caller = {
        principal: { tenant: key.tenant, user: key.user, roles: key.roles },
        keyId: key.id,
        ...(key.dailyUsd !== undefined ? { dailyUsd: key.dailyUsd } : {}),
      };
      bucket = `key:${key.id}`;
      rate = key.rate ?? config.defaultRate;
    } else if (verifyJwt) {
      caller = { principal: await verifyJwt(token) };
      bucket = `jwt:${caller.principal.tenant}:${caller.principal.user}`;
    } else {
      throw new UnauthorizedError("The API key is not valid (unknown, malformed or revoked).");
    }
    if (rate && bucket) {
      const waitMs = buckets.take(bucket, rate);
      if (waitMs > 0)
        throw new RateLimitedError(`Rate limit reached (${rate.requests} per ${rate.perMs / 1000} s).`, waitMs);
    }
    c.set("caller", caller);
    c.get("log").debug({ tenant: caller.principal.tenant, user: caller.principal.user, keyId: caller.keyId }, "caller");
    await next();
  };
}
