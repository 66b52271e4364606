import { describe, expect, it } from 'vitest';
import { matchModelName } from './model-name.js';

const SHOWN = ['heuristic*', 'gpt-4o', 'gpt-4o-mini', 'Claude-Haiku', 'qwen (server default)', 'gpt-4o'];

describe('matchModelName', () => {
  it('finds a model by its name as shown, without its marks, in any case, or by the start of its name', () => {
    expect(matchModelName(SHOWN, 'gpt-4o')).toEqual({ kind: 'one', model: 'gpt-4o' });
    expect(matchModelName(SHOWN, 'heuristic')).toEqual({ kind: 'one', model: 'heuristic*' });
    expect(matchModelName(SHOWN, 'qwen')).toEqual({ kind: 'one', model: 'qwen (server default)' });
    expect(matchModelName(SHOWN, 'claude-haiku')).toEqual({ kind: 'one', model: 'Claude-Haiku' });
    expect(matchModelName(SHOWN, 'HEUR')).toEqual({ kind: 'one', model: 'heuristic*' });
    expect(matchModelName(SHOWN, 'gpt-4o-m')).toEqual({ kind: 'one', model: 'gpt-4o-mini' });
  });

  it('names every model the start of a name fits when it fits several', () => {
    expect(matchModelName(SHOWN, 'GPT')).toEqual({ kind: 'several', models: ['gpt-4o', 'gpt-4o-mini'] });
  });

  it('names the close models when none fits, nearest first', () => {
    expect(matchModelName(SHOWN, 'gtp-4o')).toEqual({ kind: 'none', near: ['gpt-4o', 'gpt-4o-mini'] });
    expect(matchModelName(SHOWN, 'haiku')).toEqual({ kind: 'none', near: ['Claude-Haiku'] });
    expect(matchModelName(SHOWN, 'llama-3')).toEqual({ kind: 'none', near: [] });
    expect(matchModelName([], 'heuristic')).toEqual({ kind: 'none', near: [] });
  });
});
