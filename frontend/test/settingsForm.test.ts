import { describe, expect, it } from 'vitest';
import { CONFIGURED, type SettingsView } from '../src/lib/api';
import { formErrors, formFrom, updateFrom } from '../src/lib/settingsForm';

const saved: SettingsView = {
  instance_name: 'default',
  llm_url: 'http://10.0.0.5:4000/v1',
  llm_api_key: CONFIGURED,
  engine_api_keys: { tts: CONFIGURED, ocr: CONFIGURED },
  vision_ocr_url: '',
  vision_ocr_fallback_url: '',
  llm_model: 'qwen3-32b',
  vision_ocr_model: '',
  engine_url_allowlist: ['gpu.lan', '10.0.0.0/8'],
  ear_check: true,
};

describe('settings form', () => {
  it('never puts the placeholder or a key into the form', () => {
    const form = formFrom(saved);
    expect(form.llm_api_key).toEqual({ configured: true, typed: '', clear: false });
    expect(JSON.stringify(form)).not.toContain(CONFIGURED);
    expect(form.cards.map((c) => c.card)).toEqual(['ocr', 'tts']);
  });

  it('an untouched save keeps every saved key by omitting it', () => {
    const u = updateFrom(formFrom(saved));
    expect(u).not.toHaveProperty('llm_api_key');
    expect(u).not.toHaveProperty('engine_api_keys');
    expect(u.llm_url).toBe('http://10.0.0.5:4000/v1');
  });

  it('the ear switch is shown as saved and sent as set', () => {
    const form = formFrom(saved);
    expect(form.ear_check).toBe(true);
    expect(updateFrom(form).ear_check).toBe(true);
    form.ear_check = false;
    expect(updateFrom(form).ear_check).toBe(false);
    expect(formFrom({ ...saved, ear_check: false }).ear_check).toBe(false);
  });

  it('a typed key is sent, Clear sends an empty string', () => {
    const form = formFrom(saved);
    form.llm_api_key.typed = 'sk-new';
    form.cards[0].clear = true; // ocr
    form.cards.push({ card: 'image', configured: false, typed: 'img-key', clear: false });
    const u = updateFrom(form);
    expect(u.llm_api_key).toBe('sk-new');
    expect(u.engine_api_keys).toEqual({ ocr: '', image: 'img-key' });
  });

  it('a typed key wins over a pending clear', () => {
    const form = formFrom(saved);
    form.llm_api_key.clear = true;
    form.llm_api_key.typed = 'sk-replacement';
    expect(updateFrom(form).llm_api_key).toBe('sk-replacement');
  });

  it('points out bad input before sending', () => {
    const form = formFrom(saved);
    form.llm_url = 'ftp://x';
    form.instance_name = ' ';
    form.cards.push({ card: '', configured: false, typed: 'k', clear: false });
    const errs = formErrors(form);
    expect(errs).toContain('Instance name is required.');
    expect(errs.some((e) => e.startsWith('LLM URL'))).toBe(true);
    expect(errs).toContain('Every engine key needs a card name.');
    expect(formErrors(formFrom(saved))).toEqual([]);
  });

  it('models and the allow list round-trip; a URL in the allow list is pointed out', () => {
    const form = formFrom(saved);
    expect(form.engine_url_allowlist).toBe('gpu.lan\n10.0.0.0/8');
    form.engine_url_allowlist += '\n\n  127.0.0.1:11434 ';
    const u = updateFrom(form);
    expect(u.llm_model).toBe('qwen3-32b');
    expect(u.engine_url_allowlist).toEqual(['gpu.lan', '10.0.0.0/8', '127.0.0.1:11434']);
    form.engine_url_allowlist = 'http://gpu.lan';
    expect(formErrors(form)).toContain('Allow-list entry "http://gpu.lan" must be a host, not a URL.');
  });
});
