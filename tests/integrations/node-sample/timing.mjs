// Times the sample project: a database per worker (N workers at once)
// against one shared database, which only a serial run keeps correct (one
// worker, Jest's --runInBand); then the shared database with N workers, to
// show it fails. `node timing.mjs [workers] [rounds]`, LOCALDYNAMO_BIN set.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const workers = Number(process.argv[2] ?? 3);
const rounds = Number(process.argv[3] ?? 3);

const runners = {
  vitest: (n) => ["vitest", "run", `--maxWorkers=${n}`, "--minWorkers=1"],
  jest: (n) => (n === 1 ? ["jest", "--runInBand"] : ["jest", `--maxWorkers=${n}`]),
};
const setups = [
  { label: `a database per worker, ${workers} workers`, isolation: "on", workers },
  { label: "one shared database, 1 worker (the baseline)", isolation: "off", workers: 1 },
  { label: `one shared database, ${workers} workers`, isolation: "off", workers },
];

function run(runner, setup) {
  const started = process.hrtime.bigint();
  const child = spawnSync("npx", ["--no-install", ...runners[runner](setup.workers)], {
    cwd: here, encoding: "utf8",
    env: { ...process.env, LOCALDYNAMO_ISOLATION: setup.isolation },
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const output = child.stdout + child.stderr;
  // Failed files: Vitest's "Test Files  2 failed", Jest's "Test Suites: 2 failed".
  const failed = /Test (?:Files|Suites):? +(\d+) failed/.exec(output)?.[1] ?? "0";
  return { seconds, ok: child.status === 0, failed: Number(failed) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`node ${process.version}, ${rounds} rounds, median wall time of the whole run`);
for (const runner of Object.keys(runners)) {
  for (const setup of setups) {
    const results = Array.from({ length: rounds }, () => run(runner, setup));
    const failures = results.map((r) => (r.ok ? "pass" : `${r.failed} files failed`)).join(", ");
    console.log(`${runner.padEnd(6)} ${setup.label.padEnd(46)} ` +
                `${median(results.map((r) => r.seconds)).toFixed(2)} s  (${failures})`);
  }
}
