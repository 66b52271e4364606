import { describe, expect, it } from 'vitest';
import { isPostgresUrl, shownStoreUrl, urlHasPassword } from './store-url.js';

describe('store URLs', () => {
  it('tells a PostgreSQL URL from a file path', () => {
    expect(isPostgresUrl('postgresql://u@h/db')).toBe(true);
    expect(isPostgresUrl('postgres://u@h/db')).toBe(true);
    expect(isPostgresUrl('runs.sqlite')).toBe(false);
    expect(isPostgresUrl('./postgresql:/x')).toBe(false);
  });

  it('shows a URL without its password, wherever the password was', () => {
    expect(shownStoreUrl('postgresql://ann:s%40cret@db.example:5433/team')).toBe(
      'postgresql://ann@db.example:5433/team',
    );
    expect(shownStoreUrl('postgres://ann@h/team?password=hunter2&sslmode=require')).toBe(
      'postgres://ann@h/team?sslmode=require',
    );
    expect(shownStoreUrl('postgresql://h:5432/db')).toBe('postgresql://h:5432/db');
    expect(shownStoreUrl('postgresql://ann:pw@[::1')).toBe('postgresql://…');
  });

  it('says whether the URL itself carries a password', () => {
    expect(urlHasPassword('postgresql://ann:pw@h/db')).toBe(true);
    expect(urlHasPassword('postgresql://ann@h/db?password=x')).toBe(true);
    expect(urlHasPassword('postgresql://ann@h/db')).toBe(false);
  });
});
