// Removes what this run built (see build.js); the folders of other runs stay.
const { rmSync } = require('node:fs');
const { join } = require('node:path');
const { BUILD_ROOT } = require('./build');

module.exports = async () => {
  if (process.env.TEST_RUN_ID) rmSync(join(BUILD_ROOT, process.env.TEST_RUN_ID), { recursive: true, force: true });
};
