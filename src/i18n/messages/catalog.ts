type Joined<U extends object[]> = U extends [infer F, ...infer R extends object[]] ? F & Joined<R> : unknown;

/**
 * A language's catalog from its parts, each key in one part only (one in two is refused here: a
 * translation would silently replace another, and English's type, from its parts' literal types,
 * would become `never`, and every key check with it).
 * Assigned, not spread into a literal: V8 keeps a literal's object in fast mode and copies its
 * property descriptors at every key a spread adds, which for a thousand keys left 14 MiB of garbage
 * per language at start-up (42 MiB, most of it promoted and kept as old-generation pages); an
 * object assigned that many keys is a dictionary from the start, and its lookups by key are as quick.
 */
export function catalogOf<T extends object, U extends object[]>(head: T, ...parts: U): T & Joined<U> {
  const into = head as Record<string, unknown>;
  for (const part of parts)
    for (const [key, text] of Object.entries(part)) {
      if (Object.hasOwn(into, key)) throw new Error(`the message ${key} is in two parts of a catalog`);
      into[key] = text;
    }
  return head as T & Joined<U>;
}
