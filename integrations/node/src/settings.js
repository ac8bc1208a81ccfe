// The run's configuration: a file in the project's root, in either of two
// shapes, so a project on @shelf/jest-dynamodb keeps its config file as is.
//
//   localdynamo.config.{js,mjs,cjs}   (or the file named by $LOCALDYNAMO_CONFIG)
//     export default [ ...CreateTable inputs ]          tables only, or
//     export default { tables, seed, between, ... }     see below
//   jest-dynamodb-config.js           (or $JEST_DYNAMODB_CONFIG)
//     module.exports = { tables: [...], port: 8000, ... }
// Each may also be an (async) function returning either shape. No file: no
// tables of its own, each database starts with the server's preloaded models.
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { parseRules } from "./profile/rules.js";

const OWN_FILES = ["localdynamo.config.js", "localdynamo.config.mjs", "localdynamo.config.cjs"];
const JEST_DYNAMODB_FILES = ["jest-dynamodb-config.js", "jest-dynamodb-config.cjs",
                             "jest-dynamodb-config.mjs"];

export const DEFAULTS = {
  tables: [],         // CreateTable inputs, created in the seed database
  seed: null,         // async ({ endpoint, region, accessKeyId, secretAccessKey }) => {},
                      // run once with the AWS environment pointing at the seed database
  models: undefined,  // preload the server's models: default only when no tables and no seed
  between: "file",    // reset each worker's database before every "file", "test", or "none"
  isolation: true,    // a database per worker; false: one shared database (run serially)
  region: "us-east-1",
  regions: [],        // more regions each worker's tests use (global tables): each its
                      // own database, emptied (or reset to the models) with the worker's
  port: 0,            // 0: a free port
  binary: undefined,  // default $LOCALDYNAMO_BIN, then `localdynamo` on PATH
  args: [],           // more command-line flags for the server
  profileReport: "localdynamo-profile",  // the run's access profile, written at its end as
                      // <this>.json and <this>.html (relative to the working directory);
                      // false: not written; $LOCALDYNAMO_PROFILE_REPORT ("off")
  profileRules: [],   // rules the profile must keep, else the run fails (profile/rules.js)
  // @shelf/jest-dynamodb's hostname, options, clientConfig and installerConfig
  // concern DynamoDB Local and are ignored.
};

function locate(root) {
  const named = process.env.LOCALDYNAMO_CONFIG || process.env.JEST_DYNAMODB_CONFIG;
  if (named) return path.resolve(root, named);
  for (const name of [...OWN_FILES, ...JEST_DYNAMODB_FILES]) {
    const candidate = path.join(root, name);
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

export async function loadSettings(root = process.cwd()) {
  const file = locate(root);
  let loaded = {};
  if (file) {
    const module = await import(pathToFileURL(file).href);
    loaded = module.default ?? module;
    if (typeof loaded === "function") loaded = await loaded();
    if (Array.isArray(loaded)) loaded = { tables: loaded };
  }
  const settings = { ...DEFAULTS, ...loaded, file };
  if (typeof settings.tables === "function") settings.tables = await settings.tables();
  if (process.env.LOCALDYNAMO_ISOLATION) {
    settings.isolation = !["0", "off", "false", "no"].includes(process.env.LOCALDYNAMO_ISOLATION);
  }
  if (process.env.LOCALDYNAMO_BETWEEN) settings.between = process.env.LOCALDYNAMO_BETWEEN;
  if (!["file", "test", "none"].includes(settings.between)) {
    throw new Error(`localdynamo-test: between must be "file", "test" or "none", not ${settings.between}`);
  }
  settings.profileRules = parseRules(settings.profileRules);
  if (settings.models === undefined) settings.models = settings.tables.length === 0 && !settings.seed;
  return settings;
}
