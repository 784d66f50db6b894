/**
 * Australian Medicare card numbers (Services Australia's published check): ten digits, the first
 * 2 to 6; the ninth is the check digit, the sum of the first eight weighted 1, 3, 7, 9, 1, 3, 7, 9,
 * modulo 10; the tenth is the card's issue number (1 to 9). The individual reference number (IRN)
 * is the person's position on the card, 1 to 9. Spaces are ignored (cards print "2123 45670 1").
 */

const WEIGHTS = [1, 3, 7, 9, 1, 3, 7, 9] as const;

/** The number without spaces, or null when it is not ten digits starting 2 to 6. */
export function compactMedicareNumber(raw: string): string | null {
  const compact = raw.replace(/\s+/g, '');
  return /^[2-6]\d{9}$/.test(compact) ? compact : null;
}

export function isValidMedicareNumber(raw: string): boolean {
  const compact = compactMedicareNumber(raw);
  if (compact === null) return false;
  const digits = [...compact].map(Number);
  const sum = WEIGHTS.reduce((total, weight, index) => total + weight * (digits[index] ?? 0), 0);
  return sum % 10 === digits[8] && digits[9] !== 0;
}

export function isValidMedicareReference(raw: string): boolean {
  return /^[1-9]$/.test(raw.trim());
}
