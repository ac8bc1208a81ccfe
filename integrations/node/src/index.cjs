// Helpers for tests: where the worker's database is, and named snapshots of
// it. Every call acts on the calling worker's database only.
"use strict";

const { admin } = require("./client.cjs");
const worker = require("./worker.cjs");

// Snapshot names are global on the server: the worker's key keeps one
// worker's "before-checkout" apart from another's.
function snapshotName(name) {
  return `${worker.current().accessKeyId}--${name}`;
}

// The endpoint URL (also in AWS_ENDPOINT_URL_DYNAMODB).
function endpoint() {
  return worker.current().endpoint;
}

// An AWS SDK v3 client configuration for the worker's database, for code that
// does not read the environment; `region`: the worker's database in another
// region (a global table's replica there), one of the config's `regions`.
function clientConfig({ region } = {}) {
  const current = worker.current();
  const { endpoint: url, accessKeyId, secretAccessKey } = current;
  return { endpoint: url, region: region ?? current.region,
           credentials: { accessKeyId, secretAccessKey } };
}

// The worker's database, as the admin API names it ("worker-2/us-east-1"),
// or its database in another `region`.
function namespace(region) {
  const { state, accessKeyId, namespace: own } = worker.current();
  return region === undefined ? own : worker.namespaceOf(state, accessKeyId, region);
}

// Applies every replicated write still pending (global tables), in every
// region: what a test awaits instead of the replication delay.
async function settleReplication() {
  return admin(worker.current().endpoint, "POST", "replication/settle", {});
}

// Saves the worker's database under `name`.
async function snapshot(name) {
  const { endpoint: url, namespace: ns } = worker.current();
  return admin(url, "POST", "snapshots", { Name: snapshotName(name), Namespace: ns });
}

// Puts the worker's database back as snapshot(name) saved it; with no name,
// back to the run's seeded state (what happens before each test file).
async function restore(name) {
  if (name === undefined) return worker.reset();
  const { endpoint: url, namespace: ns } = worker.current();
  return admin(url, "POST", `snapshots/${encodeURIComponent(snapshotName(name))}/restore`,
               { Namespace: ns });
}

// Back to the seeded state (same as restore()).
function reset() {
  return worker.reset();
}

// Drops every table of the worker's database, seed and models included.
async function clear() {
  const { endpoint: url, namespace: ns } = worker.current();
  return admin(url, "POST", "reset", { Namespace: ns, Models: false });
}

module.exports = { endpoint, clientConfig, namespace, snapshot, restore, reset, clear,
                   settleReplication };
