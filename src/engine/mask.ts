/**
 * Spec 5's masking helpers, for list cells. (The shell's src/lib had none when the engine was written; if it
 * gains them, import those instead of these.)
 */
export const MASKS = {
  /** First 3 and last 4 characters: 138****5678. */
  phone: (value: string) => (value.length > 7 ? `${value.slice(0, 3)}****${value.slice(-4)}` : value),
  /** First 6 characters and those from index 14: 110101********1234. */
  idCard: (value: string) =>
    value.length > 14 ? `${value.slice(0, 6)}${'*'.repeat(8)}${value.slice(14)}` : value,
  /** First and last characters of the local part when it is longer than 2: a***e@example.com. */
  email: (value: string) => {
    const at = value.lastIndexOf('@');
    if (at < 0) return value;
    const local = value.slice(0, at);
    if (local.length <= 2) return value;
    return `${local[0]}***${local[local.length - 1]}${value.slice(at)}`;
  },
} satisfies Record<string, (value: string) => string>;

export type MaskName = keyof typeof MASKS;
