const session = require('express-session');

const SECRET = 'keyboard cat';

module.exports = [
  // ruleid: js-hardcoded-session-secret
  session({ secret: SECRET, resave: false }),
  // ruleid: js-hardcoded-session-secret
  session({ resave: false, secret: 'another cat' }),
  // ok: js-hardcoded-session-secret
  session({ secret: process.env.SESSION_SECRET, resave: false }),
];
