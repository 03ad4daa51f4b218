// Booking confirmation codes, API tokens for the key cabinet, and password checks.
import { createHash, randomBytes, randomInt, scryptSync, timingSafeEqual } from 'node:crypto'

export function confirmationCode(): string {
  // six digits sent by SMS; entering it unlocks the key cabinet
  return String(Math.floor(100000 + Math.random() * 900000)) // vuln: insecure-randomness
}

export function cabinetToken(): string {
  return randomBytes(32).toString('base64url') // safe: insecure-randomness
}

export function pickupSlotJitter(): number {
  // spreads reminder e-mails over a minute so the SMTP relay is not hit at once
  return Math.floor(Math.random() * 60_000) // safe: insecure-randomness
}

export function parkingCode(): string {
  return String(randomInt(1000, 10000)) // safe: insecure-randomness
}

export function checkPassword(password: string, stored: string): boolean {
  const [salt, hash] = stored.split(':')
  const candidate = scryptSync(password, Buffer.from(salt, 'hex'), 64) // safe: weak-hash
  return timingSafeEqual(candidate, Buffer.from(hash, 'hex'))
}

export function legacyPinHash(pin: string): string {
  return createHash('sha1').update(pin).digest('hex') // vuln: weak-hash
}
