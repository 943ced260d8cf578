/**
 * The end of every chain in which an adapter walks a message's parts: a part kind the adapter does
 * not map fails to compile there (`part` is not `never`), and should a record bring one anyway, the
 * request fails naming it instead of dropping it silently.
 */
export function unmappedPart(part: never, adapter: string): never {
  const type = JSON.stringify((part as { type?: unknown }).type);
  throw new Error(
    `${adapter} does not map a message part of type ${type}: map it in the adapter (CONTRIBUTING.md, "A new part kind").`,
  );
}
