export function connect(host: string): WebSocket[] {
  // ruleid: js-ts-insecure-websocket
  const plain: WebSocket = new WebSocket(`ws://${host}/events`, ['v1']);
  // ok: js-ts-insecure-websocket
  const secure: WebSocket = new WebSocket('wss://' + host + '/events');
  return [plain, secure];
}
