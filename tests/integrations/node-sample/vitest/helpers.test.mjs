import { it } from "vitest";
import * as helpers from "localdynamo-test";

import scenario from "../scenario.cjs";

for (const [name, test] of scenario.helperCases(helpers)) it(name, test);
