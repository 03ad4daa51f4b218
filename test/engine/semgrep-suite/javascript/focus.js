function finish(req, res) {
  res.redirect(
    302,
    // ruleid: js-open-redirect-argument
    req.query.next,
  );
  res.redirect(
    301,
    // ok: js-open-redirect-argument
    '/home',
  );
}

module.exports = { finish };
