// The end of a run: the run's access profile (GET /_localdynamo/profile,
// docs/profile.md) written as localdynamo-profile.json and .html, and the
// user's rules checked against it. Called by the global teardown before the
// server stops; the messages it returns fail the run.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

import { renderHtml } from "./html.js";
import { checkRules, figure } from "./rules.js";
import { runOnly, summarize } from "./summary.js";

const require = createRequire(import.meta.url);
const { admin } = require("../client.cjs");

const OFF = ["", "0", "off", "false", "no", "none"];

// Where the two files go: `<prefix>.json` and `<prefix>.html`, relative to
// the run's working directory; null: not written.
export function reportPrefix(setting) {
  const given = process.env.LOCALDYNAMO_PROFILE_REPORT ?? setting;
  if (given === false || given === null || OFF.includes(String(given).trim().toLowerCase())) return null;
  return path.resolve(process.cwd(), String(given).replace(/\.(json|html)$/, ""));
}

// The prefix as the summary line writes it: relative inside the working
// directory, else in full.
function shown(prefix) {
  const relative = path.relative(process.cwd(), prefix);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : prefix;
}

// Starts the profile afresh for one database (the seed's, once seeded), so
// that the report counts the tests' requests. A server without the profile
// (older, or --no-profile) has nothing to reset.
export async function resetProfile(endpoint, namespace) {
  const query = namespace === undefined ? "" : `?namespace=${encodeURIComponent(namespace)}`;
  await admin(endpoint, "DELETE", `profile${query}`).catch(() => {});
}

// Returns the broken rules' messages (empty: the run keeps every rule).
// `includes(namespace)`: whether a database is this run's.
export async function profileAtEnd({ endpoint, region, prefix, rules, includes, log = console.log }) {
  if (!prefix && rules.length === 0) return [];
  let answer;
  try {
    answer = await admin(endpoint, "GET", `profile?region=${encodeURIComponent(region)}`);
  } catch (error) {
    const why = `localdynamo profile: the server gave no profile (${error.message})`;
    if (rules.length) return [`${why}; the rules cannot be checked`];
    log(`${why}; no report written`);
    return [];
  }
  const summary = summarize(answer, { includes });
  const outcome = checkRules(rules, summary);
  if (prefix) {
    mkdirSync(path.dirname(prefix), { recursive: true });
    writeFileSync(`${prefix}.json`, `${JSON.stringify(runOnly(answer, includes), null, 2)}\n`);
    writeFileSync(`${prefix}.html`, renderHtml(summary, outcome));
    const { totals } = summary;
    log(`localdynamo profile: ${figure(totals.requests)} requests, ${figure(totals.readUnits)} read ` +
        `and ${figure(totals.writeUnits)} write units, cost ${figure(totals.cost)} ` +
        `${summary.prices.Currency ?? "USD"}: ${shown(prefix)}.{json,html}`);
  }
  const broken = outcome.flatMap(({ broken: messages }) => messages);
  if (rules.length && broken.length === 0) log(`localdynamo profile: ${rules.length} rules kept`);
  return broken;
}
