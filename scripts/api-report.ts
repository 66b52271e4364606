/**
 * The API report: every name the package exports, entry by entry (`decidekit`,
 * `decidekit/statistics`, …, as package.json's `exports` lists them), with its kind and its
 * signature as the TypeScript checker reads it. The report is checked in as
 * `api/decidekit.api.md` and `test/api-report.test.ts` compares it with the source, so a
 * change to the public surface shows as a diff of that file.
 *
 *   npm run api            writes api/decidekit.api.md
 *   tsx scripts/api-report.ts --check   exits 1 when the file differs from the source
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const ROOT = join(import.meta.dirname, '..');
export const API_REPORT_PATH = join(ROOT, 'api', 'decidekit.api.md');

const FORMAT = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;

/** Each package entry (`decidekit`, `decidekit/statistics`) and the source file it is built from. */
function packageEntries(): { name: string; source: string }[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, string | { types?: string }>;
  };
  return Object.entries(pkg.exports).flatMap(([subpath, target]) => {
    if (typeof target === 'string' || target.types === undefined) return [];
    const source = target.types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts');
    return [{ name: subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`, source }];
  });
}

function describeSymbol(checker: ts.TypeChecker, exported: ts.Symbol): string[] {
  const name = exported.getName();
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const lines: string[] = [];
  const flags = symbol.flags;
  const declaration = symbol.declarations?.[0];
  if (flags & ts.SymbolFlags.Function && declaration !== undefined) {
    const type = checker.getTypeOfSymbolAtLocation(symbol, declaration);
    for (const signature of type.getCallSignatures())
      lines.push(`function ${name}${checker.signatureToString(signature, undefined, FORMAT)}`);
  }
  if (flags & ts.SymbolFlags.Class && declaration !== undefined) {
    const type = checker.getTypeOfSymbolAtLocation(symbol, declaration);
    const base = checker.getDeclaredTypeOfSymbol(symbol).getBaseTypes()?.[0];
    lines.push(`class ${name}${base === undefined ? '' : ` extends ${checker.typeToString(base, undefined, FORMAT)}`}`);
    for (const signature of type.getConstructSignatures())
      lines.push(`  constructor${checker.signatureToString(signature, undefined, FORMAT).replace(/: [^:]+$/, '')}`);
    lines.push(...members(checker, checker.getDeclaredTypeOfSymbol(symbol), declaration));
  } else if (flags & ts.SymbolFlags.Interface && declaration !== undefined) {
    lines.push(`interface ${name}`);
    lines.push(...members(checker, checker.getDeclaredTypeOfSymbol(symbol), declaration));
  }
  if (flags & ts.SymbolFlags.TypeAlias) {
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    lines.push(`type ${name} = ${checker.typeToString(type, undefined, FORMAT | ts.TypeFormatFlags.InTypeAlias)}`);
  }
  if (flags & ts.SymbolFlags.Variable && declaration !== undefined) {
    const type = checker.getTypeOfSymbolAtLocation(symbol, declaration);
    lines.push(`const ${name}: ${checker.typeToString(type, undefined, FORMAT)}`);
  }
  if (flags & ts.SymbolFlags.Enum) lines.push(`enum ${name}`);
  return lines.length > 0 ? lines : [`${name}`];
}

/** The public members of a class or an interface, a line each, sorted by name. */
function members(checker: ts.TypeChecker, type: ts.Type, at: ts.Node): string[] {
  return checker
    .getPropertiesOfType(type)
    .filter((member) => {
      const declared = member.valueDeclaration ?? member.declarations?.[0];
      const modifiers = declared === undefined ? ts.ModifierFlags.None : ts.getCombinedModifierFlags(declared);
      return (
        (modifiers & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) === 0 && !member.name.startsWith('#')
      );
    })
    .map((member) => {
      const memberType = checker.getTypeOfSymbolAtLocation(member, at);
      const optional = member.flags & ts.SymbolFlags.Optional ? '?' : '';
      const signatures = member.flags & ts.SymbolFlags.Method ? memberType.getCallSignatures() : [];
      if (signatures.length > 0)
        return signatures
          .map((s) => `  ${member.name}${optional}${checker.signatureToString(s, undefined, FORMAT)}`)
          .join('\n');
      return `  ${member.name}${optional}: ${checker.typeToString(memberType, undefined, FORMAT)}`;
    })
    .sort();
}

/** The report's text, made from the source as it is now. */
export function apiReport(): string {
  const entries = packageEntries();
  const program = ts.createProgram(
    entries.map((e) => join(ROOT, e.source)),
    {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      resolveJsonModule: true,
      skipLibCheck: true,
      types: ['node'],
      noEmit: true,
    },
  );
  const checker = program.getTypeChecker();
  const out = [
    '# The API of decidekit',
    '',
    'Made by `npm run api` (scripts/api-report.ts) from the source; `test/api-report.test.ts`',
    'fails when it differs, so a change to what the package exports shows here as a diff.',
    '',
  ];
  for (const entry of entries) {
    const file = program.getSourceFile(join(ROOT, entry.source));
    const moduleSymbol = file === undefined ? undefined : checker.getSymbolAtLocation(file);
    if (moduleSymbol === undefined) throw new Error(`${entry.source}: not a module`);
    const exports = checker.getExportsOfModule(moduleSymbol).sort((a, b) => a.getName().localeCompare(b.getName()));
    out.push(`## ${entry.name} (${exports.length} names)`, '', '```ts');
    for (const exported of exports) out.push(...describeSymbol(checker, exported));
    out.push('```', '');
  }
  return out.join('\n');
}

if (import.meta.filename === process.argv[1]) {
  const report = apiReport();
  if (process.argv.includes('--check')) {
    const same = readFileSync(API_REPORT_PATH, 'utf8') === report;
    if (!same) process.stderr.write('api/decidekit.api.md differs from the source: run npm run api\n');
    process.exitCode = same ? 0 : 1;
  } else {
    writeFileSync(API_REPORT_PATH, report);
    process.stdout.write(`wrote ${API_REPORT_PATH}\n`);
  }
}
