/**
 * Node built-ins that bundled modules import when they load but most commands never call:
 * `crypto` (a random temp-file name for an atomic write), `fs/promises` (manifest and meter files
 * read only off the cached path), `child_process` (spawning agents and meter commands). Loading
 * them is milliseconds of every start; through {@link lazyBuiltinRequire} each loads on its first
 * use instead. Only built-ins whose export is a plain object are safe here (not `events` or
 * `assert`, which are functions).
 */
export const LAZY_BUILTINS: readonly string[] = ['crypto', 'fs/promises', 'child_process'];

/**
 * A `require` that returns, for the named built-ins (with or without `node:`), a stand-in that
 * loads the module on the first read of any of its members and forwards everything to it. Other
 * ids go to `base` unchanged. The stand-in is one object per module, so repeated requires agree.
 *
 * What changes is only when the built-in loads: its members, `in`, key listing and property
 * descriptors are the real module's (descriptors are reported configurable, as a proxy must).
 */
export function lazyBuiltinRequire(
  base: NodeJS.Require,
  names: readonly string[] = LAZY_BUILTINS,
): NodeJS.Require {
  const lazy = new Set(names.flatMap((name) => [name, `node:${name}`]));
  const standIns = new Map<string, object>();
  const lazyRequire = ((id: string) => {
    if (!lazy.has(id)) return base(id);
    const name = id.startsWith('node:') ? id.slice(5) : id;
    let standIn = standIns.get(name);
    if (standIn === undefined) {
      standIn = lazyModule(() => base(`node:${name}`) as object);
      standIns.set(name, standIn);
    }
    return standIn;
  }) as NodeJS.Require;
  lazyRequire.resolve = base.resolve;
  lazyRequire.cache = base.cache;
  lazyRequire.extensions = base.extensions;
  lazyRequire.main = base.main;
  return lazyRequire;
}

function lazyModule(load: () => object): object {
  let real: object | undefined;
  const target = (): object => {
    real ??= load();
    return real;
  };
  return new Proxy(
    {},
    {
      get: (_, key) => Reflect.get(target(), key),
      has: (_, key) => Reflect.has(target(), key),
      set: (_, key, value) => Reflect.set(target(), key, value),
      deleteProperty: (_, key) => Reflect.deleteProperty(target(), key),
      ownKeys: () => Reflect.ownKeys(target()),
      getOwnPropertyDescriptor: (_, key) => {
        const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
        return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
      },
      defineProperty: (_, key, descriptor) => Reflect.defineProperty(target(), key, descriptor),
      getPrototypeOf: () => Reflect.getPrototypeOf(target()),
    },
  );
}
