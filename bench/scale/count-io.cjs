// Preloaded (`node --require`) into each instance by bench/scale.mjs, and only there: counts the
// statements this process sends to PostgreSQL (BEGIN and COMMIT included) and the commands it sends to
// Redis, and writes both to COUNT_FILE ten times a second. The service itself never loads it.
'use strict';
const { renameSync, writeFileSync } = require('node:fs');

const file = process.env.COUNT_FILE;
if (!file) throw new Error('COUNT_FILE is required');
const counts = { pg: 0, redis: 0 };

const pg = require('pg');
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(...args) {
  counts.pg++;
  return query.apply(this, args);
};

const Redis = require('ioredis');
const sendCommand = Redis.prototype.sendCommand;
Redis.prototype.sendCommand = function countedCommand(...args) {
  counts.redis++;
  return sendCommand.apply(this, args);
};

// Written aside and renamed, so the bench never reads a half-written file.
const write = () => {
  writeFileSync(`${file}.tmp`, JSON.stringify(counts));
  renameSync(`${file}.tmp`, file);
};
write();
setInterval(write, 100).unref();
