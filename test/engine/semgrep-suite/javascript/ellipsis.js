const express = require('express');

const app = express();

function sendReport(res, report) {
  res.setHeader('Content-Type', 'text/plain');
  // ruleid: js-write-after-end
  res.end(report.summary);
  console.log('report sent');
  res.write(report.details);
}

function sendComplete(res, report) {
  res.write(report.summary);
  // ok: js-write-after-end
  res.end(report.details);
}

// ruleid: js-express-error-handler
app.use(function (err, req, res, next) {
  res.status(500).send(err.message);
});

// ok: js-express-error-handler
app.use(function (req, res, next) {
  next();
});

function configure(options) {
  let retries;
  let timeout;
  // ruleid: js-overwritten-before-use
  retries = options.retries;
  retries = 3;
  // ok: js-overwritten-before-use
  timeout = options.timeout;
  options.timeout = 30;
  return [retries, timeout];
}

function remove(user, account) {
  // ruleid: js-role-check-in-condition
  if (user.active && (user.role === 'admin' || account.owner === user.id)) {
    account.remove();
  }
  // ok: js-role-check-in-condition
  if (account.owner === user.id) {
    account.archive();
  }
}

function search(db, req) {
  // ruleid: js-query-from-request-body
  db.query("SELECT * FROM items WHERE name = '" + req.body.name + "'");
  // ruleid: js-query-from-request-body
  db.query(`SELECT * FROM items WHERE owner = '${req.body.owner.trim()}'`);
  // ok: js-query-from-request-body
  db.query('SELECT * FROM items WHERE name = ?', [req.body.name]);
  // ok: js-query-from-request-body
  db.query('SELECT * FROM items');
}
