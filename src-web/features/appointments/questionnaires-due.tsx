import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { dueQuestionnairesPath, type DueQuestionnaires } from '@contract/api/questionnaires';
import { buttonClassName } from '../../components/button';
import { usePortalHref } from '../../shell/embedded';

/**
 * The questionnaires due on this booking now (docs/rules/questionnaires.md#due): "Before your
 * visit" and the pain score before it, or the pain score after and the feedback once it has
 * started. One link answers them all on /q, which comes back here when done.
 */
export function QuestionnairesDue({ bookingKey, due, back }: { bookingKey: string; due: DueQuestionnaires; back?: string }) {
  const { t } = useTranslation();
  const href = usePortalHref();
  const { pathname } = useLocation();
  if (due.types.length === 0) return null;
  // /q comes back here (or to `back`) in the same layout: the path without /iframe, which href adds.
  const target = back ?? pathname.replace(/^\/iframe(?=\/)/, '');
  return (
    <section aria-labelledby="pp-appt-questionnaires-title" className="pp-appt-questionnaires">
      <h2 id="pp-appt-questionnaires-title">{t('appointment.questionnaires.title')}</h2>
      <p>{t('appointment.questionnaires.intro', { count: due.titles.length })}</p>
      <ul>
        {due.titles.map((title) => (
          <li key={title}>{title}</li>
        ))}
      </ul>
      <Link className={buttonClassName({})} to={href(dueQuestionnairesPath(bookingKey, due, target))}>
        {t('appointment.questionnaires.answer', { count: due.titles.length })}
      </Link>
    </section>
  );
}
