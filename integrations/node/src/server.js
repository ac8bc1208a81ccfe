// Starts the localdynamo binary for a test run and stops it after.
import { spawn } from "node:child_process";

const READY = /localdynamo listening on (http:\/\/[^\s]+)/;

// Resolves to { endpoint, stop() } once the server says where it listens.
// `binaryProblem`: why the `localdynamo` package gave no binary, if it did not.
export function startServer({ binary, binaryProblem, port = 0, isolation = true, models = true,
                              args = [] }) {
  const flags = ["--in-memory", "--host", "127.0.0.1", "--port", String(port), "--no-console",
                 ...(isolation ? ["--per-key-databases"] : []),
                 ...(models ? [] : ["--no-models"]), ...args];
  const child = spawn(binary, flags, { stdio: ["ignore", "pipe", "pipe"] });
  // Should the runner die without its teardown, the server goes with it.
  const killOnExit = () => child.kill("SIGKILL");
  process.on("exit", killOnExit);
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  let output = "";
  let settled = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error("did not start within 20 s")), 20000);
    function fail(error) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill("SIGKILL");
      process.off("exit", killOnExit);
      reject(new Error(`localdynamo-test: cannot start ${binary} ${flags.join(" ")}: ` +
                       `${error.message}\n${output}`));
    }
    child.on("error", (error) => fail(error.code === "ENOENT"
      ? new Error("not found; install the localdynamo package (npm install -D localdynamo), " +
                  "set LOCALDYNAMO_BIN to the binary, or LOCALDYNAMO_URL to a running server" +
                  (binaryProblem ? ` (${binaryProblem})` : ""))
      : error));
    child.stderr.on("data", (chunk) => { output += chunk; });
    // Keep reading stdout for the whole run: a full pipe would stall the server.
    child.stdout.on("data", (chunk) => {
      output += chunk;
      const ready = READY.exec(output);
      if (!ready || settled) return;
      settled = true;
      clearTimeout(timer);
      output = "";
      child.stdout.removeAllListeners("data");
      child.stdout.resume();
      resolve({
        endpoint: ready[1],
        async stop() {
          process.off("exit", killOnExit);
          child.kill("SIGTERM");
          await exited;
        },
      });
    });
    exited.then(({ code, signal }) => fail(new Error(`exited with ${code ?? signal}`)));
  });
}
