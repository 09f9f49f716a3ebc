/**
 * Graph helpers over steps numbered 0..n-1, where `deps[i]` lists the steps step i depends on.
 * Everything is iterative (no recursion), so a 10,000-step chain cannot overflow the stack.
 */

/** A topological order (dependencies first), or the cycles that prevent one. */
export interface TopologicalResult {
  /** Every step, dependencies before dependants; undefined when there is a cycle. */
  readonly order: readonly number[] | undefined;
  /** Each cycle as a list of steps, `a → b → … → a` (a self-dependency is `[a]`). */
  readonly cycles: readonly (readonly number[])[];
}

/** Kahn's algorithm, then the cycles among what is left. */
export function topologicalOrder(deps: readonly (readonly number[])[]): TopologicalResult {
  const n = deps.length;
  const indegree = new Int32Array(n);
  const dependants: number[][] = Array.from({ length: n }, () => []);
  for (let i = 0; i < n; i++) {
    for (const d of deps[i] as readonly number[]) {
      indegree[i] = (indegree[i] as number) + 1;
      (dependants[d] as number[]).push(i);
    }
  }
  const order: number[] = [];
  for (let i = 0; i < n; i++) if (indegree[i] === 0) order.push(i);
  for (let head = 0; head < order.length; head++) {
    for (const next of dependants[order[head] as number] as number[]) {
      indegree[next] = (indegree[next] as number) - 1;
      if (indegree[next] === 0) order.push(next);
    }
  }
  if (order.length === n) return { order, cycles: [] };
  const left = new Set<number>();
  for (let i = 0; i < n; i++) if ((indegree[i] as number) > 0) left.add(i);
  return { order: undefined, cycles: findCycles(deps, left) };
}

/** One cycle per strongly connected group among `left` (Tarjan, iterative). */
function findCycles(deps: readonly (readonly number[])[], left: ReadonlySet<number>): number[][] {
  const index = new Map<number, number>();
  const low = new Map<number, number>();
  const onStack = new Set<number>();
  const stack: number[] = [];
  const groups: number[][] = [];
  let counter = 0;
  for (const root of [...left].sort((a, b) => a - b)) {
    if (index.has(root)) continue;
    const work: [number, number][] = [[root, 0]];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as [number, number];
      const [node, edge] = frame;
      const edges = (deps[node] as readonly number[]).filter((d) => left.has(d));
      if (edge < edges.length) {
        frame[1] = edge + 1;
        const next = edges[edge] as number;
        if (!index.has(next)) {
          index.set(next, counter);
          low.set(next, counter++);
          stack.push(next);
          onStack.add(next);
          work.push([next, 0]);
        } else if (onStack.has(next)) {
          low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent[0], Math.min(low.get(parent[0]) as number, low.get(node) as number));
      if (low.get(node) === index.get(node)) {
        const group: number[] = [];
        let member: number;
        do {
          member = stack.pop() as number;
          onStack.delete(member);
          group.push(member);
        } while (member !== node);
        const selfLoop = group.length === 1 && (deps[node] as readonly number[]).includes(node);
        if (group.length > 1 || selfLoop) groups.push(group);
      }
    }
  }
  return groups.map((group) => cyclePath(deps, new Set(group)));
}

/** A path `start → … → start` inside one strongly connected group (BFS over dependencies). */
function cyclePath(deps: readonly (readonly number[])[], group: ReadonlySet<number>): number[] {
  const start = Math.min(...group);
  if ((deps[start] as readonly number[]).includes(start)) return [start];
  const previous = new Map<number, number>();
  const queue: number[] = [];
  for (const next of deps[start] as readonly number[]) {
    if (group.has(next) && !previous.has(next)) {
      previous.set(next, start);
      queue.push(next);
    }
  }
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head] as number;
    if (node === start) break;
    for (const next of deps[node] as readonly number[]) {
      if (group.has(next) && !previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  const path: number[] = [];
  let at = previous.get(start);
  while (at !== undefined && at !== start) {
    path.push(at);
    at = previous.get(at);
  }
  return [start, ...path.reverse()];
}

/** Dependency level of each step: 1 for a step with no dependencies, else 1 + the deepest dependency. */
export function dependencyLevels(deps: readonly (readonly number[])[], order: readonly number[]): number[] {
  const levels = new Array<number>(deps.length).fill(1);
  for (const i of order) {
    let level = 1;
    for (const d of deps[i] as readonly number[]) level = Math.max(level, (levels[d] as number) + 1);
    levels[i] = level;
  }
  return levels;
}

/** Above this many steps, upstream queries walk the graph instead of keeping n² bits. */
const BITSET_LIMIT = 30_000;

/**
 * `isUpstream(step, target)`: whether `target` is a (transitive) dependency of `step`. A direct
 * dependency answers at once; otherwise ancestor bitsets are built once, in topological order
 * (n²/8 bytes: 12.5 MB for 10,000 steps), or — past 30,000 steps or with a cycle — a walk per query.
 */
export function createUpstreamQuery(
  deps: readonly (readonly number[])[],
  order: readonly number[] | undefined,
): (step: number, target: number) => boolean {
  const n = deps.length;
  let bits: Uint32Array[] | undefined;
  const words = Math.ceil(n / 32);
  const build = (topo: readonly number[]): Uint32Array[] => {
    const sets: Uint32Array[] = new Array(n);
    for (const i of topo) {
      const set = new Uint32Array(words);
      for (const d of deps[i] as readonly number[]) {
        const ancestors = sets[d] as Uint32Array;
        for (let w = 0; w < words; w++) set[w] = (set[w] as number) | (ancestors[w] as number);
        set[d >>> 5] = (set[d >>> 5] as number) | (1 << (d & 31));
      }
      sets[i] = set;
    }
    return sets;
  };
  const walk = (step: number, target: number): boolean => {
    const seen = new Uint8Array(n);
    const queue = [...(deps[step] as readonly number[])];
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head] as number;
      if (node === target) return true;
      if (seen[node]) continue;
      seen[node] = 1;
      for (const d of deps[node] as readonly number[]) if (!seen[d]) queue.push(d);
    }
    return false;
  };
  return (step, target) => {
    if ((deps[step] as readonly number[]).includes(target)) return true;
    if (order === undefined || n > BITSET_LIMIT) return walk(step, target);
    bits ??= build(order);
    return (((bits[step] as Uint32Array)[target >>> 5] as number) & (1 << (target & 31))) !== 0;
  };
}
