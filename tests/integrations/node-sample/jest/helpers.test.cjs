const helpers = require("localdynamo-test");

const scenario = require("../scenario.cjs");

for (const [name, test] of scenario.helperCases(helpers)) it(name, test);
