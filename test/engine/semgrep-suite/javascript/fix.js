function pad(value, size) {
  // ruleid: js-loose-equality-null
  if (value == null) return '';
  // ruleid: js-buffer-constructor
  const buffer = new Buffer(size);
  // ok: js-loose-equality-null
  if (value === null) return buffer;
  return buffer.toString();
}
