// between: "test" for one file: restore() before each of its tests.
const { restore } = require("localdynamo-test");

const scenario = require("../scenario.cjs");

beforeEach(() => restore());
for (const [name, test] of scenario.cases("jest-each").slice(0, 2)) {
  it(name, test);
  it(`${name}, again`, test);
}
