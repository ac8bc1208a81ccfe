// Jest's globalTeardown (the preset names it): stops what globalSetup started.
export default async function globalTeardown() {
  const tearDown = globalThis.__LOCALDYNAMO_TEST_TEARDOWN__;
  delete globalThis.__LOCALDYNAMO_TEST_TEARDOWN__;
  if (tearDown) await tearDown();
}
