import { describe, expect, it } from 'vitest';
import { cardNameError, filterModels, statusBadge } from '../src/lib/engines';

describe('engine cards', () => {
  it('model search matches every word, case-insensitively', () => {
    const models = ['Qwen3-32B-Instruct', 'llama-3.3-70b', 'qwen2.5-vl-7b', 'whisper-large'];
    expect(filterModels(models, 'qwen')).toEqual(['Qwen3-32B-Instruct', 'qwen2.5-vl-7b']);
    expect(filterModels(models, 'QWEN vl')).toEqual(['qwen2.5-vl-7b']);
    expect(filterModels(models, '  ')).toEqual(models);
    expect(filterModels(models, 'gpt')).toEqual([]);
  });

  it('every container state has a badge; "Not installed" says so', () => {
    expect(statusBadge('not-installed')).toEqual({ cls: 'err', text: 'Not installed' });
    expect(statusBadge('running').cls).toBe('ok');
    expect(statusBadge(undefined).text).toBe('Unknown');
  });

  it('card names follow the server rule', () => {
    expect(cardNameError('gateway')).toBe('');
    expect(cardNameError('../x')).not.toBe('');
    expect(cardNameError('')).not.toBe('');
  });
});
