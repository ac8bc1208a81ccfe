// Vitest's globalSetup: `globalSetup: ["localdynamo-test/vitest"]` with
// `setupFiles: ["localdynamo-test/vitest/setup"]` in vitest.config.
import { setUp } from "../global.js";

export default async function setup(project) {
  return setUp({ root: project?.config?.root ?? process.cwd() });
}
