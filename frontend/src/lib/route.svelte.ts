// The current section, from the URL hash (#/settings), shared by the nav and the page.
export const sections = [
  { id: 'magazine', label: 'Magazine' },
  { id: 'audiobook', label: 'Audiobook' },
  { id: 'characters', label: 'Characters' },
  { id: 'voices', label: 'Voices' },
  { id: 'engines', label: 'Engines' },
  { id: 'settings', label: 'Settings' },
] as const;

export type SectionId = (typeof sections)[number]['id'];

export function sectionFromHash(hash: string): SectionId {
  const id = hash.replace(/^#\/?/, '').split('/')[0];
  return sections.some((s) => s.id === id) ? (id as SectionId) : 'magazine';
}

export const route = $state({ section: sectionFromHash(location.hash) });

addEventListener('hashchange', () => {
  route.section = sectionFromHash(location.hash);
});
