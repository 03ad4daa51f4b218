const child_process = require('child_process');
const express = require('express');
const { shellEscape, describe: describeHost } = require('./shell');

const app = express();

app.get('/ping', (req, res) => {
  const host = req.query.host;
  // ruleid: js-express-command-injection
  child_process.exec('ping -c 1 ' + host, (err, out) => res.send(out));
});

app.get('/trace', (req, res) => {
  const target = describeHost(req.query.host);
  const command = `traceroute ${target}`;
  // ruleid: js-express-command-injection
  child_process.exec(command, (err, out) => res.send(out));
});

app.post('/archive', (req, res) => {
  const { name } = req.body;
  // ruleid: js-express-command-injection
  child_process.exec(`tar czf /backups/${name}.tgz /srv/data`, () => res.end());
});

app.get('/ping-safe', (req, res) => {
  const host = shellEscape(req.query.host);
  // ok: js-express-command-injection
  child_process.exec('ping -c 1 ' + host, (err, out) => res.send(out));
});

app.get('/count', (req, res) => {
  const count = parseInt(req.query.count, 10);
  // ok: js-express-command-injection
  child_process.exec('seq ' + count, (err, out) => res.send(out));
});

app.get('/uptime', (req, res) => {
  // ok: js-express-command-injection
  child_process.exec('uptime', { env: { LANG: req.query.lang } }, (err, out) => res.send(out));
});

app.get('/reset', (req, res) => {
  let host = req.query.host;
  host = 'localhost';
  // ok: js-express-command-injection
  child_process.exec('ping -c 1 ' + host, (err, out) => res.send(out));
});
