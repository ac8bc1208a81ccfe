import { it } from "vitest";

import scenario from "../scenario.cjs";

for (const [name, test] of scenario.cases("vitest-e")) it(name, test);
