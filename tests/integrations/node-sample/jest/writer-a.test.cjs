const scenario = require("../scenario.cjs");

for (const [name, test] of scenario.cases("jest-a")) it(name, test);
