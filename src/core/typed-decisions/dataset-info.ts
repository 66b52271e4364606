/** Where a Typed Decisions dataset's cases came from (bench, live, probe); every report names it. */
export interface DatasetInfo {
  /** `LocalLLaMA/typed-decisions`, or `decidekit/typed-decisions-synthetic-sample`, or a user path's name. */
  readonly id: string;
  readonly revision: string | null;
  readonly split: string;
  readonly license: string;
  /** True for the project's synthetic sample: never presented as Typed Decisions scores. */
  readonly synthetic: boolean;
  /** One line naming dataset, revision and license, shown in every report. */
  readonly attribution: string;
  readonly url: string | null;
  /**
   * A dataset given by path: where it was read and the sha256 of its bytes, so a resume
   * finds the file again and refuses it when its content changed.
   */
  readonly file?: { readonly path: string; readonly sha256: string };
}
