// The Jest preset: `preset: "localdynamo-test"` in jest.config, where a
// project on @shelf/jest-dynamodb has `preset: "@shelf/jest-dynamodb"`.
"use strict";

const path = require("node:path");

const jest = (file) => path.join(__dirname, "src", "jest", file);

module.exports = {
  globalSetup: jest("global-setup.js"),
  globalTeardown: jest("global-teardown.js"),
  setupFiles: [jest("setup.cjs")],
  setupFilesAfterEnv: [jest("after-env.cjs")],
  testEnvironment: "node",
};
