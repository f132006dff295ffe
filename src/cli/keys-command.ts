import type { Command } from "commander";
import { parseRate } from "../keys/api-keys.js";
import { positiveNumber, rateSpec } from "./flag-parsers.js";
import { type GlobalOptions, openFerret, print, usesGlobalOptions } from "./options.js";

interface CreateFlags extends GlobalOptions {
  tenant: string;
  user: string;
  roles?: string;
  rate?: string;
  dailyUsd?: number;
  label?: string;
}

const roleList = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((r) => r.trim())
    .filter(Boolean);

/** `ferret keys create | list | revoke`: API keys for `ferret serve`, stored hashed in the knowledge base. */
export function keysCommand(program: Command, setExit: (code: number) => void): void {
  const keys = program.command("keys").description("API keys for ferret serve (stored hashed; shown once)");

  usesGlobalOptions(
    keys
      .command("create")
      .description("create a key mapped to a principal; the key is printed once")
      .requiredOption("--tenant <tenant>", "the tenant the key reads")
      .requiredOption("--user <user>", "the user it acts as")
      .option(
        "--roles <roles>",
        "comma-separated roles (ACL); `writer` may upload and delete, `*` reads everything",
        "",
      )
      .option("--rate <rate>", "rate limit: 60/min, 10/s, 1000/hour, 5000/day", rateSpec)
      .option("--daily-usd <usd>", "most this key may spend on models per UTC day", positiveNumber)
      .option("--label <text>", "a note to recognise the key by"),
  ).action(async (flags: CreateFlags) => {
    const ferret = await openFerret(flags, "create");
    try {
      const created = await ferret.keys.create({
        tenant: flags.tenant,
        user: flags.user,
        roles: roleList(flags.roles),
        ...(flags.rate ? { rate: parseRate(flags.rate) } : {}),
        ...(flags.dailyUsd !== undefined ? { dailyUsd: flags.dailyUsd } : {}),
        ...(flags.label ? { label: flags.label } : {}),
      });
      print(created, flags.json, () =>
        [
          created.key,
          "",
          `key ${created.info.id} for ${created.info.tenant}:${created.info.user} (roles: ${created.info.roles.join(",") || "none"})`,
          "This is the only time the key is shown: store it now.",
        ].join("\n"),
      );
    } finally {
      await ferret.close();
    }
  });

  usesGlobalOptions(
    keys.command("list").description("list keys (never the secrets)").option("--tenant <tenant>", "only this tenant"),
  ).action(async (flags: GlobalOptions & { tenant?: string }) => {
    const ferret = await openFerret(flags, "existing");
    try {
      const list = await ferret.keys.list(flags.tenant ? { tenant: flags.tenant } : {});
      print(list, flags.json, () =>
        list.length === 0
          ? "no keys"
          : list
              .map((k) =>
                [
                  k.id,
                  `${k.tenant}:${k.user}`,
                  k.roles.join(",") || "-",
                  k.rate ? `${k.rate.requests}/${k.rate.perMs / 1000}s` : "-",
                  k.dailyUsd !== undefined ? `$${k.dailyUsd}/day` : "-",
                  k.revokedAt ? `revoked ${k.revokedAt}` : "active",
                  k.label ?? "",
                ]
                  .join("  ")
                  .trimEnd(),
              )
              .join("\n"),
      );
    } finally {
      await ferret.close();
    }
  });

  usesGlobalOptions(
    keys.command("revoke").argument("<id>", "the key id (from keys list)").description("revoke a key at once"),
  ).action(async (id: string, flags: GlobalOptions) => {
    const ferret = await openFerret(flags, "existing");
    try {
      const revoked = await ferret.keys.revoke(id);
      if (!revoked) {
        process.stderr.write(`ferret: no active key ${id}\n`);
        setExit(1);
        return;
      }
      print({ revoked: id }, flags.json, () => `revoked ${id}`);
    } finally {
      await ferret.close();
    }
  });
}
