// Jest's setupFiles entry, run in the test file's sandbox before the file:
// its process.env points every AWS SDK client at the worker's database.
"use strict";

require("../worker.cjs").enter();
