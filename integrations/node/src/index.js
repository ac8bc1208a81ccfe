// The helpers for ES module tests; index.cjs holds them.
import helpers from "./index.cjs";

export const { endpoint, clientConfig, namespace, snapshot, restore, reset, clear,
               settleReplication } = helpers;
