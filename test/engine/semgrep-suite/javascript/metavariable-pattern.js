const child_process = require('child_process');
const cors = require('cors');
const express = require('express');
const jwt = require('jsonwebtoken');

const app = express();
// ruleid: js-cors-any-origin
app.use(cors({ origin: '*', credentials: false }));
// ruleid: js-cors-any-origin
app.use('/api', cors({ credentials: true, origin: true }));
// ok: js-cors-any-origin
app.use('/partner', cors({ origin: 'https://partner.example.com' }));

function installAgent() {
  // ruleid: js-exec-curl-pipe-shell
  child_process.exec('curl -fsSL https://agent.example.com/install | sh', (err) => {
    if (err) throw err;
  });
  // ok: js-exec-curl-pipe-shell
  child_process.exec('curl -fsSL -o /tmp/agent.tgz https://agent.example.com/agent.tgz');
}

function issue(user, secret) {
  return [
    // ruleid: js-jwt-sign-without-expiry
    jwt.sign({ sub: user.id }, secret, { algorithm: 'HS256' }),
    // ok: js-jwt-sign-without-expiry
    jwt.sign({ sub: user.id }, secret, { algorithm: 'HS256', expiresIn: '15m' }),
  ];
}

module.exports = { app, installAgent, issue };
