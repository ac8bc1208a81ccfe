// Jest's setupFilesAfterEnv entry: the worker's database back to the seeded
// state before the test file (or before each test, with between: "test"; with
// between: "none" once, into a worker's database without the seed's tables).
"use strict";

const worker = require("../worker.cjs");

const { state } = worker.current();
if (state.between === "file") beforeAll(() => worker.reset());
if (state.between === "test") beforeEach(() => worker.reset());
if (state.between === "none") beforeAll(() => worker.reset({ unlessSeeded: true }));
