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

function issue(user, secret) {
  return [
    // ruleid: js-jwt-sign-without-expiry
    jwt.sign({ sub: user.id }, secret, { algorithm: 'HS256' }),
    // ok: js-jwt-sign-without-expiry
    jwt.sign({ sub: user.id }, secret, { algorithm: 'HS256', expiresIn: '15m' }),
  ];
}

module.exports = { app, issue };
