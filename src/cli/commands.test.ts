/**
 * Every command is declared once: each declared option parses and appears in its help, the
 * help lists exactly the declared options, and the command list loads no command module. Plus
 * the rules of `define-command` itself (strict numbers, repeated options, did-you-mean).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { closest } from '../core/closest-word.js';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../core/errors.js';
import { COMMANDS } from './commands/index.js';
import {
  decimal,
  defineCommand,
  defineCommandGroup,
  flag,
  integer,
  MAX_LABEL_CHARACTERS,
  list,
  oneOf,
  parseCommandLine,
  text,
  type Command,
  type Option,
} from './define-command.js';
import { runCliInProcess } from './test-support/in-process-cli.js';

interface Declared {
  /** What is typed after `decidekit`, e.g. `['runs', 'list']`. */
  readonly words: string[];
  readonly command: Command;
  readonly options: Readonly<Record<string, Option<unknown>>>;
}

async function declaredCommands(): Promise<Declared[]> {
  const out: Declared[] = [];
  for (const [name, entry] of Object.entries(COMMANDS)) {
    const command = await entry.load();
    for (const c of (await command.loadSubcommands?.()) ?? [command]) {
      const words = c === command ? [name] : [name, c.name.split(' ').at(-1)!];
      expect(c.options, `${words.join(' ')} declares its options`).toBeDefined();
      out.push({ words, command: c, options: c.options! });
    }
  }
  return out;
}

const declared = await declaredCommands();

/** The option names listed under "Options:" in a help text, in order. */
function optionsInHelp(help: string): string[] {
  const lines = help.split('\n');
  const start = lines.indexOf('Options:');
  if (start < 0) return [];
  const names: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '') break;
    const m = /^ {2}--([a-z0-9-]+)/.exec(line);
    if (m) names.push(m[1]!);
  }
  return names;
}

function argvOf(name: string, o: Option<unknown>): string[] {
  return o.kind === 'flag' ? [`--${name}`] : [`--${name}`, o.example];
}

describe('every declared command', () => {
  it('covers every command and subcommand', () => {
    const names = declared.map((d) => d.words.join(' '));
    for (const expected of [
      'bench',
      'score',
      'compare',
      'validate',
      'tune',
      'actions',
      'serve',
      'dataset fetch',
      'dataset info',
      'dataset verify',
      'report',
      'runs list',
      'runs show',
      'runs compare',
      'runs report',
      'runs export',
    ])
      expect(names).toContain(expected);
  });

  for (const { words, command, options } of declared) {
    describe(`decidekit ${words.join(' ')}`, () => {
      it('lists exactly the declared options in --help, in order', async () => {
        const r = await runCliInProcess([...words, '--help']);
        expect(r.code).toBe(0);
        expect(r.stdout).toBe(command.help.endsWith('\n') ? command.help : `${command.help}\n`);
        expect(optionsInHelp(r.stdout)).toEqual(Object.keys(options));
        for (const [name, o] of Object.entries(options)) {
          const line = r.stdout.split('\n').find((l) => l.startsWith(`  --${name} `) || l === `  --${name}`);
          expect(line, `--${name} in help`).toBeDefined();
          if (o.kind !== 'flag') expect(line).toContain(`--${name} ${o.hint}`);
          // Help wraps at 80 columns: compare the words, not the line breaks.
          if (o.defaultText !== undefined)
            expect(r.stdout.replace(/\s+/g, ' ')).toContain(`(default ${o.defaultText.replace(/\s+/g, ' ')}`);
        }
        expect(r.stdout).toMatch(/Exit codes: 0 /);
        expect(r.stdout).toMatch(/Examples?:\n {2}decidekit /);
      });

      for (const [name, o] of Object.entries(options)) {
        it(`parses ${argvOf(name, o).join(' ')}`, () => {
          const { values } = parseCommandLine(argvOf(name, o), options);
          if (o.kind === 'flag') expect(values[name]).toBe(true);
          else if (o.kind === 'list') expect((values[name] as unknown[]).map(String)).toEqual([o.example]);
          else expect(String(values[name])).toBe(o.example);
        });
      }

      it('parses every documented option given together', () => {
        const argv = Object.entries(options).flatMap(([name, o]) => argvOf(name, o));
        const { values } = parseCommandLine(argv, options);
        expect(Object.keys(values)).toEqual(Object.keys(options));
      });

      it('refuses an unknown option as a usage error (exit 2), naming it', async () => {
        const r = await runCliInProcess([...words, '--no-such-option']);
        expect(r.code).toBe(2);
        expect(r.stderr).toContain('unknown option --no-such-option');
        // The command as typed: 'decidekit runs gate --help' shows the subcommand's own help.
        expect(r.stderr).toContain(`Run 'decidekit ${words.join(' ')} --help' for usage.`);
      });
    });
  }

  it('lists each command in the top help with the summary its own declaration has', async () => {
    const r = await runCliInProcess(['--help']);
    expect(r.code).toBe(0);
    for (const [name, entry] of Object.entries(COMMANDS)) {
      const command = await entry.load();
      expect(command.name).toBe(name);
      expect(entry.summary, name).toBe(command.summary);
      // The summary may wrap under itself: its words follow the name on the command's line.
      expect(r.stdout.replace(/\s+/g, ' ')).toMatch(
        new RegExp(` ${name} +${escapeRegExp(command.summary)} (?=[a-z]+ |Exit)`),
      );
      expect(r.stdout).toMatch(new RegExp(`^ {2}${name} +\\S`, 'm'));
    }
  });

  it("lists each group's subcommands in its help with the summary each one's own declaration has", async () => {
    for (const [name, entry] of Object.entries(COMMANDS)) {
      const group = await entry.load();
      const subcommands = await group.loadSubcommands?.();
      if (subcommands === undefined) continue;
      const r = await runCliInProcess([name, '--help']);
      expect(r.code).toBe(0);
      for (const sub of subcommands) {
        const word = sub.name.slice(name.length + 1);
        expect(sub.name).toBe(`${name} ${word}`);
        expect(await group.subcommandOf!(word)).toBe(sub);
        expect(r.stdout.replace(/\s+/g, ' ')).toMatch(
          new RegExp(` ${word} +${escapeRegExp(sub.summary)} (?=[a-z]+ |Examples)`),
        );
      }
    }
  });

  it("declares 'report' from the same declaration as 'runs report'", async () => {
    const report = await COMMANDS['report']!.load();
    const runs = (await (await COMMANDS['runs']!.load()).subcommandOf!('report'))!;
    expect(report.options).toBe(runs.options);
    expect(report.help.replace(/^.*\n/, '').replaceAll('runs report', 'report')).toContain(
      'report RUN [--format terminal|markdown|json|html]',
    );
  });
});

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('command modules', () => {
  const SRC = resolve(import.meta.dirname, '..');
  const COMMANDS_DIR = join(SRC, 'cli', 'commands');

  function staticImports(file: string): string[] {
    const code = readFileSync(file, 'utf8');
    const out: string[] = [];
    for (const m of code.matchAll(/^(?:import|export)\s(?!type\s)[^'"]*?from\s+['"]([^'"]+)['"]/gm)) out.push(m[1]!);
    return out;
  }

  function resolveTs(from: string, spec: string): string | null {
    return spec.startsWith('.') ? resolve(dirname(from), spec).replace(/\.js$/, '.ts') : null;
  }

  it('import no other command module', () => {
    const top = readdirSync(COMMANDS_DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const commandFiles = new Set(top.filter((f) => f !== 'index.ts').map((f) => join(COMMANDS_DIR, f)));
    const offenders: string[] = [];
    for (const file of commandFiles) {
      for (const spec of staticImports(file)) {
        const target = resolveTs(file, spec);
        if (target !== null && commandFiles.has(target)) offenders.push(`${relative(SRC, file)} imports ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('are loaded by the index only when their command runs, so the command list and --help load none', () => {
    const heavy =
      /^(undici|better-sqlite3|hyparquet|hyparquet-writer|node:http|node:https|node:worker_threads|node:zlib)$/;
    const top = readdirSync(COMMANDS_DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const commandFiles = new Set(top.filter((f) => f !== 'index.ts').map((f) => join(COMMANDS_DIR, f)));
    const seen = new Set<string>();
    const offenders: string[] = [];
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      if (commandFiles.has(file)) offenders.push(`${relative(SRC, file)} is loaded before its command runs`);
      for (const spec of staticImports(file)) {
        if (heavy.test(spec)) offenders.push(`${relative(SRC, file)} imports ${spec}`);
        const target = resolveTs(file, spec);
        if (target !== null) walk(target);
      }
    };
    walk(join(SRC, 'cli', 'run-cli.ts'));
    expect(seen).toContain(join(COMMANDS_DIR, 'index.ts'));
    expect(offenders).toEqual([]);
    // Every command file is reachable: the index names each one in a lazy import.
    const index = readFileSync(join(COMMANDS_DIR, 'index.ts'), 'utf8');
    const loaded = [...index.matchAll(/import\('\.\/([\w-]+)\.js'\)/g)].map((m) => join(COMMANDS_DIR, `${m[1]}.ts`));
    expect(new Set(loaded)).toEqual(commandFiles);
    expect(offenders).toEqual([]);
  });
});

describe('defineCommand', () => {
  const options = {
    count: integer('N', 'how many', { min: 1, default: 3 }),
    rate: decimal('R', 'a rate', { min: 0, max: 1 }),
    limit: integer('N', 'a limit'),
    name: text('NAME', 'a name'),
    colour: oneOf('C', ['red', 'blue'], 'a colour'),
    files: list('FILE', 'files'),
    verbose: flag('say more'),
  };
  const parse = (...argv: string[]) => parseCommandLine(argv, options).values;
  const usageError = (...argv: string[]) => {
    try {
      parse(...argv);
    } catch (err) {
      expect(err).toBeInstanceOf(UsageError);
      return (err as Error).message;
    }
    throw new Error(`no usage error for ${argv.join(' ')}`);
  };

  it('fills defaults and leaves absent options undefined', () => {
    expect(parse()).toEqual({
      count: 3,
      rate: undefined,
      limit: undefined,
      name: undefined,
      colour: undefined,
      files: [],
      verbose: false,
    });
  });

  it('reads whole numbers written in decimal digits only', () => {
    expect(parse('--count', '12').count).toBe(12);
    for (const bad of ['0x10', '1e9', '+3', '2.0', '-1', '1.5', 'Infinity', '', ' ']) {
      expect(usageError(`--count=${bad}`)).toMatch(/^--count .* is not valid \(a whole number >= 1\)$/);
    }
    expect(usageError('--count', '0')).toContain('is not valid');
  });

  it('reads decimals, refusing hex, Infinity and values out of range', () => {
    expect(parse('--rate', '0.25').rate).toBe(0.25);
    expect(parse('--rate', '1e-3').rate).toBe(0.001);
    expect(parse('--rate', '.5').rate).toBe(0.5);
    for (const bad of ['0x1', 'Infinity', 'NaN', '1.5', '-0.1', 'abc']) {
      expect(usageError(`--rate=${bad}`)).toBe(`--rate ${JSON.stringify(bad)} is not valid (a number >= 0 and <= 1)`);
    }
  });

  it('refuses a value option given twice instead of keeping the last', () => {
    expect(usageError('--name', 'a', '--name', 'b')).toBe('--name is given 2 times; give it once');
    expect(usageError('--count', '1', '--count=2')).toContain('--count is given 2 times');
  });

  it('takes several values after a list option, or the option repeated', () => {
    expect(parse('--files', 'a', 'b', 'c', '--verbose').files).toEqual(['a', 'b', 'c']);
    expect(parse('--files', 'a', '--files', 'b').files).toEqual(['a', 'b']);
    expect(parse('--files=a', 'b').files).toEqual(['a', 'b']);
    const v = parse('--files', 'a', 'b', '--name', 'x');
    expect(v.files).toEqual(['a', 'b']);
    expect(v.name).toBe('x');
  });

  it('suggests the nearest option for a misspelt one', () => {
    expect(usageError('--limt', '3')).toBe('unknown option --limt (did you mean --limit?)');
    expect(usageError('--verbos')).toBe('unknown option --verbos (did you mean --verbose?)');
    expect(usageError('--zzzzzz')).toBe('unknown option --zzzzzz');
    expect(closest('colou', ['colour', 'count'])).toBe('colour');
    expect(closest('colr', ['colour', 'count'])).toBeNull();
    expect(closest('tset', ['test', 'train'])).toBe('test');
    expect(closest('paralel', ['parallel', 'label'])).toBe('parallel');
  });

  it('names the option whose value is missing or not among the words', () => {
    expect(usageError('--name')).toBe('--name needs a value');
    expect(usageError('--count', '-1')).toBe("--count needs a value (for one starting with '-', write --count=VALUE)");
    expect(usageError('--colour', 'green')).toBe('--colour "green" is not one of: red, blue');
    expect(parse('--colour', 'blue').colour).toBe('blue');
  });

  it('checks positionals against the declaration and renders help from it', async () => {
    const command = defineCommand({
      name: 'demo',
      summary: 'a demo',
      usage: 'demo THING [--count N]',
      options: { count: options.count },
      positionals: ['THING'],
      examples: ['decidekit demo x'],
      run: async ({ values, positionals }, io) => {
        io.stdout.write(`${positionals[0]} ${values.count}\n`);
        return 0;
      },
    });
    expect(command.help).toContain('  --count N  how many (default 3)');
    const io = fakeIo();
    expect(await command.run(['thing', '--count', '4'], io)).toBe(0);
    expect(io.out()).toBe('thing 4\n');
    await expect(command.run([], fakeIo())).rejects.toThrow('demo needs THING');
    await expect(command.run(['a', 'b'], fakeIo())).rejects.toThrow('got an extra argument "b"');
  });

  it("makes a command's help only when it is asked for (a command that runs has no use for it)", async () => {
    let rendered = 0;
    const counted: Option<boolean> = {
      ...flag('shown in help'),
      get help() {
        rendered++;
        return 'shown in help';
      },
    };
    const command = defineCommand({
      name: 'demo',
      summary: 'a demo',
      usage: 'demo [--shown]',
      options: { shown: counted },
      examples: ['decidekit demo'],
      run: async () => 0,
    });
    const group = defineCommandGroup({
      name: 'group',
      summary: 'a group',
      description: 'Subcommands.',
      subcommands: [command],
      examples: ['decidekit group demo'],
    });
    expect(await group.run(['demo', '--shown'], fakeIo())).toBe(0);
    expect(rendered).toBe(0);
    expect(command.help).toContain('shown in help');
    expect(group.help).toContain('decidekit group: a group');
    expect(rendered).toBe(1);
    expect(command.help).toContain('shown in help');
    expect(rendered).toBe(1);
  });

  it('refuses a missing required option after parsing, in declaration order, and marks it in help', async () => {
    const command = defineCommand({
      name: 'demo',
      summary: 'a demo',
      usage: 'demo --input FILE --files FILE ...',
      options: {
        input: text('FILE', 'the input', { required: true }),
        files: list('FILE', 'the files', { required: '--files is required (one or more)' }),
        count: options.count,
      },
      examples: ['decidekit demo --input a --files b'],
      run: async ({ values }, io) => {
        const input: string = values.input;
        io.stdout.write(`${input} ${values.files.join(',')}\n`);
        return 0;
      },
    });
    expect(command.help).toContain('  --input FILE      the input (required)');
    expect(command.help).toMatch(/--count N +how many \(default 3\)$/m);
    await expect(command.run([], fakeIo())).rejects.toThrow(new UsageError('--input is required'));
    await expect(command.run(['--input', 'a'], fakeIo())).rejects.toThrow('--files is required (one or more)');
    // A value that does not parse is named before a missing option.
    await expect(command.run(['--count', '0'], fakeIo())).rejects.toThrow('--count "0" is not valid');
    const io = fakeIo();
    expect(await command.run(['--input', 'a', '--files', 'b', 'c'], io)).toBe(0);
    expect(io.out()).toBe('a b,c\n');
  });

  it('routes a group to its subcommand and suggests the nearest one', async () => {
    const sub = defineCommand({
      name: 'box list',
      summary: 'list boxes',
      usage: 'box list',
      options: {},
      examples: ['decidekit box list'],
      run: async (_args, io) => {
        io.stdout.write('listed\n');
        return 0;
      },
    });
    const group = defineCommandGroup({
      name: 'box',
      summary: 'boxes',
      description: 'Boxes.',
      subcommands: [sub],
      examples: ['decidekit box list'],
    });
    expect(group.help).toMatch(/^ {2}list {2}list boxes$/m);
    const io = fakeIo();
    expect(await group.run(['list'], io)).toBe(0);
    expect(io.out()).toBe('listed\n');
    await expect(group.run(['lst'], fakeIo())).rejects.toThrow(`unknown subcommand "lst" (list); did you mean 'list'?`);
    await expect(group.run([], fakeIo())).rejects.toThrow('box needs a subcommand (list)');
  });

  it('loads a lazily declared subcommand only when it runs or shows its help', async () => {
    const loaded: string[] = [];
    const lazy = (word: string) => ({
      word,
      summary: `${word} boxes`,
      load: async () => {
        loaded.push(word);
        return defineCommand({
          name: `box ${word}`,
          summary: `${word} boxes`,
          usage: `box ${word}`,
          options: {},
          examples: [`decidekit box ${word}`],
          run: async (_args, io) => {
            io.stdout.write(`${word}: done\n`);
            return 0;
          },
        });
      },
    });
    const group = defineCommandGroup({
      name: 'box',
      summary: 'boxes',
      description: 'Boxes.',
      subcommands: [lazy('pack'), lazy('ship')],
      examples: ['decidekit box pack'],
    });
    expect(group.help).toMatch(/^ {2}pack {2}pack boxes$/m);
    expect(loaded).toEqual([]);
    const io = fakeIo();
    expect(await group.run(['ship'], io)).toBe(0);
    expect(io.out()).toBe('ship: done\n');
    expect(loaded).toEqual(['ship']);
    expect((await group.subcommandOf!('pack'))?.name).toBe('box pack');
    expect(loaded).toEqual(['ship', 'pack']);
  });
});

function fakeIo() {
  let stdout = '';
  return {
    stdout: { write: (t: string) => void (stdout += t), isTTY: false },
    stderr: { write: () => {}, isTTY: false },
    env: {},
    cwd: '/',
    signal: new AbortController().signal,
    out: () => stdout,
  };
}

describe('labels', () => {
  it(`refuses a --label over ${MAX_LABEL_CHARACTERS} characters before any work, for bench and audit`, async () => {
    for (const command of ['bench', 'audit']) {
      const r = await runCliInProcess([command, '--no-store', '--label', 'é'.repeat(MAX_LABEL_CHARACTERS + 1)]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(
        `--label is ${MAX_LABEL_CHARACTERS + 1} characters long; at most ${MAX_LABEL_CHARACTERS}`,
      );
      expect(r.stdout).toBe('');
    }
  });
});
