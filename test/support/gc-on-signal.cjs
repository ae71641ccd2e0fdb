// Preloaded into a built server by a memory test (NODE_OPTIONS=--require …): SIGUSR2 runs a full garbage collection
// and then prints `gc: done N` on stderr, so the test reads the process's memory once what it freed is freed. Without
// it, the RSS of a process that read and dropped a large body depends on when V8 next collects: the dropped pieces
// are memory outside the JavaScript heap that only a collection gives back (8–12 MB after three 11 MB bodies on
// Node 24, where the young generation is larger and collected less often).
const v8 = require("node:v8");
const vm = require("node:vm");

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc");
let runs = 0;
process.on("SIGUSR2", () => {
  gc();
  runs += 1;
  process.stderr.write(`gc: done ${runs}\n`);
});
