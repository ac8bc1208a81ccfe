// Vitest's setupFiles entry, run in the worker before each test file: the
// worker's AWS environment, then its database back to the seeded state
// before the file (or before each test, with between: "test"; with
// between: "none" once, into a worker's database without the seed's tables).
import { beforeAll, beforeEach } from "vitest";

import worker from "../worker.cjs";

const { state } = worker.enter();
if (state.between === "file") beforeAll(() => worker.reset());
if (state.between === "test") beforeEach(() => worker.reset());
if (state.between === "none") beforeAll(() => worker.reset({ unlessSeeded: true }));
