import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { roomOf, roomViolations, type SourceImport } from './support/product-rooms.js';

const SRC = join(import.meta.dirname, '..', 'src');

/** Layers, lowest first; a module may import only from its own layer or lower ones. */
const LAYER: Record<string, number> = {
  core: 0,
  protocol: 1,
  datasets: 1,
  runner: 2,
  store: 2,
  reports: 3,
  // The live monitor's reducer and screen: above reports (it shares their formatting), below app.
  monitor: 3.5,
  app: 4,
  cli: 5,
  // The library's subpath entries: beside the CLI at the top, re-exporting every layer; neither imports the other.
  entries: 5,
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

function importsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(
    /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm,
  )) {
    out.push((m[1] ?? m[2] ?? m[3])!);
  }
  return out;
}

function layerOf(file: string): string {
  return relative(SRC, file).split('/')[0]!.replace(/\.ts$/, '');
}

describe('architecture', () => {
  const files = sourceFiles(SRC);

  it('keeps src/core pure: no node:*, no packages, no higher layer', () => {
    const offenders: string[] = [];
    for (const file of files.filter((f) => layerOf(f) === 'core')) {
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        const inCore = spec.startsWith('.') && layerOf(join(file, '..', spec)) === 'core';
        if (!inCore) offenders.push(`${relative(SRC, file)} imports ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('points every import toward the core', () => {
    const offenders: string[] = [];
    for (const file of files) {
      const from = layerOf(file);
      if (!(from in LAYER)) continue;
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        if (!spec.startsWith('.')) continue;
        const target = relative(SRC, join(file, '..', spec))
          .split('/')[0]!
          .replace(/\.js$/, '');
        if (target in LAYER && target !== from && LAYER[target]! >= LAYER[from]!)
          offenders.push(`${relative(SRC, file)} (${from}) imports ${spec} (${target})`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('takes no type from a renderer into a use case: result types live below both', () => {
    const offenders: string[] = [];
    for (const file of files.filter((f) => layerOf(f) === 'app')) {
      for (const m of readFileSync(file, 'utf8').matchAll(
        /import\s+(type\s[^'"]*|\{[^}]*\btype\s[^}]*\})\s*from\s+['"]([^'"]+)['"]/g,
      )) {
        const target = relative(SRC, join(file, '..', m[2]!)).split('/')[0];
        if (target === 'reports') offenders.push(`${relative(SRC, file)} takes a type from ${m[2]}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe('the layer map', () => {
  it('names every folder under src', () => {
    const folders = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isDirectory());
    expect(folders.filter((f) => !(f in LAYER))).toEqual([]);
  });
});

/** Every relative import of `text`, a file at `file` (relative to src), as paths relative to src. */
function sourceImportsOf(file: string, text: string): SourceImport[] {
  return importsOf(text)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => ({ from: file, to: join(file, '..', spec).replace(/\.js$/, '.ts') }));
}

describe('product rooms', () => {
  it('keeps each room to shared code and its own folders, in every layer', () => {
    const imports = sourceFiles(SRC).flatMap((file) =>
      sourceImportsOf(relative(SRC, file), readFileSync(file, 'utf8')),
    );
    expect(imports.length).toBeGreaterThan(1000);
    expect(roomViolations(imports)).toEqual([]);
  });

  it('finds a room that imports another room', () => {
    const text = "import { planBench } from '../bench/plan-bench.js';\nimport { given } from '../../cli/given.js';\n";
    expect(roomViolations(sourceImportsOf('app/probe/execute-probe.ts', text))).toEqual([
      'app/probe/execute-probe.ts (room probe) imports app/bench/plan-bench.ts (room bench)',
    ]);
    expect(
      roomViolations([
        { from: 'cli/commands/audit.ts', to: 'reports/bench/bench-html.ts' },
        { from: 'core/live/window.ts', to: 'monitor/live-state.ts' },
        { from: 'app/calibrate/run.ts', to: 'app/audit/run-audit.ts' },
        { from: 'reports/audit/audit-json.ts', to: 'reports/runs/runs-list.ts' },
      ]),
    ).toEqual([
      'cli/commands/audit.ts (room audit) imports reports/bench/bench-html.ts (room bench)',
      'app/calibrate/run.ts (room calibrate) imports app/audit/run-audit.ts (room audit)',
      'reports/audit/audit-json.ts (room audit) imports reports/runs/runs-list.ts (room runs)',
    ]);
  });

  it('finds shared code that imports a room', () => {
    expect(
      roomViolations([
        { from: 'protocol/client/client.ts', to: 'core/bench/run.ts' },
        { from: 'reports/json-shapes.ts', to: 'store/audit/audit-store.ts' },
        { from: 'store/writer/case-writer.ts', to: 'core/bench/run.ts' },
      ]),
    ).toEqual([
      'protocol/client/client.ts (shared) imports core/bench/run.ts (room bench)',
      'reports/json-shapes.ts (shared) imports store/audit/audit-store.ts (room audit)',
    ]);
  });

  it('lets runs read the rooms it lists, the store read what it stores, the command list read every room', () => {
    expect(
      roomViolations([
        { from: 'app/runs/stored-runs.ts', to: 'core/bench/run.ts' },
        { from: 'reports/runs/probe-runs-list.ts', to: 'core/probe/run.ts' },
        { from: 'store/store-schema.ts', to: 'store/audit/audit-schema.ts' },
        { from: 'cli/commands/index.ts', to: 'cli/commands/live.ts' },
        { from: 'app/audit/execute-audit.ts', to: 'app/out-dir.ts' },
      ]),
    ).toEqual([]);
    expect(roomViolations([{ from: 'app/bench/plan-bench.ts', to: 'app/runs/stored-runs.ts' }])).toHaveLength(1);
    expect(roomViolations([{ from: 'protocol/server/server.ts', to: 'store/probe/probe-store.ts' }])).toHaveLength(1);
  });

  it("reads a file's room from its path", () => {
    expect(roomOf('app/bench/plan-bench.ts')).toBe('bench');
    expect(roomOf('core/bench/test-support/run-fixtures.ts')).toBe('bench');
    expect(roomOf('store/writer/case-writer.ts')).toBe('bench');
    expect(roomOf('runner/run-benchmark.ts')).toBe('bench');
    expect(roomOf('monitor/render-live.ts')).toBe('live');
    expect(roomOf('cli/commands/probe.ts')).toBe('probe');
    expect(roomOf('cli/commands/runs/list.ts')).toBe('runs');
    expect(roomOf('cli/commands/score.ts')).toBe('offline');
    expect(roomOf('cli/commands/calibrate.ts')).toBe('calibrate');
    expect(roomOf('app/view/open-view.ts')).toBe('view');
    expect(roomOf('app/server-plan.ts')).toBeNull();
    expect(roomOf('core/typed-decisions/case-result.ts')).toBeNull();
    expect(roomOf('cli/commands/serve.ts')).toBeNull();
    expect(roomOf('store/sqlite-run-store.ts')).toBeNull();
  });
});
