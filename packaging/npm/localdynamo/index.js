"use strict";
// The localdynamo binary for this machine. It comes in a platform package
// (@localdynamo/linux-x64, @localdynamo/linux-arm64) that npm installs only
// where its "os" and "cpu" match, as esbuild's binaries do: no install
// script, no download. The binary is static, so any Linux C library will do.

const PLATFORM_PACKAGES = {
  "linux x64": "@localdynamo/linux-x64",
  "linux arm64": "@localdynamo/linux-arm64",
};

function platformPackage(platform = process.platform, arch = process.arch) {
  return PLATFORM_PACKAGES[`${platform} ${arch}`];
}

function binaryPath() {
  const name = platformPackage();
  if (!name) {
    throw new Error(
      `localdynamo: no binary for ${process.platform}/${process.arch} (there are binaries for ` +
      "linux x64 and linux arm64). Run the container image instead " +
      "(docker build -t localdynamo . && docker run -p 8000:8000 localdynamo, from the " +
      "repository), or build from source (docs/install.md).");
  }
  try {
    return require.resolve(`${name}/bin/localdynamo`);
  } catch {
    throw new Error(
      `localdynamo: ${name}, which carries the binary for this machine, is not installed. ` +
      "It is an optional dependency: install again without --omit=optional or --no-optional " +
      `(or add ${name} yourself).`);
  }
}

module.exports = {
  // A getter: requiring the package never throws; asking for the binary may.
  get binaryPath() {
    return binaryPath();
  },
  platformPackage,
};
