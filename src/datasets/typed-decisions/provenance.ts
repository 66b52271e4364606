/** Pinned provenance of Typed Decisions and of decidekit's synthetic sample. */
import type { DatasetInfo } from '../../core/typed-decisions/dataset-info.js';

export const TYPED_DECISIONS_ID = 'LocalLLaMA/typed-decisions';
export const TYPED_DECISIONS_URL = 'https://huggingface.co/datasets/LocalLLaMA/typed-decisions';
export const TYPED_DECISIONS_LICENSE = 'Apache-2.0';
/** The revision whose test split the published leaderboard scored. */
export const PINNED_REVISION = 'e039ebffcc280174dd354227424fb2b249f191de';
/** The one parquet file of the `all` config's test split, inside the repository. */
export const PARQUET_PATH = 'all/test-00000-of-00001.parquet';
/** sha256 of {@link PARQUET_PATH} at {@link PINNED_REVISION}. */
export const PINNED_PARQUET_SHA256 = '4f294f218ea1da27f3efef936359389c62ea4d3973a41457732990f1d31b647c';
export const DEFAULT_HF_BASE_URL = 'https://huggingface.co';

export const SAMPLE_ID = 'decidekit/typed-decisions-synthetic-sample';
export const SAMPLE_ATTRIBUTION =
  'synthetic sample in the Typed Decisions schema (question schemas from LocalLLaMA/typed-decisions, Apache-2.0); not Typed Decisions scores';

/** The known sha256 of the parquet file at a revision, or null when decidekit pins none. */
export function pinnedParquetSha256(revision: string): string | null {
  return revision === PINNED_REVISION ? PINNED_PARQUET_SHA256 : null;
}

/** `<base>/datasets/LocalLLaMA/typed-decisions/resolve/<revision>/all/test-00000-of-00001.parquet` */
export function parquetDownloadUrl(revision: string, baseUrl: string = DEFAULT_HF_BASE_URL): string {
  return `${baseUrl.replace(/\/+$/, '')}/datasets/${TYPED_DECISIONS_ID}/resolve/${encodeURIComponent(revision)}/${PARQUET_PATH}`;
}

/** The attribution line every report shows for real Typed Decisions data. */
export function typedDecisionsAttribution(revision: string): string {
  return `Typed Decisions (${TYPED_DECISIONS_ID}, revision ${shortRevision(revision)}), ${TYPED_DECISIONS_LICENSE}, ${TYPED_DECISIONS_URL}`;
}

export function typedDecisionsInfo(revision: string, split: string): DatasetInfo {
  return {
    id: TYPED_DECISIONS_ID,
    revision,
    split,
    license: TYPED_DECISIONS_LICENSE,
    synthetic: false,
    attribution: typedDecisionsAttribution(revision),
    url: TYPED_DECISIONS_URL,
  };
}

/** A 40-hex commit shortened to 12 characters; a branch or tag name as it is. */
export function shortRevision(revision: string): string {
  return /^[0-9a-f]{40}$/.test(revision) ? revision.slice(0, 12) : revision;
}
