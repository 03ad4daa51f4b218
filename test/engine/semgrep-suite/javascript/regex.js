// ruleid: js-internal-http-url
const BILLING_URL = 'http://billing.corp.example.com/api/v2';
// ok: js-internal-http-url
const LEDGER_URL = 'https://ledger.corp.example.com/api/v2';

function start(port) {
  // ok: js-console-debug-left
  console.log('[startup] listening on ' + port);
  // ruleid: js-console-debug-left
  console.log('request body', port);
  // ruleid: js-console-debug-left
  console.debug(BILLING_URL, LEDGER_URL);
}

function render(container, comment) {
  // ruleid: js-dangerous-dom-sink
  container.innerHTML = comment.html;
  // ruleid: js-dangerous-dom-sink
  container.outerHTML = '<div>' + comment.html + '</div>';
  // ok: js-dangerous-dom-sink
  container.textContent = comment.text;
  // ok: js-dangerous-dom-sink
  container.dataset.innerHTMLBackup = comment.html;
}

module.exports = { start, render };
