// Jest's globalSetup (the preset names it): the server, tables and seed.
import { setUp } from "../global.js";

export default async function globalSetup(globalConfig, projectConfig) {
  globalThis.__LOCALDYNAMO_TEST_TEARDOWN__ =
    await setUp({ root: projectConfig?.rootDir ?? globalConfig?.rootDir ?? process.cwd() });
}
