import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { FerretError } from "../spec/errors.js";
import { askCommand, chatCommand, traceCommand } from "./ask-commands.js";
import { exitQuietlyOnClosedPipe } from "./closed-pipe.js";
import { evalCommand } from "./eval-command.js";
import { ingestCommand } from "./ingest-command.js";
import { keysCommand } from "./keys-command.js";
import { migrateCommand } from "./migrate-command.js";
import { searchCommand, sourcesCommand } from "./query-commands.js";
import { mcpCommand, serveCommand } from "./serve-command.js";

/** The package's version, read from its package.json (src/cli and dist/cli are both two levels below it). */
function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: string };
  return pkg.version ?? "unknown";
}

/** Runs the CLI; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  exitQuietlyOnClosedPipe();
  let exit = 0;
  const setExit = (code: number) => {
    exit = Math.max(exit, code);
  };
  const program = new Command()
    .name("ferret")
    .description("Agentic RAG over your own knowledge, with cited answers. Offline by default.")
    .version(packageVersion(), "-V, --version", "print the version")
    .exitOverride()
    .showHelpAfterError();
  ingestCommand(program, setExit);
  searchCommand(program);
  sourcesCommand(program);
  askCommand(program, setExit);
  chatCommand(program);
  traceCommand(program, setExit);
  evalCommand(program, setExit);
  keysCommand(program, setExit);
  migrateCommand(program, setExit);
  serveCommand(program);
  mcpCommand(program);
  try {
    await program.parseAsync(argv);
    return exit;
  } catch (error) {
    // Usage errors (a bad flag value, an unknown option, a missing argument) exit 2; help and version exit 0.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof FerretError) {
      process.stderr.write(`ferret: ${error.message}\n`);
      return error.category === "user" ? 2 : 1;
    }
    throw error;
  }
}
