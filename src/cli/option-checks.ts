import { UsageError } from '../core/errors.js';

/** A value option the command cannot do without. */
export function requiredValue(name: string, value: string | undefined): string {
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
}
