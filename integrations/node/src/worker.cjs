// One test worker's database: its access key (so, with --per-key-databases,
// its own database "<key>/<region>"), the environment that makes every AWS SDK
// client created without configuration reach it, and the reset that brings it
// back to the seeded state before each test file (or each test).
"use strict";

const { admin, dynamodb } = require("./client.cjs");
const runState = require("./run-state.cjs");

const SECRET = "localdynamo";

// Worker ids: Vitest's VITEST_POOL_ID and Jest's JEST_WORKER_ID are 1..N and
// stay with a worker for the whole run, so each worker keeps one database.
function workerId() {
  return process.env.VITEST_POOL_ID || process.env.JEST_WORKER_ID || "1";
}

function accessKeyFor(state, id) {
  return state.isolation ? `${state.keyPrefix}worker-${id}` : state.sharedKey;
}

// The database's name in the admin API: the worker's own, or the one all
// workers share (the region's, asked of the server at set-up). `region`:
// one of the run's other regions (per-key databases only).
function namespaceOf(state, accessKeyId, region = state.region) {
  if (region !== state.region) return `${accessKeyId}/${region}`;
  return state.isolation ? `${accessKeyId}/${state.region}` : (state.sharedNamespace ?? "");
}

// Points this process's AWS environment at the worker's database.
function enter() {
  const state = runState.read();
  const accessKeyId = accessKeyFor(state, workerId());
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_DYNAMODB: state.endpoint,
    AWS_REGION: state.region,
    AWS_DEFAULT_REGION: state.region,
    AWS_ACCESS_KEY_ID: accessKeyId,
    AWS_SECRET_ACCESS_KEY: SECRET,
    MOCK_DYNAMODB_ENDPOINT: state.endpoint,  // what @shelf/jest-dynamodb users read
  });
  delete process.env.AWS_SESSION_TOKEN;
  return current();
}

// The worker's endpoint, credentials and database.
function current() {
  const state = runState.read();
  const accessKeyId = accessKeyFor(state, workerId());
  return {
    endpoint: state.endpoint,
    region: state.region,
    accessKeyId,
    secretAccessKey: SECRET,
    namespace: namespaceOf(state, accessKeyId),
    state,
  };
}

// Back to the run's starting point: the seed snapshot restored into the
// worker's database, or (no seed) the database reset to the preloaded models
// or to empty. `unlessSeeded` (between: "none"): only into a database that
// does not hold the seed's tables yet, so once per worker.
async function reset({ unlessSeeded = false } = {}) {
  const { endpoint, region, accessKeyId, namespace, state } = current();
  // A database's first DynamoDB request loads the server's preloaded models
  // into it; make that request now, so it cannot add tables after the reset.
  const { TableNames } = await dynamodb(endpoint, { accessKeyId, region }, "ListTables", {});
  // The worker's other regions start empty (or with the models) each time:
  // a replica a test made there goes with it.
  if (state.isolation) {
    for (const other of state.regions ?? []) {
      await dynamodb(endpoint, { accessKeyId, region: other }, "ListTables", {});
      await admin(endpoint, "POST", "reset",
                  { Namespace: namespaceOf(state, accessKeyId, other), Models: state.models ?? false });
    }
  }
  if (unlessSeeded) {
    const seeded = state.seedTables.length > 0
      ? state.seedTables.every((name) => TableNames.includes(name))
      : TableNames.length > 0 || !state.snapshot;
    if (seeded) return null;
  }
  if (state.snapshot) {
    return admin(endpoint, "POST", `snapshots/${encodeURIComponent(state.snapshot)}/restore`,
                 { Namespace: namespace });
  }
  return admin(endpoint, "POST", "reset", { Namespace: namespace, Models: state.models });
}

module.exports = { SECRET, workerId, accessKeyFor, namespaceOf, enter, current, reset };
