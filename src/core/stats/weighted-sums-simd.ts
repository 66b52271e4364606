/**
 * The bootstrap's sum pass (`weighted-sums.ts`) in WebAssembly SIMD: two columns a
 * instruction, about three times as fast as the JavaScript loop, which V8 does not
 * vectorise. Optional reading: `weighted-sums.ts` falls back to its own loop where
 * WebAssembly SIMD is missing, and gives the same numbers either way.
 *
 * The same numbers to the last bit: each sum is `sum + w · x`, one IEEE multiply and one add
 * (no fused multiply-add), term by term in unit order, as the JavaScript loop adds them; the
 * two lanes of a SIMD operation are two such operations on two columns.
 *
 * The module is assembled here from its instructions (below), a few hundred bytes compiled
 * once a process; each `createSimdSums` gets its own memory, laid out as
 * `[sums: 8 × pad(width) f64][weights: 8 × units i32][matrix: units × pad(width) f64]`, the
 * width padded to even so that a unit's row is read two columns at a time.
 */

/** How many weightings a pass sums (`WEIGHTINGS_PER_PASS`). */
const K = 8;

export interface SimdSums {
  /** Unit u's column c goes at `matrix[u * stride + c]` (zero elsewhere). */
  readonly matrix: Float64Array;
  readonly stride: number;
  /** `WeightedSums.sum`: weighting k's sums into `sums[k * width + c]`, its weights at `weights[k * units + u]`. */
  sum(weights: Int32Array, sums: Float64Array): void;
}

/** The most 64 KiB pages a 32-bit WebAssembly memory can have (4 GiB). */
const MAX_PAGES = 65536;

/** The sum pass over `units` rows of `width` columns, or null where WebAssembly SIMD is missing. */
export function createSimdSums(units: number, width: number): SimdSums | null {
  const module = sumModule();
  if (wasm === undefined || module === null || width === 0 || units === 0) return null;
  const stride = width + (width & 1);
  const weightsAt = K * stride * 8;
  const matrixAt = Math.ceil((weightsAt + K * units * 4) / 16) * 16;
  const bytes = matrixAt + units * stride * 8;
  const pages = Math.ceil(bytes / 65536);
  // A WebAssembly memory holds at most 4 GiB, and the process may not get even that (an address
  // space limit): the JavaScript loop, which needs no memory of its own, then does the sums.
  if (pages > MAX_PAGES) return null;
  let memory: { readonly buffer: ArrayBuffer };
  try {
    memory = new wasm.Memory({ initial: pages });
  } catch {
    return null;
  }
  const instance = new wasm.Instance(module, { m: { mem: memory } });
  const pass = instance.exports['sum'] as (
    matrix: number,
    stride: number,
    units: number,
    weights: number,
    sums: number,
  ) => void;
  const all = new Float64Array(memory.buffer);
  const weightsIn = new Int32Array(memory.buffer, weightsAt, K * units);
  const sumsOut = all.subarray(0, K * stride);
  return {
    matrix: all.subarray(matrixAt / 8, matrixAt / 8 + units * stride),
    stride,
    sum(weights, sums) {
      weightsIn.set(weights);
      sumsOut.fill(0);
      pass(matrixAt, stride, units, weightsAt, 0);
      for (let k = 0; k < K; k++) for (let c = 0; c < width; c++) sums[k * width + c] = sumsOut[k * stride + c]!;
    },
  };
}

/** What this file uses of the WebAssembly global (the library's types do not declare it). */
interface Wasm {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: object) => { readonly exports: Readonly<Record<string, unknown>> };
  Memory: new (descriptor: { initial: number }) => { readonly buffer: ArrayBuffer };
}
type WasmModule = { readonly compiled: unique symbol };

const wasm = (globalThis as unknown as { WebAssembly?: Wasm }).WebAssembly;
let compiled: WasmModule | null | undefined;

function sumModule(): WasmModule | null {
  if (compiled === undefined) {
    const bytes = sumModuleBytes();
    compiled = wasm !== undefined && wasm.validate(bytes) ? new wasm.Module(bytes) : null;
  }
  return compiled;
}

// ---------------------------------------------------------------------------------------
// The module: one function `sum(matrix, stride, units, weights, sums)` (byte offsets into
// the imported memory `m.mem`), in WebAssembly's binary encoding.

const leb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
};
/** Signed LEB128, for the small constants here (0 to 127 need no sign handling beyond 6 bits). */
const sleb = (n: number): number[] => (n < 64 ? [n] : [(n & 0x7f) | 0x80, n >> 7]);
const section = (id: number, bytes: number[]): number[] => [id, ...leb(bytes.length), ...bytes];
const vec = (items: number[][]): number[] => [...leb(items.length), ...items.flat()];
const name = (text: string): number[] => [...leb(text.length), ...Array.from(text, (c) => c.charCodeAt(0))];
const times = (n: number, make: (k: number) => number[]): number[] =>
  Array.from({ length: n }, (_, k) => make(k)).flat();

const I32 = 0x7f;
const V128 = 0x7b;
const get = (i: number): number[] => [0x20, i];
const set = (i: number): number[] => [0x21, i];
const tee = (i: number): number[] => [0x22, i];
const i32 = (n: number): number[] => [0x41, ...sleb(n)];
const ADD = 0x6a;
const MUL = 0x6c;
const SHL = 0x74;
const GE_U = 0x4f;
const I32_LOAD = [0x28, 2, 0];
const F64_FROM_I32 = [0xb7];
const V128_LOAD = [0xfd, 0x00, 4, 0];
const V128_STORE = [0xfd, 0x0b, 4, 0];
const F64X2_SPLAT = [0xfd, 20];
const F64X2_ADD = [0xfd, ...leb(240)];
const F64X2_MUL = [0xfd, ...leb(242)];
/** `block` and `loop` with no result; `br_if 1` leaves the loop, `br 0` goes round it again. */
const BLOCK_LOOP = [0x02, 0x40, 0x03, 0x40];
const EXIT_IF = [0x0d, 1];
const AGAIN_END = [0x0c, 0, 0x0b, 0x0b];

// Parameters 0–4: matrix, stride, units, weights, sums. Locals: 5 u, 6 p (a column pair's
// byte offset in a row), 7 the row's address, 8 a row's bytes, 9–16 the eight weights
// (splat), 17 x (two columns of the row), 18 a sum's address, 19–26 weighting k's sums.
const [M, S, UNITS, WEIGHTS, SUMS, U, P, ROW, ROW_BYTES, W0, X, AT, SUMS0] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 17, 18, 19];

function sumModuleBytes(): Uint8Array {
  // prettier-ignore
  const body = [
    ...get(S), ...i32(3), SHL, ...set(ROW_BYTES),
    ...get(M), ...set(ROW),
    ...times(K, (k) => [...get(SUMS), ...get(ROW_BYTES), ...i32(k), MUL, ADD, ...set(SUMS0 + k)]),
    ...i32(0), ...set(U),
    ...BLOCK_LOOP,
    ...get(U), ...get(UNITS), GE_U, ...EXIT_IF,
    // The unit's weight in each weighting, as a double in both lanes.
    ...times(K, (k) => [
      ...get(WEIGHTS), ...get(UNITS), ...i32(k), MUL, ...get(U), ADD, ...i32(2), SHL, ADD,
      ...I32_LOAD, ...F64_FROM_I32, ...F64X2_SPLAT, ...set(W0 + k),
    ]),
    ...i32(0), ...set(P),
    ...BLOCK_LOOP,
    ...get(P), ...get(ROW_BYTES), GE_U, ...EXIT_IF,
    ...get(ROW), ...get(P), ADD, ...V128_LOAD, ...set(X),
    // sums_k[c, c+1] = sums_k[c, c+1] + w_k · x, for each weighting k.
    ...times(K, (k) => [
      ...get(SUMS0 + k), ...get(P), ADD, ...tee(AT), ...get(AT), ...V128_LOAD,
      ...get(W0 + k), ...get(X), ...F64X2_MUL, ...F64X2_ADD, ...V128_STORE,
    ]),
    ...get(P), ...i32(16), ADD, ...set(P),
    ...AGAIN_END,
    ...get(ROW), ...get(ROW_BYTES), ADD, ...set(ROW),
    ...get(U), ...i32(1), ADD, ...set(U),
    ...AGAIN_END,
    0x0b,
  ];
  const locals = vec([
    [...leb(4), I32],
    [...leb(K + 1), V128],
    [...leb(1 + K), I32],
  ]);
  const code = [...locals, ...body];
  // prettier-ignore
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, vec([[0x60, ...vec([[I32], [I32], [I32], [I32], [I32]]), 0]])),
    ...section(2, vec([[...name('m'), ...name('mem'), 0x02, 0x00, 0]])),
    ...section(3, vec([[0]])),
    ...section(7, vec([[...name('sum'), 0x00, 0]])),
    ...section(10, vec([[...leb(code.length), ...code]])),
  ]);
}
