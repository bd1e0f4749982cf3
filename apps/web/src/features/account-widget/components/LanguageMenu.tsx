import { LANGUAGES, type LanguageCode } from '@fleetgate/shared/constants';
import { Menu } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconLanguage } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchExtraLanguages } from '#src/i18n/extra-languages';
import { chooseLanguage } from '../preferences/language';

/**
 * The Languages sub-menu (product §2 Header widgets 3): the four bundled languages, then the
 * further ones an operator added as translation files (docs/decisions.md, 'Further
 * languages'). The choice reloads the console after 1 s.
 */
export function LanguageMenu() {
  const { t, i18n } = useTranslation('preferences');
  const current = i18n.language;
  // Asked for when the sub-menu first opens: most sessions never look.
  const [asked, setAsked] = useState(false);
  const extras = useQuery({
    queryKey: ['locales'],
    queryFn: fetchExtraLanguages,
    staleTime: 5 * 60_000,
    retry: false,
    enabled: asked,
  });
  const choose = (code: LanguageCode | string) => {
    if (code === current) return;
    notifications.show({ message: t('language.switching'), loading: true, autoClose: false });
    chooseLanguage(code);
  };
  return (
    <Menu.Sub position="left-start" onChange={(opened) => opened && setAsked(true)}>
      <Menu.Sub.Target>
        <Menu.Sub.Item leftSection={<IconLanguage size={16} />} data-testid="menu-languages">
          {t('language.title')}
        </Menu.Sub.Item>
      </Menu.Sub.Target>
      <Menu.Sub.Dropdown>
        {LANGUAGES.map((language) => (
          <Menu.Item
            key={language.code}
            lang={language.code}
            onClick={() => choose(language.code)}
            rightSection={language.code === current ? <IconCheck size={14} /> : null}
            aria-current={language.code === current || undefined}
            data-language={language.code}
          >
            {language.name}
          </Menu.Item>
        ))}
        {extras.data?.length ? (
          <>
            <Menu.Divider />
            <Menu.Label>{t('language.more')}</Menu.Label>
            {extras.data.map((language) => (
              <Menu.Item
                key={language.code}
                lang={language.code}
                onClick={() => choose(language.code)}
                rightSection={language.code === current ? <IconCheck size={14} /> : null}
                aria-current={language.code === current || undefined}
                data-language={language.code}
              >
                {language.name}
              </Menu.Item>
            ))}
          </>
        ) : null}
      </Menu.Sub.Dropdown>
    </Menu.Sub>
  );
}
