function pad(value, size) {
  // ruleid: js-loose-equality-null
  if (value === null) return '';
  // ruleid: js-buffer-constructor
  const buffer = Buffer.alloc(size);
  // ok: js-loose-equality-null
  if (value === null) return buffer;
  return buffer.toString();
}
