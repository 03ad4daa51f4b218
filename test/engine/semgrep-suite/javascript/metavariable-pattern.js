const child_process = require('child_process');

function installAgent() {
  // ruleid: js-exec-curl-pipe-shell
  child_process.exec('curl -fsSL https://agent.example.com/install | sh', (err) => {
    if (err) throw err;
  });
  // ok: js-exec-curl-pipe-shell
  child_process.exec('curl -fsSL -o /tmp/agent.tgz https://agent.example.com/agent.tgz');
}

async function show(panel, xhr, url) {
  // ruleid: js-markup-from-response
  panel.innerHTML = xhr.responseText;
  const response = await fetch(url);
  // ruleid: js-markup-from-response
  panel.innerHTML = await response.text();
  // ok: js-markup-from-response
  panel.innerHTML = '<p>loading…</p>';
}

module.exports = { installAgent, show };
