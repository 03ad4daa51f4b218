const fs = require('fs');
const db = require('./db');
const { assertSafeName } = require('./names');
const { isSameOrigin } = require('./origins');

function listen(socket) {
  socket.on('message', function (data) {
    const command = data.toString();
    // ruleid: js-socket-message-eval
    eval(command);
  });
  socket.on('close', function (code) {
    // ok: js-socket-message-eval
    eval('cleanup(' + JSON.stringify('closed') + ')');
  });
}

function download(req, res) {
  const name = req.params.name;
  // ruleid: js-path-traversal
  res.send(fs.readFileSync('/srv/files/' + name));
}

function downloadChecked(req, res) {
  const name = req.params.name;
  assertSafeName(name);
  // ok: js-path-traversal
  res.send(fs.readFileSync('/srv/files/' + name));
}

function search(req) {
  const clauses = ['active = 1'];
  clauses.push(`name = '${req.query.name}'`);
  // ruleid: js-sql-from-parts
  return db.query('SELECT * FROM users WHERE ' + clauses.join(' AND '));
}

function searchActive() {
  const clauses = ['active = 1'];
  clauses.push("role = 'admin'");
  // ok: js-sql-from-parts
  return db.query('SELECT * FROM users WHERE ' + clauses.join(' AND '));
}

function next(req, res) {
  const target = req.query.next;
  if (isSameOrigin(target)) {
    // ok: js-guarded-redirect
    return res.redirect(target);
  }
  // ruleid: js-guarded-redirect
  return res.redirect(target);
}

module.exports = { listen, download, downloadChecked, search, searchActive, next };
