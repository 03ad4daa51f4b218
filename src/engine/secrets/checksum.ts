/**
 * Checksums embedded in some token formats. GitHub (ghp_, gho_, ghu_, ghs_, ghr_) and npm
 * (npm_) tokens end with the CRC-32 of their 30 random characters, written as 6 base62
 * digits (0-9A-Za-z, zero-padded). A valid checksum means the string is almost surely a
 * token minted by the provider rather than a coincidence or a hand-typed fake.
 */
import { crc32 } from 'node:zlib'

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

export function base62(value: number, width: number): string {
  let digits = ''
  let rest = value
  while (rest > 0) {
    digits = BASE62[rest % 62] + digits
    rest = Math.floor(rest / 62)
  }
  return digits.padStart(width, '0')
}

/** Checksum suffix of a base62 token body: base62(crc32(random part)), 6 characters. */
export function base62Crc32(randomPart: string): string {
  return base62(crc32(randomPart), 6)
}

/** True when the last 6 characters of `body` are the CRC-32 of the characters before them. */
export function hasValidBase62Crc32(body: string): boolean {
  if (body.length <= 6) return false
  return base62Crc32(body.slice(0, -6)) === body.slice(-6)
}
