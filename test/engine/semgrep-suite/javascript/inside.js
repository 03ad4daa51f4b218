const router = require('express').Router();

router.get('/login/callback', function (req, res, next) {
  // ruleid: js-redirect-in-route
  res.redirect(req.query.returnTo);
});

function afterLogin(req, res) {
  // ok: js-redirect-in-route
  res.redirect(req.query.returnTo);
}

router.get('/logout', function (req, res) {
  // ok: js-redirect-in-route
  res.redirect('/');
});

async function loadProfile(id) {
  // ruleid: js-await-outside-try
  const response = await fetch(`/api/profiles/${id}`);
  return response.json();
}

async function loadSettings() {
  try {
    // ok: js-await-outside-try
    const response = await fetch('/api/settings');
    return await response.json();
  } catch (err) {
    return {};
  }
}

function upload(req, saved) {
  const avatar = req.files.avatar;
  // ruleid: js-unvalidated-upload-name
  avatar.mv(`/srv/uploads/${avatar.name}`, () => {});
  // ok: js-unvalidated-upload-name
  saved.mv(`/srv/uploads/${saved.name}`, () => {});
}

module.exports = { router, afterLogin, loadProfile, loadSettings, upload };
