module.exports = {
  preset: "localdynamo-test",
  testMatch: ["<rootDir>/jest/**/*.test.cjs"],
  testTimeout: 20000,
};
