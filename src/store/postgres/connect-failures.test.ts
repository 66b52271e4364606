import { describe, expect, it } from 'vitest';
import type { PgConnection } from './connection.js';
import { refuseUnusableServer } from './connect-failures.js';
import { PgQueryError } from './sync-client.js';

/** A connection whose first statement fails as the `pg` driver fails it. */
function failingWith(message: string, code: string | null = null): PgConnection {
  return {
    path: 'postgresql://ann@127.0.0.1:5432/team',
    query: () => {
      throw new PgQueryError({ message, code, constraint: null });
    },
  } as unknown as PgConnection;
}

describe('a first statement refused for want of a password', () => {
  it('says the credentials were refused and where a password goes, not what the driver said', () => {
    const conn = failingWith('SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string');
    expect(() => refuseUnusableServer(conn, 'postgresql://ann@127.0.0.1:5432/team')).toThrow(
      /refused the credentials of user ann for the run store postgresql:\/\/ann@127\.0\.0\.1:5432\/team \(it wants a password and none was given: give it in PGPASSWORD or in ~\/\.pgpass/,
    );
    expect(() => refuseUnusableServer(conn, 'postgresql://ann@127.0.0.1:5432/team')).not.toThrow(/SASL|SCRAM/);
  });
});
