const { safeRedirectTarget } = require('./redirects');

function afterLogin(req, res, trusted) {
  let target = req.query.next;
  if (trusted) {
    target = safeRedirectTarget(target);
  }
  // ruleid: js-open-redirect
  res.redirect(target);
}

function afterLoginChecked(req, res, trusted) {
  let target = req.query.next;
  if (trusted) {
    target = safeRedirectTarget(target);
  } else {
    target = safeRedirectTarget(target.trim());
  }
  // ok: js-open-redirect
  res.redirect(target);
}

function toSection(req, res) {
  let url = '/docs';
  url += '#' + req.query.section;
  // ruleid: js-open-redirect
  res.redirect(url);
}

function fromOptions(req, res) {
  const options = { target: req.query.next, fallback: '/home' };
  const targets = [options.target];
  // ruleid: js-open-redirect
  res.redirect(targets[0]);
}

function firstAllowed(req, res) {
  let chosen = '/';
  for (const candidate of req.query.candidates.split(',')) {
    chosen = candidate;
  }
  // ruleid: js-open-redirect
  res.redirect(chosen);
}

function home(req, res) {
  let target = req.query.next;
  target = '/home';
  // ok: js-open-redirect
  res.redirect(target);
}

module.exports = { afterLogin, afterLoginChecked, toSection, fromOptions, firstAllowed, home };
