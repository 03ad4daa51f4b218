import { exec, execFile } from 'child_process';
import { exec as shell } from 'child_process';
import * as vm from 'vm';
import { exec as runQuery } from './database.js';

export function deploy(target) {
  // ruleid: js-child-process-exec
  exec(`rsync -a build/ ${target}`);
  // ruleid: js-child-process-exec
  shell('systemctl restart app');
  // ok: js-child-process-exec
  execFile('rsync', ['-a', 'build/', target]);
  // ok: js-child-process-exec
  runQuery('SELECT 1');
}

export function sandbox(code) {
  // ruleid: js-vm-run-in-context
  return vm.runInNewContext(code, {});
}
