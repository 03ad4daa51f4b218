const bcrypt = require('bcrypt');
const session = require('express-session');

async function store(password) {
  // ruleid: js-low-bcrypt-rounds
  const quick = await bcrypt.hash(password, 4);
  // ok: js-low-bcrypt-rounds
  const slow = await bcrypt.hash(password, 12);
  // ok: js-low-bcrypt-rounds
  const minimum = await bcrypt.hash(password, 10);
  return [quick, slow, minimum];
}

// ruleid: js-long-session
const monthLong = session({ secret: process.env.SECRET, cookie: { maxAge: 2592000000 } });
// ok: js-long-session
const hourLong = session({ secret: process.env.SECRET, cookie: { secure: true, maxAge: 3600000 } });

function start(server) {
  // ruleid: js-public-privileged-listen
  server.listen(443, '0.0.0.0');
  // ok: js-public-privileged-listen
  server.listen(443, '127.0.0.1');
  // ok: js-public-privileged-listen
  server.listen(8443, '0.0.0.0');
}

module.exports = { store, monthLong, hourLong, start };
