const https = require('https');
const jwt = require('jsonwebtoken');

function fetchStatus(host, agent) {
  // ruleid: js-tls-reject-unauthorized-off
  https.request({ host, path: '/status', rejectUnauthorized: false }, (res) => res.resume());
  // ruleid: js-tls-reject-unauthorized-off
  https.request(
    `https://${host}/status`,
    { method: 'GET', rejectUnauthorized: false },
    (res) => res.resume(),
  );
  // ok: js-tls-reject-unauthorized-off
  https.request({ host, path: '/status', agent }, (res) => res.resume());
  // ok: js-tls-reject-unauthorized-off
  https.request({ host, path: '/status', rejectUnauthorized: true }, (res) => res.resume());
  // ok: js-tls-reject-unauthorized-off
  https.request({ host, rejectUnauthorized: false }); // nosemgrep: js-tls-reject-unauthorized-off
}

function reset(state, next) {
  // ruleid: js-self-assignment
  state.count = state.count;
  // ok: js-self-assignment
  state.count = next.count;
}

function issueToken(user) {
  // ruleid: js-hardcoded-jwt-secret
  const token = jwt.sign({ sub: user.id }, 'correct-horse-battery', { expiresIn: '1h' });
  // ruleid: js-hardcoded-jwt-secret
  const refresh = jwt.sign({ sub: user.id }, "staple-refresh");
  // ok: js-hardcoded-jwt-secret
  const signed = jwt.sign({ sub: user.id }, process.env.JWT_SECRET, { expiresIn: '1h' });
  return [token, refresh, signed];
}

function schedule(callback) {
  // ruleid: js-settimeout-string
  setTimeout("refreshDashboard()", 1000);
  // ruleid: js-settimeout-string
  setTimeout("refreshDashboard()", 1000, 'extra');
  // ok: js-settimeout-string
  setTimeout(callback, 1000);
}
