import type { Command } from "commander";
import { DEFAULT_DB, type ResolvedConfig, resolveConfig, settingValue } from "../config/resolve-config.js";
import { type CheckResult, runDoctor } from "./doctor-checks.js";
import { EXIT } from "./exit-codes.js";
import { wholeNumber } from "./flag-parsers.js";
import { type GlobalOptions, print, usesGlobalOptions } from "./options.js";

const MARK: Record<CheckResult["status"], string> = { ok: "ok  ", warn: "warn", fail: "FAIL", skip: "skip" };

function doctorText(results: CheckResult[]): string {
  const width = Math.max(...results.map((r) => r.name.length));
  const lines: string[] = [];
  for (const r of results) {
    lines.push(`${MARK[r.status]}  ${r.name.padEnd(width)}  ${r.detail}`);
    if (r.fix && (r.status === "fail" || r.status === "warn")) lines.push(`${" ".repeat(width + 8)}→ ${r.fix}`);
  }
  const failed = results.filter((r) => r.status === "fail").length;
  const warned = results.filter((r) => r.status === "warn").length;
  lines.push(
    "",
    failed > 0
      ? `${failed} check(s) failed${warned ? `, ${warned} warning(s)` : ""}: see the → lines.`
      : `everything needed works${warned ? ` (${warned} warning(s))` : ""}.`,
  );
  return lines.join("\n");
}

/** `ferret doctor`: checks the installation, the configuration, the store and the models; exit 1 when any check fails. */
export function doctorCommand(program: Command, setExit: (code: number) => void): void {
  usesGlobalOptions(
    program
      .command("doctor")
      .description("check Node, native modules, the config, the store, the embedder and the models; say what to do")
      .option("--timeout-ms <n>", "time budget of each network check (default 15000)", wholeNumber(1)),
  ).action(async (flags: GlobalOptions & { timeoutMs?: number }) => {
    // A broken configuration is one of the things the doctor reports, so it is resolved here, not before.
    let config: ResolvedConfig;
    let configCheck: CheckResult;
    try {
      config = resolveConfig({ flags: { ...flags, timeoutMs: undefined }, env: process.env });
      configCheck = {
        name: "config",
        status: "ok",
        detail: config.file ? `${config.file} is valid` : "no ferret.config.json (defaults, flags and environment)",
        ms: 0,
      };
    } catch (error) {
      config = resolveConfig({ flags: { ...flags, timeoutMs: undefined, config: undefined }, env: {}, cwd: "/" });
      configCheck = {
        name: "config",
        status: "fail",
        detail: error instanceof Error ? error.message : String(error),
        fix: "fix the named field or variable (docs/configuration.md lists every option); the checks below use the defaults",
        ms: 0,
      };
    }
    const results = await runDoctor({
      config,
      db: flags.db ?? settingValue<string>(config, "db") ?? DEFAULT_DB,
      apiKey: flags.apiKey,
      env: process.env,
      timeoutMs: flags.timeoutMs ?? 15_000,
    });
    const all = [results[0]!, configCheck, ...results.slice(1)];
    if (all.some((r) => r.status === "fail")) setExit(EXIT.failed);
    const ok = !all.some((r) => r.status === "fail");
    print({ ok, checks: all }, flags.json, () => doctorText(all));
  });
}
