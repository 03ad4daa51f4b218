export function connect(host) {
  // ruleid: js-ts-insecure-websocket
  const plain = new WebSocket('ws://' + host + '/events');
  // ok: js-ts-insecure-websocket
  const secure = new WebSocket(`wss://${host}/events`);
  return [plain, secure];
}
