// The run's global set-up, the same for Vitest and Jest: a server (started
// here, or the running one at $LOCALDYNAMO_URL), the tables and seed data in a
// database of their own, a named snapshot of it that every worker restores,
// and the environment the workers inherit.
import { createRequire } from "node:module";

import { loadSettings } from "./settings.js";
import { startServer } from "./server.js";
import { profileAtEnd, reportPrefix, resetProfile } from "./profile/report.js";

const require = createRequire(import.meta.url);
const { admin, dynamodb } = require("./client.cjs");
const runState = require("./run-state.cjs");
const worker = require("./worker.cjs");

// The binary the `localdynamo` package installed for this machine, or
// undefined (the package is missing, or has no binary here: then
// `localdynamo` on PATH, and its error says what to do should that fail too).
function packagedBinary() {
  try {
    return require("localdynamo").binaryPath;
  } catch (error) {
    packagedBinary.problem = error.message;
    return undefined;
  }
}

async function createTables(endpoint, caller, tables) {
  await Promise.all(tables.map(async (input) => {
    const { TableDescription: created } = await dynamodb(endpoint, caller, "CreateTable", input);
    for (let status = created.TableStatus; status !== "ACTIVE";) {
      await new Promise((r) => setTimeout(r, 50));
      ({ Table: { TableStatus: status } } =
        await dynamodb(endpoint, caller, "DescribeTable", { TableName: input.TableName }));
    }
  }));
}

// A server given by LOCALDYNAMO_URL that shares one database among all keys
// would have every worker reach the same database: say so rather than race.
async function expectDatabasePerKey(endpoint, probe, tables) {
  const { TableNames } = await dynamodb(endpoint, probe, "ListTables", {});
  if (TableNames.includes(tables[0].TableName)) {
    throw new Error(`localdynamo-test: the server at ${endpoint} shares one database among all ` +
                    "access keys; start it with --per-key-databases (or set isolation: false)");
  }
}

// The database a key and region reach, as the server names it: "" for
// us-east-1 (or every region with --shared-db), else the region. A server
// too old to say keeps one database for all: "".
async function namespaceOnServer(endpoint, accessKey, region) {
  const query = `accessKey=${encodeURIComponent(accessKey)}&region=${encodeURIComponent(region)}`;
  try {
    return (await admin(endpoint, "GET", `namespace?${query}`)).Namespace;
  } catch {
    return "";
  }
}

// Returns the teardown. `root`: where the config file is looked for.
export async function setUp({ root = process.cwd() } = {}) {
  const settings = await loadSettings(root);
  const external = process.env.LOCALDYNAMO_URL;
  const server = external
    ? { endpoint: external.replace(/\/+$/, ""), async stop() {} }
    : await startServer({
        binary: settings.binary || process.env.LOCALDYNAMO_BIN || packagedBinary() || "localdynamo",
        binaryProblem: packagedBinary.problem,
        port: settings.port, isolation: settings.isolation, models: settings.models,
        args: settings.args,
      });
  // On a server other runs may share, this run's keys and snapshot carry its pid.
  const keyPrefix = external ? `run${process.pid}-` : "";
  const state = {
    endpoint: server.endpoint,
    region: settings.region,
    regions: settings.regions.filter((region) => region !== settings.region),
    isolation: settings.isolation,
    keyPrefix,
    sharedKey: `${keyPrefix}localdynamo`,
    sharedNamespace: settings.isolation
      ? null : await namespaceOnServer(server.endpoint, `${keyPrefix}localdynamo`, settings.region),
    models: settings.models,
    between: settings.between,
    snapshot: null,
    seedTables: settings.tables.map((table) => table.TableName),
  };
  runState.publish(state);
  try {
    const seeding = settings.tables.length > 0 || settings.seed;
    if (seeding) {
      // The seed database: tables and items made once, then saved by name.
      const accessKeyId = settings.isolation ? `${keyPrefix}seed` : state.sharedKey;
      const caller = { accessKeyId, region: state.region };
      // Empty first: a running server may preload its models into every
      // database; the seed holds them only when asked to.
      await admin(server.endpoint, "POST", "reset",
                  { Namespace: worker.namespaceOf(state, accessKeyId), Models: settings.models });
      await createTables(server.endpoint, caller, settings.tables);
      if (external && settings.isolation && settings.tables.length > 0) {
        await expectDatabasePerKey(server.endpoint, { accessKeyId: `${keyPrefix}probe`,
                                                      region: state.region }, settings.tables);
      }
      if (settings.seed) {
        const saved = { ...process.env };
        worker.enter();
        Object.assign(process.env, { AWS_ACCESS_KEY_ID: accessKeyId });
        try {
          await settings.seed({ endpoint: server.endpoint, region: state.region, accessKeyId,
                                secretAccessKey: worker.SECRET });
        } finally {
          for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
          Object.assign(process.env, saved);
        }
      }
      state.snapshot = `${keyPrefix}localdynamo-test-seed`;
      await admin(server.endpoint, "POST", "snapshots",
                  { Name: state.snapshot, Namespace: worker.namespaceOf(state, accessKeyId) });
      runState.publish(state);
    }
    // The report counts the tests' requests, not the seed's. A server other
    // runs share keeps their profile: only the seed database's is reset.
    if (!external) await resetProfile(server.endpoint);
    else if (seeding && settings.isolation) {
      await resetProfile(server.endpoint, worker.namespaceOf(state, `${keyPrefix}seed`));
    }
    // The runner's own process runs tests too (Jest --runInBand, a single
    // worker): it gets worker 1's environment, as every worker gets its own.
    worker.enter();
  } catch (error) {
    await server.stop();
    throw error;
  }
  // This run's databases: on a shared server, those its keys name.
  const includes = external
    ? (namespace) => namespace.startsWith(keyPrefix) ||
                     (!settings.isolation && namespace === state.sharedNamespace)
    : () => true;
  return async function tearDown() {
    let broken = [];
    try {
      broken = await profileAtEnd({ endpoint: server.endpoint, region: state.region, includes,
                                    prefix: reportPrefix(settings.profileReport),
                                    rules: settings.profileRules });
    } catch (error) {
      broken = [`localdynamo profile: ${error.message}`];
    }
    await stopAndClean();
    if (broken.length) {
      // A teardown that throws fails the run in Vitest and in Jest; some
      // Vitest releases only log it, so the exit code says so too.
      process.exitCode = 1;
      const error = new Error(broken.join("\n"));
      error.stack = `Error: ${error.message}`;  // the messages say it all, not where it was thrown
      throw error;
    }
  };

  async function stopAndClean() {
    if (external) {
      // The seed and the tests' own snapshots (index.cjs names them after the
      // worker's key): this run's all start with its prefix.
      const { Snapshots } = await admin(server.endpoint, "GET", "snapshots");
      await Promise.all(Snapshots.filter(({ Name }) => Name.startsWith(keyPrefix)).map(({ Name }) =>
        admin(server.endpoint, "DELETE", `snapshots/${encodeURIComponent(Name)}`).catch(() => {})));
    }
    await server.stop();
  }
}
