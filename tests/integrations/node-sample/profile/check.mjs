// The access-profile report and rules of localdynamo-test, under the real
// Vitest and Jest: this folder is a sample project (one table, one test file
// running a known workload: 3 PutItem then a Scan whose filter keeps 1 of 3),
// run as a user runs it, and what its run leaves and answers is checked.
// Part of the ctest entry node_integration (../run.sh): node --test check.mjs.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const MODULES = path.join(HERE, "..", "node_modules");
const RUNNERS = {
  vitest: [path.join(MODULES, "vitest", "vitest.mjs"), "run"],
  jest: [path.join(MODULES, "jest", "bin", "jest.js"), "--config", "jest.config.cjs"],
};
const work = mkdtempSync(path.join(os.tmpdir(), "localdynamo-profile-sample-"));
after(() => rmSync(work, { recursive: true, force: true }));

// One run of the sample: { status, output, prefix }.
function run(runner, { rules, report } = {}) {
  const env = { ...process.env, PROFILE_SAMPLE_RULES: JSON.stringify(rules ?? []) };
  delete env.LOCALDYNAMO_URL;
  delete env.LOCALDYNAMO_PROFILE_REPORT;
  if (report !== undefined) env.LOCALDYNAMO_PROFILE_REPORT = report;
  const proc = spawnSync(process.execPath, RUNNERS[runner], { cwd: HERE, env, encoding: "utf8",
                                                              timeout: 120000 });
  return { status: proc.status, output: `${proc.stdout}\n${proc.stderr}` };
}

function workerTables(answer) {
  return answer.Databases.filter((db) => db.Namespace.startsWith("worker-"))
    .flatMap((db) => db.Tables.filter((table) => table.TableName === "Orders"));
}

for (const runner of Object.keys(RUNNERS)) {
  describe(runner, () => {
    test("writes the report with the workload's figures", () => {
      const prefix = path.join(work, `${runner}-report`);
      const { status, output } = run(runner, { report: prefix });
      assert.equal(status, 0, output);
      assert.match(output, /localdynamo profile: \d+ requests, .* cost [\d.]+ USD: /);
      const answer = JSON.parse(readFileSync(`${prefix}.json`, "utf8"));
      const [orders, ...more] = workerTables(answer);
      assert.equal(more.length, 0, "one worker ran the one file");
      assert.equal(orders.Requests.PutItem, 3);
      assert.equal(orders.Requests.Scan, 1);
      assert.equal(orders.WriteUnits, 3);
      assert.equal(orders.ItemsRead, 3);
      assert.equal(orders.ItemsReturned, 1);
      assert.equal(orders.Scans.Count, 1);
      assert.equal(orders.Scans.ItemsRead, 3);
      assert.ok(Math.abs(orders.FilterWaste - 2 / 3) < 1e-3, `FilterWaste ${orders.FilterWaste}`);
      assert.equal(orders.Indexes.find((index) => index.IndexName === "ByStatus").NeverRead, true);
      const scan = orders.Shapes.find((shape) => shape.Operation === "Scan");
      assert.equal(scan.Filter, "status = ?");
      // The seed's write was reset away: the report counts the tests' requests.
      const audit = answer.Databases.flatMap((db) => db.Tables)
        .filter((table) => table.TableName === "Audit");
      const requests = audit.flatMap((table) => Object.values(table.Requests));
      assert.equal(requests.reduce((a, b) => a + b, 0), 0, JSON.stringify(audit));
      const html = readFileSync(`${prefix}.html`, "utf8");
      assert.match(html, /<h2 id="t-Orders">Orders<\/h2>/);
      assert.match(html, /<svg width="120"/);
      assert.match(html, /filter waste 0\.6667 \(3 items read, 1 returned\)/);
      assert.match(html, /1 Scans read 3 items/);
      assert.match(html, /<h3>Indexes never read<\/h3><p><code>ByStatus<\/code>/);
      assert.match(html, /<code>status = \?<\/code>/);
      assert.match(html, /pk=customer#1/);
      // Self-contained: no script, no stylesheet or image from elsewhere.
      assert.doesNotMatch(html, /<script|<link|src=|url\(/);
    });

    test("a broken rule fails the run and says which, on what table, by how much", () => {
      const { status, output } = run(runner, {
        report: "off",
        rules: [{ noScan: "Orders" }, { maxFilterWaste: 0.5, table: "Orders" }, { maxCost: 1 }],
      });
      assert.notEqual(status, 0, output);
      assert.match(output, /localdynamo profile: rule noScan Orders broken: 1 Scan read 3 items/);
      assert.match(output, /localdynamo profile: rule maxFilterWaste 0\.5 Orders broken: filter waste 0\.6667 \(3 items read, 1 returned\)/);
      assert.doesNotMatch(output, /rule maxCost 1 broken/);
    });

    test("rules the run keeps let it pass; off writes no report", () => {
      const { status, output } = run(runner, {
        report: "off",
        rules: ["noScan:Other", "maxFilterWaste:0.7:Orders", { maxCost: 1 }],
      });
      assert.equal(status, 0, output);
      assert.match(output, /localdynamo profile: 3 rules kept/);
      assert.equal(existsSync(path.join(HERE, "localdynamo-profile.json")), false);
    });
  });
}

test("the report goes to the working directory by default", () => {
  const files = ["json", "html"].map((ext) => path.join(HERE, `localdynamo-profile.${ext}`));
  try {
    const { status, output } = run("vitest");
    assert.equal(status, 0, output);
    for (const file of files) assert.ok(existsSync(file), file);
  } finally {
    for (const file of files) rmSync(file, { force: true });
  }
});

test("a malformed rule stops the run before its tests, naming the rule", () => {
  const { status, output } = run("vitest", { report: "off", rules: [{ noScans: "Orders" }] });
  assert.notEqual(status, 0, output);
  assert.match(output, /profile rule \{"noScans":"Orders"\}/);
});
