import type { Command } from "commander";
import { describeOrigin, type ResolvedConfig, resolveConfig, SETTINGS } from "../config/resolve-config.js";
import type { GlobalOptions } from "./options.js";
import { print, usesGlobalOptions } from "./options.js";

/** Settings a command reads from its own flags: filled from the environment or the file when not given. */
const FILLED = new Set(["as", "ask.mode", "ask.preset", "ask.maxSteps", "ask.maxToolCalls", "ask.timeoutMs"]);

/**
 * Resolves the configuration before a command runs (so a bad environment variable or config file fails at
 * once, exit 2, naming it), and fills the command's own flags that were not given from the environment or
 * the file: `--as`, `--mode`, `--preset`, the budgets and the checkpoints. Store and model settings are read
 * by `openFerret` from the same resolution.
 */
export function applyConfig(command: Command, env: NodeJS.ProcessEnv): ResolvedConfig {
  const flags = command.opts();
  const config = resolveConfig({ flags, env });
  const own = new Set(command.options.map((o) => o.attributeName()));
  for (const s of SETTINGS) {
    if (!s.flag || !FILLED.has(s.key) || flags[s.flag] !== undefined) continue;
    if (s.key !== "as" && !own.has(s.flag)) continue;
    const resolved = config.settings[s.key];
    if (resolved && resolved.origin.from !== "default") command.setOptionValue(s.flag, resolved.value);
  }
  const checkpoints = config.content.ask?.checkpoints;
  if (own.has("checkpoint") && flags.checkpoint === undefined && checkpoints) {
    const kinds = [
      ...(checkpoints.afterSearches !== undefined ? [`after-searches=${checkpoints.afterSearches}`] : []),
      ...(checkpoints.noResults ? ["no-results"] : []),
      ...(checkpoints.lowConfidence ? ["low-confidence"] : []),
      ...(checkpoints.beforeAnswer ? ["before-answer"] : []),
    ];
    if (kinds.length > 0) command.setOptionValue("checkpoint", kinds);
  }
  return config;
}

/** The file's sections as shown: an `apiKey` written into a `models` entry is never printed. */
function shownSections(config: ResolvedConfig) {
  const { models, serve, mcp, sources } = config.content;
  const redacted = models
    ? Object.fromEntries(
        Object.entries(models).map(([name, entry]) => [name, entry.apiKey ? { ...entry, apiKey: "(set)" } : entry]),
      )
    : undefined;
  return { models: redacted, serve, mcp, sources };
}

/** The `ferret config --json` shape. */
export function configJson(config: ResolvedConfig) {
  const settings: Record<string, { value: unknown; from: string; name?: string; file?: string }> = {};
  for (const s of SETTINGS) {
    const r = config.settings[s.key];
    settings[s.key] = r ? { value: r.value, ...r.origin } : { value: null, from: "unset" };
  }
  return { file: config.file ?? null, settings, sections: shownSections(config) };
}

function configText(config: ResolvedConfig): string {
  const rows = SETTINGS.map((s) => {
    const r = config.settings[s.key];
    return [s.key, r ? JSON.stringify(r.value) : "(unset)", r ? describeOrigin(r.origin) : "", s.env ?? ""];
  });
  const header = ["setting", "value", "from", "env"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  const lines = [`config file: ${config.file ?? "none (ferret.config.json not found; `ferret init` writes one)"}`, ""];
  lines.push(line(header), ...rows.map(line));
  const sections = Object.entries(shownSections(config)).filter(([, v]) => v !== undefined);
  if (sections.length > 0) {
    lines.push("", "sections from the file:");
    for (const [name, value] of sections) lines.push(`  ${name}: ${JSON.stringify(value)}`);
  }
  lines.push("", "Precedence: flag > environment > config file > default. Options: docs/configuration.md");
  return lines.join("\n");
}

/** `ferret config`: the effective configuration and where each value came from. */
export function configCommand(program: Command): void {
  usesGlobalOptions(
    program.command("config").description("show the effective configuration and where each value came from"),
  ).action((flags: GlobalOptions) => {
    const config = resolveConfig({ flags: { ...flags }, env: process.env });
    print(configJson(config), flags.json, () => configText(config));
  });
}
