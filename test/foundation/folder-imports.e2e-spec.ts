import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';

/**
 * The folders of `src/` depend on each other in one direction (README.md, Architecture): no folder
 * imports from a folder that imports it back, directly or around a longer loop. A folder counts with its
 * subfolders: `oauth/token` importing `oauth/client-auth` is an edge between those two siblings, and
 * `oauth/token` importing `auth` is one between `oauth` and `auth`. A file importing from its own folder or
 * from a folder inside it is no edge, and neither is an `import type` of a feature's `*.outcomes.ts` file: those
 * hold only the types its services return, which the pages of `src/web` name (test/foundation/web-imports);
 * nothing of them is left at run time.
 */
describe('the import graph of src/ folders', () => {
  const root = join(__dirname, '..', '..', 'src');

  it('has no cycle between folders at any level', () => {
    expect(folderCycles(folderEdges(root))).toEqual([]);
  });

  it('would name a cycle: one between siblings, and one around three folders', () => {
    const edges = new Map<string, Set<string>>([
      ['oauth/token', new Set(['oauth/device'])],
      ['oauth/device', new Set(['oauth/token'])],
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(folderCycles(edges)).toEqual([
      ['a', 'b', 'c'],
      ['oauth/device', 'oauth/token'],
    ]);
  });
});

/** Relative imports of every non-test TypeScript file, as edges between the two sibling folders that hold the two ends. */
function folderEdges(root: string): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const file of sourceFiles(root)) {
    const text = readFileSync(file, 'utf8');
    for (const [, keyword, typeOnly, specifier] of text.matchAll(/(?:^|\n)\s*(import|export)\s(type\s)?[^;]*?from\s+'(\.[^']+)'/g)) {
      const target = resolveModule(dirname(file), specifier);
      if (target === undefined) continue;
      if (keyword === 'import' && typeOnly !== undefined && target.endsWith('.outcomes.ts')) continue;
      const from = relative(root, dirname(file)).split(sep).filter(Boolean);
      const to = relative(root, dirname(target)).split(sep).filter(Boolean);
      let shared = 0;
      while (shared < from.length && shared < to.length && from[shared] === to[shared]) shared++;
      // Same folder, or one folder inside the other: not an edge between two folders.
      if (shared === from.length || shared === to.length) continue;
      const a = from.slice(0, shared + 1).join('/');
      const b = to.slice(0, shared + 1).join('/');
      if (!edges.has(a)) edges.set(a, new Set());
      edges.get(a)!.add(b);
    }
  }
  return edges;
}

/** The strongly connected components of more than one folder (Tarjan), each sorted, sorted by their first folder. */
function folderCycles(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles.sort((x, y) => x[0].localeCompare(y[0]));
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

function resolveModule(from: string, specifier: string): string | undefined {
  const base = normalize(join(from, specifier));
  return [`${base}.ts`, join(base, 'index.ts'), base].find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}
