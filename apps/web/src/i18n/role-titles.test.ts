import { LANGUAGES } from '@fleetgate/shared/constants';
import { DEFAULT_ROLES } from '@fleetgate/shared/roles';
import i18next from 'i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from './i18n';
import { roleDescription, roleTitle, shownRoleTitle } from './role-titles';

beforeAll(async () => {
  await initI18n();
});
afterAll(async () => {
  await i18next.changeLanguage('en');
});

describe('role titles in the console’s language (one term per concept per language)', () => {
  it('the English texts are the titles and descriptions the server stores', async () => {
    await i18next.changeLanguage('en');
    for (const role of DEFAULT_ROLES) {
      expect(roleTitle(role.title)).toBe(role.title);
      expect(roleDescription({ ...role, company_id: null })).toBe(role.description);
    }
  });

  it.each(LANGUAGES.filter((l) => l.code !== 'en').map((l) => l.code))(
    'in %s every default role has its own title and description; custom roles keep their words',
    async (code) => {
      await i18next.changeLanguage(code);
      for (const role of DEFAULT_ROLES) {
        // Written in this language, not the English fallback (a title may be the same word).
        expect(i18next.getResource(code, 'roles', `default.${role.name}.title`)).toBe(roleTitle(role.title));
        expect(roleDescription({ ...role, company_id: null })).not.toBe(role.description);
      }
      expect(roleTitle('Night shift operators')).toBe('Night shift operators');
      expect(roleDescription({ name: 'ops', company_id: 7, description: 'Our words' })).toBe('Our words');
    },
  );

  it('cuts what it shows to 45 characters (product §3 newUser, §9)', async () => {
    await i18next.changeLanguage('en');
    expect(shownRoleTitle('a'.repeat(45))).toBe('a'.repeat(45));
    const cut = shownRoleTitle('b'.repeat(60));
    expect([...cut]).toHaveLength(45);
    expect(cut.endsWith('…')).toBe(true);
  });
});
