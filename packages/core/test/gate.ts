/** A gate a test opens: `opened` settles, with the value given, once `open` is called. */
export function gate<T = void>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => (open = resolve));
  return { opened, open };
}
