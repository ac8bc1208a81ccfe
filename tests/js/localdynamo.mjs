// Starts the real localdynamo binary on a free port for a test file, and
// stops it after: the JS suites' one way to reach a server.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const binary = process.env.LOCALDYNAMO_BIN ?? path.join(here, "..", "..", "build", "localdynamo");

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

// Resolves once the server answers `GET /`; `args` are extra command-line
// flags. Returns { url, config, admin(pathname, body), stop() }, where
// `config` is an SDK client configuration for the server.
export async function startServer(args = [], env = {}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(binary, ["--in-memory", "--ttl-interval", "0", "--host", "127.0.0.1",
                               "--port", String(port), ...args],
                      { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, ...env } });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  let up = false;
  for (let i = 0; i < 400 && !up; i++) {
    try {
      up = (await fetch(url)).ok;
    } catch {
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  assert.ok(up, `localdynamo did not answer on ${url}`);
  return {
    url,
    config: {
      endpoint: url, region: "us-east-1", maxAttempts: 1,
      credentials: { accessKeyId: "js", secretAccessKey: "js" },
    },
    // The emulator's admin API: GET without a body, POST with one.
    async admin(pathname, body) {
      const response = await fetch(`${url}/_localdynamo/${pathname}`, {
        method: body === undefined ? "GET" : "POST",
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      assert.equal(response.status, 200);
      return response.json();
    },
    // Stops the server with SIGTERM and checks that it exited cleanly.
    async stop() {
      child.kill("SIGTERM");
      assert.equal(await exited, 0);
    },
  };
}
