import { useTranslation } from 'react-i18next';
import { openForm } from '#src/components/forms/open-form';
import { useWindows } from '#src/lib/dialogs/use-windows';
import { useAction } from '#src/lib/http/use-action';
import { useSession } from '#src/lib/session/session-context';
import { companyActions, companyKeys, FORM_DEFINITIONS_KEY } from '../api/companies';
import { companyFlagsForm, editCompanyForm, moveCompanyForm, newCompanyForm } from '../forms/company-forms';

type Target = { id: number; name: string; parent_id: number | null };

/**
 * What the caller may do with a company, and the doing: the companies table, the tree
 * and the company page share it. The server decides in the end; these only hide what
 * would be refused anyway (the top company, the caller's own company).
 */
export function useCompanyActions() {
  const { t } = useTranslation('companies');
  const { user, can } = useSession();
  const windows = useWindows();
  const removal = useAction({
    call: (c: Target) => companyActions.remove(c.id),
    failure: { verb: 'remove', item: 'company' },
    invalidate: [companyKeys.all, FORM_DEFINITIONS_KEY],
    success: t('delete.done'),
    // A refusal (subsidiaries, users or devices left) is read in a window, not a passing toast.
    onFailure: (message, _error, c) =>
      windows.openNamed(
        'error',
        { messages: [message] },
        { id: `company-delete:${c.id}:error`, title: t('delete.refusedTitle') },
      ),
  });
  const manage = can('manage_companies');
  const superAdmin = can('super_admin');
  const own = (c: Target) => c.id === user.company_id;

  return {
    canCreate: manage,
    canEdit: (_c: Target) => manage,
    /** Only companies strictly below the caller's own, unless super admin (server rule). */
    canFlag: (c: Target) => manage && (superAdmin || !own(c)),
    canMove: (c: Target) => manage && c.parent_id !== null && !own(c),
    canDelete: (c: Target) => manage && c.parent_id !== null && !own(c),

    create: async (parentId?: number) => {
      await openForm(await newCompanyForm(parentId === undefined ? {} : { parentId }));
    },
    edit: (c: Target) => openForm(editCompanyForm, { id: c.id }),
    flags: (c: Target) => openForm(companyFlagsForm, { id: c.id }),
    move: async (c?: Target) => {
      await openForm(await moveCompanyForm(c ? { source: c.id } : {}));
    },
    /** Asks first; a refusal (subsidiaries, users or devices left) shows the server's words. */
    remove: async (c: Target): Promise<boolean> => {
      const yes = await windows.confirm({
        title: t('delete.title'),
        message: t('delete.message', { name: c.name }),
        confirmLabel: t('delete.confirm'),
        danger: true,
        id: `company-delete:${c.id}`,
      });
      if (!yes) return false;
      return (await removal.run(c)) !== undefined;
    },
  };
}
