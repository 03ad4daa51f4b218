/**
 * Masks a secret for display: at most the first 4 characters survive (fewer for short
 * secrets, none under 8), followed by 8 to 12 stars whatever the secret's length, so
 * neither the secret nor its exact length can be recovered from the output.
 */

const MIN_STARS = 8
const MAX_STARS = 12

function visiblePrefixLength(length: number): number {
  if (length < 8) return 0
  if (length < 12) return 2
  if (length < 20) return 3
  return 4
}

export function redact(secret: string): string {
  // Code points, so a surrogate pair is never cut in half.
  const characters = Array.from(secret)
  const visible = visiblePrefixLength(characters.length)
  const hidden = characters.length - visible
  const stars = Math.min(MAX_STARS, Math.max(MIN_STARS, hidden))
  return characters.slice(0, visible).join('') + '*'.repeat(stars)
}
