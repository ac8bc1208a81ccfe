// Where a project on @shelf/jest-dynamodb says preset: "@shelf/jest-dynamodb".
module.exports = {
  preset: "localdynamo-test",
  testMatch: ["<rootDir>/jest/**/*.test.cjs"],
  testTimeout: 20000,
};
