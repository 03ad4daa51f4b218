const crypto = require('crypto');

function digests(buffer) {
  // ruleid: js-weak-hash
  const etag = crypto.createHash('md5').update(buffer).digest('hex');
  // ruleid: js-weak-hash
  const legacy = crypto.createHash('sha1').update(buffer).digest('hex');
  // ok: js-weak-hash
  const strong = crypto.createHash('sha256').update(buffer).digest('hex');
  return [etag, legacy, strong];
}

function evaluate(expression, args) {
  // ruleid: js-eval-non-literal
  const value = eval(expression);
  // ruleid: js-eval-non-literal
  const fn = new Function('a', 'b', args.body);
  // ok: js-eval-non-literal
  const constant = eval('1 + 1');
  // ok: js-eval-non-literal
  const add = new Function('a', 'b', 'return a + b');
  return [value, fn, constant, add];
}

function login(res, session) {
  // ruleid: js-cookie-without-httponly
  res.cookie('session', session.id, { secure: true });
  // ok: js-cookie-without-httponly
  res.cookie('session', session.id, { secure: true, httpOnly: true, sameSite: 'lax' });
  // ok: js-cookie-without-httponly
  res.cookie('theme', session.theme, { httpOnly: true });
}
