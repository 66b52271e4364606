/**
 * Lists the functions of src/**\/*.ts (declarations, function expressions, arrows, methods,
 * constructors and accessors; tests and test-support left out) longer than a number of lines,
 * longest first. A function's lines run from its first line to its last, so an outer
 * function counts the lines of the functions inside it too.
 *
 *   npx tsx scripts/long-functions.ts [MIN_LINES]     (default 80)
 *
 * test/function-length.test.ts keeps every function in src at 120 lines or fewer.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

export interface LongFunction {
  /** Path relative to the repository root, with forward slashes. */
  file: string;
  /** 1-based line where the function starts. */
  line: number;
  /** The name a reader would search for: `name`, `Class.method`, or `(anonymous)`. */
  name: string;
  lines: number;
}

const ROOT = join(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'test-support' ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function nameOf(node: ts.Node): string {
  const own = (node as { name?: ts.Node }).name;
  if (own !== undefined && (ts.isIdentifier(own) || ts.isStringLiteral(own) || ts.isPrivateIdentifier(own))) {
    const owner = node.parent;
    const className =
      owner !== undefined && ts.isClassLike(owner) && owner.name !== undefined ? `${owner.name.text}.` : '';
    return `${className}${own.text}`;
  }
  if (ts.isConstructorDeclaration(node)) {
    const owner = node.parent;
    return `${ts.isClassLike(owner) && owner.name !== undefined ? owner.name.text : '(class)'}.constructor`;
  }
  const parent = node.parent;
  if (parent !== undefined) {
    if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
    if (ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
      if (ts.isIdentifier(parent.name) || ts.isStringLiteral(parent.name)) return parent.name.text;
    }
  }
  return '(anonymous)';
}

function isFunction(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** Every function of the source text with more than `minLines` lines, in source order. */
export function longFunctionsInText(file: string, text: string, minLines: number): LongFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunction(node) && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > minLines) found.push({ file, line: first + 1, name: nameOf(node), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every function in src (tests and test-support left out) longer than `minLines`, longest first. */
export function longFunctions(minLines: number, root: string = ROOT): LongFunction[] {
  const found = sourceFiles(join(root, 'src')).flatMap((path) =>
    longFunctionsInText(relative(root, path).split('\\').join('/'), readFileSync(path, 'utf8'), minLines),
  );
  return found.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const minLines = Number(process.argv[2] ?? 80);
  if (!Number.isInteger(minLines) || minLines < 0) {
    process.stderr.write(`long-functions: MIN_LINES must be a whole number, got ${process.argv[2]}\n`);
    process.exit(2);
  }
  const found = longFunctions(minLines);
  for (const f of found) process.stdout.write(`${String(f.lines).padStart(5)}  ${f.file}:${f.line}  ${f.name}\n`);
  process.stdout.write(`${found.length} functions over ${minLines} lines\n`);
}
