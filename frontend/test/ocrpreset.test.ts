import { describe, expect, it } from 'vitest';
import { cardsSpecOcr_presetValues } from '../src/lib/api.gen';
import { OCR_PRESETS, ocrPresetInfo, specOf, type CardView } from '../src/lib/engines';

const card = (name: string, extra: Partial<CardView> = {}): CardView => ({
  name, kind: 'vision-ocr', url: '', url_source: 'card', docker_url: '', key_configured: false, ...extra,
});

describe('OCR presets of vision OCR cards', () => {
  it('the form offers every preset of the document', () => {
    expect(OCR_PRESETS.map((p) => p.id)).toEqual(cardsSpecOcr_presetValues.filter((v) => v));
    expect(ocrPresetInfo({}).id).toBe('lectern');
  });
  it('editing a card keeps its preset (a PUT replaces the card)', () => {
    const c = card('dots', { base_url: 'http://gpu:8000/v1', model: 'rednote-hilab/dots.ocr', ocr_preset: 'dots-ocr' });
    expect(specOf(c, { base_url: 'http://gpu2:8000/v1' })).toEqual({
      kind: 'vision-ocr', base_url: 'http://gpu2:8000/v1', model: 'rednote-hilab/dots.ocr', container: '', docker_host: '', ocr_preset: 'dots-ocr',
    });
    expect(specOf(card('fb', { kind: 'vision-ocr-fallback' })).ocr_preset).toBe('lectern');
    expect(specOf(card('llm', { kind: 'llm' }), { model: 'q' })).not.toHaveProperty('ocr_preset');
  });
});
