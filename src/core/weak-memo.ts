// Values made once per (object, key) and kept as long as the object lives: a role's view of a table info, a role's
// Relay schema of a state. The object is held weakly, so a replaced state or table info takes its values with it.

/** `make(o, key)`, remembered per `o` (weakly) and `key`; a value of null or undefined is remembered too. */
export function memoByObjectAndKey<O extends object, K, V>(make: (o: O, key: K) => V): (o: O, key: K) => V {
  const byObject = new WeakMap<O, Map<K, V>>();
  return (o, key) => {
    let byKey = byObject.get(o);
    if (!byKey) byObject.set(o, (byKey = new Map()));
    if (byKey.has(key)) return byKey.get(key) as V;
    const v = make(o, key);
    byKey.set(key, v);
    return v;
  };
}
