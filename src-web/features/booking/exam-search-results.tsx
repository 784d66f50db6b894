import { observer } from 'mobx-react-lite';
import { useDeferredValue } from 'react';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/use-stores';
import { Button } from '../../components/button';

/**
 * The exams found, right after the search field in the tab order (docs/rules/booking.md#exam-search): the count, said
 * politely to screen readers as the patient types, the list, and a way out when nothing matches.
 */
export const ExamSearchResults = observer(function ExamSearchResults(props: {
  listId: string;
  onClearSearch: () => void;
  onBrowse: () => void;
}) {
  const { booking } = useStores();
  const { t } = useTranslation();
  const { listId } = props;
  const choice = booking.examChoice;
  const found = choice.visibleExams;
  // Typing re-renders the list in the background, so the field never waits for ~40 exams. The
  // first render shows them at once (no initial value): the page's first render is a transition
  // already (src-web/start.tsx), and an empty list first moved everything below it (a layout shift).
  const visibleExams = useDeferredValue(found);
  const query = choice.searchText;
  const searching = query !== '';

  return (
    <div className="pp-exam-results">
      <h3 id={`${listId}-heading`} tabIndex={-1} className="pp-exam-results-title">
        {t('booking.exams.results', { count: found.length })}
      </h3>
      <p role="status" aria-live="polite" className="pp-visually-hidden">
        {searching ? t('booking.exams.matches', { count: found.length, query }) : ''}
      </p>
      <ul
        id={listId}
        className="pp-exam-list"
        aria-labelledby={`${listId}-heading`}
        aria-busy={searching && choice.searchIndexState === 'loading'}
        data-search-index={choice.searchIndexState}
      >
        {visibleExams.map((exam) => {
          const checkboxId = `${listId}-${exam.slug}`;
          return (
            <li key={exam.slug} data-exam={exam.slug} className={choice.isSelected(exam.slug) ? 'pp-exam pp-exam-selected' : 'pp-exam'}>
              <input id={checkboxId} type="checkbox" checked={choice.isSelected(exam.slug)} onChange={() => choice.toggleExam(exam.slug)} />
              <label htmlFor={checkboxId}>
                <span className="pp-exam-name">{exam.name}</span>
                <span className="pp-muted">
                  {exam.modalityName}
                  {exam.enquiryOnly ? ` · ${t('booking.exams.enquiry')}` : ''}
                </span>
              </label>
              <button
                type="button"
                className="pp-link-button"
                aria-label={t('booking.exams.aboutExam', { name: exam.name })}
                onClick={() => choice.showExamInfo(exam.slug)}
              >
                {t('booking.exams.about')}
              </button>
            </li>
          );
        })}
      </ul>
      {found.length === 0 &&
        (searching ? (
          <div className="pp-exam-none">
            <p className="pp-exam-none-title">{t('booking.exams.noMatch', { query })}</p>
            <p className="pp-muted">{t('booking.exams.noMatchHint')}</p>
            <div className="pp-exam-none-actions">
              <Button variant="secondary" onClick={props.onClearSearch}>
                {t('booking.exams.clearSearch')}
              </Button>
              <Button variant="secondary" onClick={props.onBrowse}>
                {t('booking.exams.browseBodyPart')}
              </Button>
            </div>
          </div>
        ) : (
          <p>{t('booking.exams.none')}</p>
        ))}
    </div>
  );
});
