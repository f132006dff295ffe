import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { FerretError } from "../spec/errors.js";
import { askCommand, chatCommand, traceCommand } from "./ask-commands.js";
import { exitQuietlyOnClosedPipe } from "./closed-pipe.js";
import { applyConfig, configCommand } from "./config-command.js";
import { doctorCommand } from "./doctor-command.js";
import { evalCommand } from "./eval-command.js";
import { EXIT } from "./exit-codes.js";
import { ingestCommand } from "./ingest-command.js";
import { initCommand } from "./init-command.js";
import { keysCommand } from "./keys-command.js";
import { migrateCommand } from "./migrate-command.js";
import { addGlobalOptions, shareGlobalOptions } from "./options.js";
import { searchCommand, sourcesCommand } from "./query-commands.js";
import { mcpCommand, serveCommand } from "./serve-command.js";

/** The package's version, read from its package.json (src/cli and dist/cli are both two levels below it). */
function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: string };
  return pkg.version ?? "unknown";
}

/** The `ferret` program with every command; `setExit` raises the exit status a command ends with. */
export function buildProgram(setExit: (code: number) => void): Command {
  const program = addGlobalOptions(
    new Command()
      .name("ferret")
      .description("Agentic RAG over your own knowledge, with cited answers. Offline by default.")
      .version(packageVersion(), "-V, --version", "print the version")
      .exitOverride()
      .showHelpAfterError("(add --help for usage)")
      .addHelpText(
        "after",
        "\nExit status: 0 done, 1 failed, 2 usage or configuration error, 3 model/embedder/store unreachable (docs/cli.md).",
      ),
  );
  program.hook("preAction", (_program, actionCommand) => {
    shareGlobalOptions(program, actionCommand);
    // The doctor reports a broken configuration as one of its findings instead of stopping at it.
    if (actionCommand.name() !== "doctor") applyConfig(actionCommand, process.env);
  });
  initCommand(program, setExit);
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
  configCommand(program);
  doctorCommand(program, setExit);
  return program;
}

/** Runs the CLI; resolves to the exit code (see exit-codes.ts). */
export async function main(argv: string[]): Promise<number> {
  exitQuietlyOnClosedPipe();
  let exit: number = EXIT.ok;
  const setExit = (code: number) => {
    exit = Math.max(exit, code);
  };
  const program = buildProgram(setExit);
  try {
    await program.parseAsync(argv);
    return exit;
  } catch (error) {
    // Usage errors (a bad flag value, an unknown option, a missing argument) exit 2; help and version exit 0.
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (error instanceof FerretError) {
      process.stderr.write(`ferret: ${error.message}\n`);
      return error.category === "user" ? EXIT.usage : EXIT.infrastructure;
    }
    throw error;
  }
}
