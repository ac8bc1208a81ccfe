// What the global set-up hands to every worker: the server's endpoint, the
// region, how to reset a worker's database and how workers name their access
// keys. It travels in one environment variable, which Vitest's and Jest's
// workers inherit from the process that ran the global set-up.
"use strict";

const VARIABLE = "LOCALDYNAMO_TEST_STATE";

function publish(state) {
  process.env[VARIABLE] = JSON.stringify(state);
}

function read() {
  const text = process.env[VARIABLE];
  if (!text) {
    throw new Error("localdynamo-test: no server for this run; add the global set-up " +
                    "(Vitest: globalSetup 'localdynamo-test/vitest'; Jest: preset 'localdynamo-test')");
  }
  return JSON.parse(text);
}

module.exports = { VARIABLE, publish, read };
