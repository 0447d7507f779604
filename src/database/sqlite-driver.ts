import type BetterSqlite3 from 'better-sqlite3';

/**
 * The better-sqlite3 build for the running Node. Release 13 is built on Node-API and is the one the
 * service uses on its target runtime (Node 24 LTS): release 12 derives its statements from Node's own
 * `ObjectWrap`, whose destructor on Node 24 asserts that a JavaScript context is entered, so a statement
 * that the garbage collector finalizes at another moment aborts the process. Release 13 needs Node 22
 * or later (on Node 20 it does not load), so on Node 20, for as long as the service still runs there,
 * release 12 (installed as `better-sqlite3-node20`) serves instead; the API is the same.
 */
export function betterSqlite3(): typeof BetterSqlite3 {
  const major = Number(process.versions.node.split('.')[0]);
  return major >= 22 ? require('better-sqlite3') : require('better-sqlite3-node20');
}
