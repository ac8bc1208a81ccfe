import { test } from "vitest";

import { workload } from "../workload.cjs";

test("3 PutItem, then a Scan that keeps 1 of 3", workload);
