/**
 * The product-room rule of ARCHITECTURE.md: inside every layer a product line has its own
 * folder (its room); a room imports shared code (the layers' top level and their shared
 * folders) and never another room, and shared code imports no room. `runs` may read the
 * benchmark's room (a stored run is a benchmark run), and `team` the bench and runs rooms. The composition roots that put the
 * rooms together (the command list, the library entry) may import any room.
 */

/** Product lines, each a room in every layer. */
export const ROOMS = ['bench', 'runs', 'offline', 'audit', 'probe', 'live', 'calibrate', 'view', 'team'] as const;
export type Room = (typeof ROOMS)[number];

/**
 * Rooms that may read another room's code: `runs` reads stored benchmark runs, and lists
 * and shows the stored audits and probes beside them (`runs list`, `runs show`); `team`
 * reads bench and runs (a suite is runs of benchmarks, compared: it plans and sends bench
 * runs and ranks, compares and gates them as `runs compare` and `runs gate` do); `view`
 * shows every stored record with the pages and comparisons those commands make (a run's
 * report, `runs compare`), so it reads the same rooms and `runs`; `calibrate` fits on
 * offline answers and on stored benchmark runs, so it reads their loaders and cases and
 * opens a stored run as `runs report` does (the rooms that apply a map read shared code only).
 */
const MAY_READ: Partial<Record<Room, readonly Room[]>> = {
  runs: ['bench', 'audit', 'probe'],
  team: ['bench', 'runs'],
  view: ['bench', 'runs', 'audit', 'probe'],
  calibrate: ['offline', 'bench', 'runs'],
};

/**
 * Shared folders (relative to src) that may read rooms: the store is one port for every kind
 * of record (runs and their cases, audits, probes), so the port, its adapters (SQLite and
 * PostgreSQL: one schema for all of them; each starts the bench's case writer) and the
 * contract suite every adapter passes read their domain.
 */
const STORED_ROOMS: readonly Room[] = ['bench', 'audit', 'probe'];
const SHARED_MAY_READ: Record<string, readonly Room[]> = {
  store: STORED_ROOMS,
  'store/sqlite': STORED_ROOMS,
  'store/postgres': STORED_ROOMS,
  'store/contract': STORED_ROOMS,
};

/** Folders (relative to src, without a trailing slash) that belong to a room without its name. */
const ROOM_FOLDERS: Record<string, Room> = {
  // The runner schedules a benchmark's requests; the writer thread commits its cases.
  runner: 'bench',
  'store/writer': 'bench',
  // The live monitor's reducer and screen.
  monitor: 'live',
  // The per-decision export of stored runs (`runs export`, `decidekit sql`).
  'core/export': 'runs',
};

/** The files of the cli (relative to src) that belong to a room: a command is its room's. */
const CLI_FILES: Record<string, Room> = {
  'cli/bench-console.ts': 'bench',
  'cli/progress-writer.ts': 'bench',
  'cli/commands/bench.ts': 'bench',
  'cli/commands/runs.ts': 'runs',
  'cli/commands/report.ts': 'runs',
  'cli/commands/score.ts': 'offline',
  'cli/commands/compare.ts': 'offline',
  'cli/commands/validate.ts': 'offline',
  'cli/commands/tune.ts': 'offline',
  'cli/commands/actions.ts': 'offline',
  'cli/commands/audit.ts': 'audit',
  'cli/commands/probe.ts': 'probe',
  'cli/commands/live.ts': 'live',
  'cli/commands/view.ts': 'view',
  'cli/commands/sql.ts': 'runs',
  'cli/commands/suite.ts': 'team',
  'cli/terminal-screen.ts': 'live',
};

/** Where the rooms are put together: these may import any room. */
export const COMPOSITION_ROOTS: readonly string[] = [
  'index.ts',
  'entries/statistics.ts',
  'entries/system-one.ts',
  'entries/reports.ts',
  'entries/live.ts',
  'entries/datasets.ts',
  'cli/commands/index.ts',
];

function isRoom(name: string | undefined): name is Room {
  return (ROOMS as readonly string[]).includes(name ?? '');
}

/**
 * The room of a source file, from its path relative to src (`app/bench/plan-bench.ts` is
 * bench's); null for shared code. A test-support folder belongs to the room it sits in.
 */
export function roomOf(path: string): Room | null {
  if (path in CLI_FILES) return CLI_FILES[path]!;
  const parts = path.split('/');
  // A command's file or folder is its room's when named for it (`cli/commands/probe.ts`, `cli/commands/runs/`).
  if (parts[0] === 'cli' && parts[1] === 'commands') {
    const name = parts[2]?.replace(/\.ts$/, '');
    if (isRoom(name)) return name;
  }
  for (let end = parts.length - 1; end >= 1; end--) {
    const folder = parts.slice(0, end).join('/');
    if (folder in ROOM_FOLDERS) return ROOM_FOLDERS[folder]!;
  }
  const second = parts.length > 2 ? parts[1] : undefined;
  return isRoom(second) ? second : null;
}

/** The rooms a shared file may read: those of the shared folder it sits in (not of a folder below). */
function sharedMayRead(path: string): readonly Room[] {
  const parts = path.split('/');
  const folder = parts.slice(0, -1).join('/');
  const inSupport = parts.at(-2) === 'test-support' ? parts.slice(0, -2).join('/') : null;
  return SHARED_MAY_READ[folder] ?? (inSupport === null ? undefined : SHARED_MAY_READ[inSupport]) ?? [];
}

/** One import between two source files, both relative to src (`.ts`). */
export interface SourceImport {
  from: string;
  to: string;
}

/** Every import that breaks the rule, in words; empty when the tree keeps it. */
export function roomViolations(imports: readonly SourceImport[]): string[] {
  const out: string[] = [];
  for (const { from, to } of imports) {
    const fromRoom = roomOf(from);
    const toRoom = roomOf(to);
    if (toRoom === null || toRoom === fromRoom) continue;
    if (fromRoom === null) {
      if (COMPOSITION_ROOTS.includes(from) || sharedMayRead(from).includes(toRoom)) continue;
      out.push(`${from} (shared) imports ${to} (room ${toRoom})`);
    } else if (!(MAY_READ[fromRoom] ?? []).includes(toRoom)) {
      out.push(`${from} (room ${fromRoom}) imports ${to} (room ${toRoom})`);
    }
  }
  return out;
}
