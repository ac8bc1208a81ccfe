// between: "test" for one file: restore() before each of its tests.
import { beforeEach, it } from "vitest";
import { restore } from "localdynamo-test";

import scenario from "../scenario.cjs";

beforeEach(() => restore());
// Each case starts from the seed, so the one that expects its earlier writes fails.
for (const [name, test] of scenario.cases("vitest-each").slice(0, 2)) {
  it(name, test);
  it(`${name}, again`, test);
}
