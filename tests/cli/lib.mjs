// Shared by the tests/cli node scripts (`node tests/cli/X.mjs path/to/dtx [SOURCE_DIR]`): the
// dtx binary and the source folder from the command line, and a check that prints each
// result and counts the failures.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const dtx = path.resolve(process.argv[2] || 'build/native/dtx');
export const ROOT = path.resolve(process.argv[3] || path.join(path.dirname(fileURLToPath(import.meta.url)), '../..'));

let failures = 0;
export function check(ok, what, detail = '') {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${ok || !detail ? '' : '\n' + detail}`);
  if (!ok) failures++;
}
export const failed = () => failures;
