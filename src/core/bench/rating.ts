/** Reference points from the Typed Decisions dataset card, as accuracy percentages. */
export const PRIOR_ACCURACY_PERCENT = 47.0;
export const TEACHER_AGREEMENT_PERCENT = 73.5;

export type Rating =
  | { readonly stars: 0; readonly label: 'Incomplete: no successful cases' }
  | { readonly stars: 1 | 2 | 3; readonly label: string };

/**
 * Stars from accuracy: none when nothing was answered; one at or below the 47.0% prior;
 * two above it; three at or above the teacher's 73.5% self-agreement.
 * Compared in percent rounded to 1e-9 so that 0.735 (a fraction) counts as 73.5.
 */
export function rate(accuracy: number | null, answered: number): Rating {
  if (answered === 0 || accuracy === null) return { stars: 0, label: 'Incomplete: no successful cases' };
  const percent = Math.round(accuracy * 100 * 1e9) / 1e9;
  if (percent >= TEACHER_AGREEMENT_PERCENT) return { stars: 3, label: 'at or above teacher self-agreement (73.5%)' };
  if (percent > PRIOR_ACCURACY_PERCENT) return { stars: 2, label: 'above the 47.0% prior' };
  return { stars: 1, label: 'at or below the 47.0% prior' };
}
