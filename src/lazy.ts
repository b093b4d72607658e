/**
 * A value built on first use. Building zod schemas is most of what loading the resource types and
 * providers costs, and a command needs only those of the types and providers it checks (a plan
 * with no change, none of the resource types').
 */
export function lazy<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}
