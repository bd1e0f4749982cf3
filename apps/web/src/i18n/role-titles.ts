import { ROLE_TITLE_DISPLAY_LIMIT } from '@fleetgate/shared/constants';
import { DEFAULT_ROLES } from '@fleetgate/shared/roles';
import i18next from 'i18next';

const DEFAULT_BY_TITLE = new Map<string, string>(DEFAULT_ROLES.map((role) => [role.title, role.name]));

/**
 * A role's title in the console's language: the five default roles of product §6 are
 * translated (locales `roles.json`, `default.{name}.title`); a custom role's title is its
 * company's own words. The server sends titles in English, as stored.
 */
export function roleTitle(title: string): string {
  const name = DEFAULT_BY_TITLE.get(title);
  return name ? i18next.t(`default.${name}.title`, { ns: 'roles', defaultValue: title }) : title;
}

/** A default role's description in the console's language; a custom role's as written. */
export function roleDescription(role: {
  name: string;
  company_id: number | null;
  description: string;
}): string {
  if (role.company_id !== null) return role.description;
  return i18next.t(`default.${role.name}.description`, { ns: 'roles', defaultValue: role.description });
}

/** A role title as the console shows it: translated, and at most 45 characters (product §3 newUser, §9). */
export function shownRoleTitle(title: string, limit: number = ROLE_TITLE_DISPLAY_LIMIT): string {
  const chars = [...roleTitle(title)];
  return chars.length > limit ? `${chars.slice(0, limit - 1).join('')}…` : chars.join('');
}
