/**
 * Checks that a PEM private-key block holds real key material rather than a placeholder
 * (`...`, `<your key here>`, a few characters), and reads what it can about the key
 * without parsing it: whether the DER/OpenSSH structure looks right and whether the key
 * is passphrase-protected.
 */
import { shannonEntropy } from '../entropy.ts'

export interface PemBody {
  /** base64 payload, headers and line breaks removed */
  base64: string
  /** the payload starts like a DER SEQUENCE / openssh-key-v1 / PGP packet */
  structured: boolean
  encrypted: boolean
}

const HEADER_LINE = /^[A-Za-z-]+:/

/**
 * Extract and check the payload between BEGIN and END. Handles real line breaks, JSON/JS
 * escaped `\n`, and string concatenation across lines (`"..." +`).
 */
export function validatePemBody(block: string): PemBody | null {
  const label = /-----BEGIN ([A-Z0-9 ]*)-----/.exec(block)?.[1] ?? ''
  const inner = block.replace(/-----(?:BEGIN|END) [A-Z0-9 ]*-----/g, '\n')
  const lines = inner.replace(/\\r\\n|\\n|\\r/g, '\n').split(/\r?\n/)
  let headersEncrypted = false
  const payload: string[] = []
  for (const rawLine of lines) {
    const line = rawLine.replace(/^[\s"'`+,;(]*|[\s"'`+,;)\\]*$/g, '')
    if (line.length === 0) continue
    if (HEADER_LINE.test(line)) {
      if (/ENCRYPTED|DEK-Info/i.test(line)) headersEncrypted = true
      continue
    }
    payload.push(line)
  }
  // PGP armor ends with a `=XXXX` CRC-24 line; it is not part of the key.
  if (payload.length > 1 && /^=[A-Za-z0-9+/]{4}$/.test(payload[payload.length - 1] ?? '')) payload.pop()
  const base64 = payload.join('')
  if (base64.length < 64 || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return null
  if (shannonEntropy(base64) < 4.5 || /EXAMPLE|example|xxxxx|XXXXX/.test(base64)) return null
  const structured = looksStructured(label, base64)
  const encrypted = headersEncrypted || label.includes('ENCRYPTED') || openSshKeyIsEncrypted(label, base64)
  return { base64, structured, encrypted }
}

function looksStructured(label: string, base64: string): boolean {
  if (label.startsWith('OPENSSH')) return base64.startsWith('b3BlbnNzaC1rZXktdjE')
  if (label.startsWith('PGP')) return base64.length >= 200
  // DER SEQUENCE with a long-form length: MII... (>= 256 bytes), MIG/MHc/MHQ (EC, short keys).
  return /^(?:MII|MIG|MHc|MHQ|MIH|MC4C|MFE|MFMC)/.test(base64)
}

/** openssh-key-v1 stores the cipher name right after the magic; "none" means unencrypted. */
function openSshKeyIsEncrypted(label: string, base64: string): boolean {
  if (!label.startsWith('OPENSSH')) return false
  const head = Buffer.from(base64.slice(0, 64), 'base64')
  const magic = 'openssh-key-v1\0'
  if (head.toString('latin1', 0, magic.length) !== magic) return false
  const nameLength = head.readUInt32BE(magic.length)
  const cipher = head.toString('latin1', magic.length + 4, magic.length + 4 + nameLength)
  return cipher !== 'none'
}
