import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

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

  it('keeps the core free of clocks, randomness, fetch and process', () => {
    const offenders: string[] = [];
    for (const file of files.filter((f) => layerOf(f) === 'core')) {
      const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      for (const bad of ['Date.now', 'new Date', 'Math.random', 'fetch(', 'process.', 'performance.now', 'console.']) {
        if (text.includes(bad)) offenders.push(`${relative(SRC, file)} uses ${bad}`);
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

  it('keeps process, console and environment reads in the cli', () => {
    const offenders: string[] = [];
    for (const file of files.filter((f) => layerOf(f) !== 'cli' && layerOf(f) !== 'index')) {
      const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      for (const bad of ['process.env', 'process.exit', 'process.stdout', 'process.stderr', 'console.']) {
        if (text.includes(bad)) offenders.push(`${relative(SRC, file)} uses ${bad}`);
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
