import { describe, expect, it } from 'vitest';
import { insertWithFreshId } from './fresh-id.js';

const CREATED = '2026-12-01T00:00:00.000Z';
const clash = new Error('taken');
const isClash = (err: unknown) => err === clash;

function counter(): (n: number) => Uint8Array {
  let draw = 0;
  return (n) => new Uint8Array(n).fill(draw++);
}

describe('insertWithFreshId', () => {
  it('draws another id while the adapter says the id is taken', () => {
    const tried: string[] = [];
    const id = insertWithFreshId(
      'audit',
      CREATED,
      counter(),
      (candidate) => {
        tried.push(candidate);
        if (tried.length < 3) throw clash;
      },
      isClash,
    );
    expect(tried).toEqual(['audit-20261201-000000-0000', 'audit-20261201-000000-0101', id]);
    expect(id).toBe('audit-20261201-000000-0202');
  });

  it('gives up after five clashes, throwing the last', () => {
    let tries = 0;
    const insert = () => {
      tries++;
      throw clash;
    };
    expect(() => insertWithFreshId('probe', CREATED, counter(), insert, isClash)).toThrow(clash);
    expect(tries).toBe(6);
  });

  it('throws any other failure at once', () => {
    const other = new Error('disk full');
    let tries = 0;
    const insert = () => {
      tries++;
      throw other;
    };
    expect(() => insertWithFreshId('probe', CREATED, counter(), insert, isClash)).toThrow(other);
    expect(tries).toBe(1);
  });
});
