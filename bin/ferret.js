#!/usr/bin/env node
import { main } from "../dist/cli/main.js";

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error instanceof Error ? `ferret: ${error.message}` : error);
    process.exitCode = 1;
  },
);
