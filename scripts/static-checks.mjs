// The static half of `npm test`: the format check (Prettier), the type check (tsc) and the
// lint (ESLint with typescript-eslint, eslint.config.js), each over src, test, bench and
// scripts, run side by side instead of one after the other. Each one's output is printed
// when it ends; the exit code is non-zero when any failed. Plain JavaScript so that it runs
// before anything is compiled.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);

const checks = [
  { name: 'format (prettier --check .)', command: bin('prettier'), args: ['--check', '.', '--log-level', 'warn'] },
  { name: 'types (tsc --noEmit)', command: bin('tsc'), args: ['-p', 'tsconfig.json', '--noEmit'] },
  { name: 'lint (eslint .)', command: bin('eslint'), args: ['.', '--max-warnings', '0'] },
];

function run({ name, command, args }) {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => done({ name, ok: false, output: `${error.message}\n` }));
    child.on('close', (code) => done({ name, ok: code === 0, output }));
  });
}

const results = await Promise.all(checks.map(run));
for (const { name, ok, output } of results) {
  process.stdout.write(`${ok ? 'ok' : 'FAILED'}: ${name}\n`);
  if (output.trim() !== '') process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
}
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
