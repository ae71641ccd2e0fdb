// Preloaded into a built server by a memory test (NODE_OPTIONS=--require …): SIGUSR2 runs a full garbage collection
// and then prints `gc: done N {"rss":…,"heapTotal":…,"heapUsed":…,"external":…,"arrayBuffers":…,"spaces":{…}}` on stderr
// (process.memoryUsage() in bytes, and each of V8's heap spaces as [committed, used]), so the test reads what the process still holds once what it dropped is
// collected. Neither the RSS nor an uncollected heap says
// that: the pieces of a body read and dropped are memory outside the JavaScript heap that only a collection gives
// back, and even then the allocator keeps some of it (RSS grew 7–12 MB after three 11 MB bodies, with or without a
// collection, on a busy machine).
const v8 = require("node:v8");
const vm = require("node:vm");

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc");
let runs = 0;
process.on("SIGUSR2", () => {
  gc();
  runs += 1;
  // V8's spaces as well (committed and used bytes of each): which part of the heap a large heapTotal is.
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((space) => [space.space_name, [space.space_size, space.space_used_size]]));
  process.stderr.write(`gc: done ${runs} ${JSON.stringify({ ...process.memoryUsage(), spaces })}\n`);
});
