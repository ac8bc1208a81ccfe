const scenario = require("../scenario.cjs");

for (const [name, test] of scenario.cases("jest-d")) it(name, test);
