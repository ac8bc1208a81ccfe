#!/usr/bin/env node
"use strict";
// `npx localdynamo [flags]`: runs the server (or any of its commands) with
// the arguments as given, passes signals on, and exits as it exits.
const { spawn } = require("node:child_process");

let binary;
try {
  binary = require("../index.js").binaryPath;
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
const child = spawn(binary, process.argv.slice(2), { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("error", (error) => {
  console.error(`localdynamo: cannot run ${binary}: ${error.message}`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
