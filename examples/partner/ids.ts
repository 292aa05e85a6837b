/**
 * 18-character record ids the way the service builds them: a 3-character key prefix naming the object type, a
 * 12-character counter, and a 3-character suffix that encodes the case of the first 15 characters (so an id survives
 * case-insensitive systems). An id whose suffix does not match is MALFORMED_ID.
 */
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345";
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function caseSuffix(id15: string): string {
  let suffix = "";
  for (let chunk = 0; chunk < 3; chunk++) {
    let bits = 0;
    for (let i = 0; i < 5; i++) {
      const c = id15[chunk * 5 + i]!;
      if (c >= "A" && c <= "Z") bits |= 1 << i;
    }
    suffix += ALPHABET[bits];
  }
  return suffix;
}

/** The id for the n-th record of a key prefix. */
export function makeId(keyPrefix: string, n: number): string {
  let digits = "";
  for (let v = n; v > 0; v = Math.floor(v / 62)) digits = BASE62[v % 62] + digits;
  const id15 = keyPrefix + digits.padStart(12, "0");
  return id15 + caseSuffix(id15);
}

/** Well formed: 18 alphanumerics with a matching case suffix. */
export function isWellFormedId(id: string): boolean {
  return /^[a-zA-Z0-9]{18}$/.test(id) && caseSuffix(id.slice(0, 15)) === id.slice(15);
}

export function keyPrefixOf(id: string): string {
  return id.slice(0, 3);
}

/** Two ids name the same record when their first 15 characters agree (the suffix only restates the case). */
export function sameId(a: string, b: string): boolean {
  return a.slice(0, 15) === b.slice(0, 15);
}
