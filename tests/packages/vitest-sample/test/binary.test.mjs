// The server came from the npm packages: no LOCALDYNAMO_BIN, and the binary
// the localdynamo package names is the platform package's, and runs.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { expect, it } from "vitest";

const require = createRequire(import.meta.url);

it("runs the binary of the platform package", () => {
  expect(process.env.LOCALDYNAMO_BIN).toBeUndefined();
  const { binaryPath } = require("localdynamo");
  const cpu = { x64: "x64", arm64: "arm64" }[process.arch];
  expect(binaryPath).toMatch(new RegExp(`node_modules/@localdynamo/linux-${cpu}/bin/localdynamo$`));
  expect(execFileSync(binaryPath, ["--version"], { encoding: "utf8" })).toMatch(/^localdynamo \d/);
});

it("points elsewhere to the container image", () => {
  const { platformPackage } = require("localdynamo");
  expect(platformPackage("linux", "arm64")).toBe("@localdynamo/linux-arm64");
  expect(platformPackage("darwin", "arm64")).toBeUndefined();
  const real = Object.getOwnPropertyDescriptor(process, "platform");
  Object.defineProperty(process, "platform", { value: "darwin" });
  try {
    expect(() => require("localdynamo").binaryPath).toThrow(/no binary for darwin\/.*container image/);
  } finally {
    Object.defineProperty(process, "platform", real);
  }
});
