/**
 * A synchronous PostgreSQL client: the `pg` driver runs on a worker thread, and each query
 * posts its SQL to the worker and blocks this thread on `Atomics.wait` until the reply is
 * there, then reads it with `receiveMessageOnPort` (the store port is synchronous; see
 * `../store.ts`). The worker is a few lines of plain JavaScript evaluated as it starts, so
 * it runs the same from the sources (tests) and from `dist/`.
 */
import { createRequire } from 'node:module';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';

/** What a query gives back. */
export interface QueryResult<R> {
  readonly rows: R[];
  readonly rowCount: number;
}

/** A failure the driver or the server reported, as data (it crossed a thread). */
export interface PgFailure {
  readonly message: string;
  /** PostgreSQL's SQLSTATE (`23505`) or the socket's code (`ECONNREFUSED`), when known. */
  readonly code: string | null;
  readonly constraint: string | null;
  /**
   * The server refused the password and the driver had none to send (none in the URL, in
   * PGPASSWORD or in ~/.pgpass): an md5 server says only that the password failed.
   */
  readonly passwordMissing?: boolean;
}

/** Thrown by `SyncPgClient.query` for what the server or the driver refused. */
export class PgQueryError extends Error {
  override readonly name = 'PgQueryError';
  readonly code: string | null;
  readonly constraint: string | null;
  readonly passwordMissing: boolean;
  constructor(failure: PgFailure) {
    super(failure.message);
    this.code = failure.code;
    this.constraint = failure.constraint;
    this.passwordMissing = failure.passwordMissing === true;
  }
}

/** How the worker connects: `pg`'s client configuration (a connection string and timeouts). */
export interface SyncPgConfig {
  readonly connectionString: string;
  readonly connectionTimeoutMillis: number;
  readonly application_name: string;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const pg = require(workerData.pgPath);
const flag = new Int32Array(workerData.signal);
const reply = workerData.reply;
const parsers = {
  getTypeParser: (oid, format) => (oid === 20 ? (v) => Number(v) : pg.types.getTypeParser(oid, format)),
};
process.on('exit', () => {
  Atomics.store(flag, 1, 1);
  Atomics.notify(flag, 0);
});
let client = null;
let ready;
try {
  client = new pg.Client({ ...workerData.config, types: parsers });
  client.on('error', () => {});
  ready = client.connect();
} catch (err) {
  ready = Promise.reject(err);
}
ready.catch(() => {});
function failure(err) {
  return {
    message: err && err.message ? String(err.message) : String(err),
    code: err && err.code ? String(err.code) : null,
    constraint: err && err.constraint ? String(err.constraint) : null,
    passwordMissing: Boolean(err && err.code === '28P01' && client !== null && !client.password),
  };
}
function answer(message) {
  reply.postMessage(message);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}
parentPort.on('message', async (msg) => {
  try {
    if (msg.op === 'end') {
      await ready.catch(() => {});
      if (client !== null) await client.end().catch(() => {});
      answer({ ok: true });
      return;
    }
    await ready;
    const r = await client.query({ text: msg.sql, values: msg.params, rowMode: undefined });
    answer({ rows: r.rows, rowCount: r.rowCount === null ? 0 : r.rowCount });
  } catch (err) {
    answer({ error: failure(err) });
  }
});
`;

/** How much longer than the driver's connect timeout the first reply may take before the wait gives up. */
const CONNECT_GRACE_MS = 2000;

export class SyncPgClient {
  private readonly worker: Worker;
  private readonly reply: MessagePort;
  private readonly flag: Int32Array;
  private closed = false;
  /** Until the first reply the driver is connecting: its wait ends by this time (ms since epoch). */
  private connectDeadline: number | null;

  constructor(private readonly config: SyncPgConfig) {
    // The driver's own timeout ends the connect first; this bound holds whatever the driver does.
    this.connectDeadline = Date.now() + config.connectionTimeoutMillis + CONNECT_GRACE_MS;
    // [0]: a reply is there; [1]: the worker has stopped.
    const signal = new SharedArrayBuffer(8);
    this.flag = new Int32Array(signal);
    const { port1, port2 } = new MessageChannel();
    this.reply = port1;
    const pgPath = createRequire(import.meta.url).resolve('pg');
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { pgPath, signal, reply: port2, config },
      transferList: [port2],
    });
    // An open store never keeps the process alive by itself.
    this.worker.unref();
    this.reply.unref();
  }

  /** Runs one statement and waits for its rows; throws `PgQueryError` for what was refused. */
  query<R = Record<string, unknown>>(sql: string, params: readonly unknown[] = []): QueryResult<R> {
    if (this.closed) throw new PgQueryError({ message: 'the store is closed', code: null, constraint: null });
    const answer = this.roundTrip({ op: 'query', sql, params }) as
      { rows: R[]; rowCount: number } | { error: PgFailure };
    if ('error' in answer) throw new PgQueryError(answer.error);
    return answer;
  }

  /** Ends the connection and the worker; closing again does nothing. */
  close(): void {
    if (this.closed) return;
    try {
      this.roundTrip({ op: 'end' });
    } finally {
      this.closed = true;
      this.reply.close();
      void this.worker.terminate();
    }
  }

  private roundTrip(message: unknown): unknown {
    Atomics.store(this.flag, 0, 0);
    this.worker.postMessage(message);
    for (;;) {
      Atomics.wait(this.flag, 0, 0, 1000);
      const received = receiveMessageOnPort(this.reply);
      if (received !== undefined) {
        this.connectDeadline = null;
        return received.message;
      }
      if (Atomics.load(this.flag, 1) === 1)
        return { error: { message: 'the connection to the PostgreSQL server was lost', code: null, constraint: null } };
      if (this.connectDeadline !== null && Date.now() > this.connectDeadline) return this.connectTimedOut();
    }
  }

  /** The driver did not connect in time: the worker is stopped, and the client is closed. */
  private connectTimedOut(): unknown {
    this.closed = true;
    this.reply.close();
    void this.worker.terminate();
    const seconds = this.config.connectionTimeoutMillis / 1000;
    return { error: { message: `connection timeout: no answer in ${seconds} s`, code: null, constraint: null } };
  }
}
