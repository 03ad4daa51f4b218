function newSessionId() {
  // ruleid: js-math-random
  return Math.random().toString(36).slice(2);
}

const it = { only: (name) => name };
// ok: js-only-in-tests
it.only('not a test file');

module.exports = { newSessionId };
