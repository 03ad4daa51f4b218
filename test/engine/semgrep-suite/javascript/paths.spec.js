const { newSessionId } = require('./paths');

describe('newSessionId', () => {
  // ruleid: js-only-in-tests
  it.only('is random', () => {
    // ok: js-math-random
    const seed = Math.random();
    expect(newSessionId()).not.toEqual(String(seed));
  });
});
