// Loaded into each bench:scale instance (NODE_OPTIONS=--import, which refuses --cpu-prof):
// profiles the whole process and writes a .cpuprofile to SCALE_CPU_PROF_DIR when it exits.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const dir = process.env.SCALE_CPU_PROF_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  session.post('Profiler.start');
  process.on('exit', () => {
    // A session on this thread answers synchronously: written before the process ends.
    session.post('Profiler.stop', (err, res) => {
      if (err) return;
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `instance-${process.pid}.cpuprofile`), JSON.stringify(res.profile));
    });
  });
}
