import { observer } from 'mobx-react-lite';
import { lazy, Suspense, useDeferredValue, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/use-stores';
import { BodyFigure } from './body-figure';
import { ExamSearchResults } from './exam-search-results';
import { Button } from '../../components/button';

// The step's dialogs (and the modal dialog component) load when one opens: the first screen
// never shows them.
const ExamDialogs = lazy(() => import('./exam-dialogs').then((m) => ({ default: m.ExamDialogs })));

/** The exams chosen so far, each with its Remove, and what the choice means for the booking. */
const ChosenExams = observer(function ChosenExams({ listId }: { listId: string }) {
  const { booking } = useStores();
  const { t } = useTranslation();
  return (
    <section className="pp-selection" aria-labelledby={`${listId}-chosen`}>
      <h3 id={`${listId}-chosen`}>{t('booking.exams.chosen', { count: booking.examChoice.selectedExams.length })}</h3>
      {booking.examChoice.selectedExams.length === 0 ? (
        <p className="pp-muted">{t('booking.exams.chooseHint')}</p>
      ) : (
        <ul className="pp-chosen-list">
          {booking.examChoice.selectedExams.map((exam) => (
            <li key={exam.slug}>
              <span>{exam.name}</span>
              <button
                type="button"
                className="pp-link-button"
                aria-label={t('booking.exams.removeExam', { name: exam.name })}
                onClick={() => booking.examChoice.toggleExam(exam.slug)}
              >
                {t('booking.exams.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {booking.examChoice.walkInExam && <p>{t('booking.walkIn.recorded', { name: booking.examChoice.walkInExam.name })}</p>}
      {booking.examChoice.isBookingRequest && <p className="pp-notice">{t('booking.exams.requestNotice')}</p>}
    </section>
  );
});

/** Narrowing the exams by modality: all, or one. */
const ModalityChips = observer(function ModalityChips() {
  const { booking } = useStores();
  const { t } = useTranslation();
  const modalities = booking.examChoice.catalogue?.modalities ?? [];
  return (
    <fieldset className="pp-chips">
      <legend>{t('booking.exams.modality')}</legend>
      <button
        type="button"
        className="pp-chip"
        aria-pressed={booking.examChoice.modalityFilter === null}
        onClick={() => booking.examChoice.setModality(null)}
      >
        {t('booking.exams.allModalities')}
      </button>
      {modalities.map((modality) => (
        <button
          key={modality.id}
          type="button"
          className="pp-chip"
          aria-pressed={booking.examChoice.modalityFilter === modality.id}
          onClick={() => booking.examChoice.setModality(modality.id)}
        >
          {modality.name}
        </button>
      ))}
    </fieldset>
  );
});

/** Narrowing the exams by body part on the figure, and on a phone the way back up to the list. */
const BodyPartBrowser = observer(function BodyPartBrowser(props: { listId: string; showFigure: boolean; onShowResults: () => void }) {
  const { listId, showFigure, onShowResults } = props;
  const { booking } = useStores();
  const { t } = useTranslation();
  const bodyPartName = booking.examChoice.catalogue?.bodyParts.find((part) => part.slug === booking.examChoice.bodyPartFilter)?.name;
  return (
    <div className="pp-body-figure-box">
      <p id={`${listId}-body`} className="pp-muted">
        {t('booking.exams.bodyPartHint')}
      </p>
      {showFigure ? <BodyFigure /> : <div className="pp-body-figure" />}
      <p aria-live="polite" className="pp-body-part-chosen">
        {bodyPartName ? t('booking.exams.bodyPartChosen', { name: bodyPartName }) : t('booking.exams.noBodyPart')}
      </p>
      {booking.examChoice.filtersActive && (
        <Button variant="secondary" onClick={() => booking.examChoice.clearFilters()}>
          {t('booking.exams.clearFilters')}
        </Button>
      )}
      {/* Phones only: the list is above the figure there. */}
      <button type="button" className="pp-link-button pp-exam-browse-jump" onClick={onShowResults}>
        {t('booking.exams.seeResults', { count: booking.examChoice.visibleExams.length })}
      </button>
    </div>
  );
});

/**
 * Step 0: exams by searching their names, or by modality and body part. The found exams come right
 * after the search field (one or two Tab presses), then the chosen exams and Continue, so a found
 * exam is three Tab presses from Continue; browsing by type and body part follows (beside them on a
 * desktop, below on a phone), in reading and tab order alike (docs/rules/booking.md#keyboard).
 */
export const ExamStep = observer(function ExamStep() {
  const { booking } = useStores();
  const { t } = useTranslation();
  const searchId = useId();
  const listId = useId();
  const searchRef = useRef<HTMLInputElement>(null);
  const browseRef = useRef<HTMLHeadingElement>(null);
  // The figure is drawn just after the first paint rather than in it.
  const showFigure = useDeferredValue(true, false);

  if (booking.examChoice.catalogueState === 'error') {
    return (
      <div role="alert" className="pp-notice pp-notice-error">
        <p>{t('booking.exams.loadError')}</p>
        <Button onClick={() => void booking.examChoice.loadCatalogue()}>{t('booking.actions.retry')}</Button>
      </div>
    );
  }
  const catalogue = booking.examChoice.catalogue;
  if (!catalogue) return <p role="status">{t('message.loading')}</p>;

  const clearSearch = () => {
    booking.examChoice.clearSearch();
    searchRef.current?.focus();
  };
  // Browsing by body part: the search no longer narrows the list, and focus goes to the figure's section.
  const browse = () => {
    booking.examChoice.clearSearch();
    browseRef.current?.focus();
  };
  const showResults = () => document.getElementById(`${listId}-heading`)?.focus();

  return (
    <div className="pp-exam-step">
      <div className="pp-exam-browse">
        <div className="pp-exam-main">
          <div className="pp-field">
            <label htmlFor={searchId}>{t('booking.exams.search')}</label>
            <input
              id={searchId}
              ref={searchRef}
              type="search"
              className="pp-input"
              value={booking.examChoice.search}
              autoComplete="off"
              aria-controls={listId}
              aria-describedby={`${searchId}-hint`}
              onFocus={() => void booking.examChoice.prepareSearch()}
              onChange={(event) => booking.examChoice.setSearch(event.target.value)}
            />
            <p id={`${searchId}-hint`} className="pp-muted pp-exam-search-hint">
              {t('booking.exams.searchHint')}
            </p>
          </div>
          {/* Phones only: the figure sits below the whole list there. */}
          <button type="button" className="pp-link-button pp-exam-browse-jump" onClick={browse}>
            {t('booking.exams.browseBodyPart')}
          </button>
          <ExamSearchResults listId={listId} onClearSearch={clearSearch} onBrowse={browse} />
          <ChosenExams listId={listId} />

          <div className="pp-actions">
            <Button disabled={!booking.examChoice.canContinue} onClick={() => void booking.goToLocation()}>
              {t('action.continue')}
            </Button>
          </div>
        </div>

        <section className="pp-exam-filters" aria-labelledby={`${listId}-browse`}>
          <h3 id={`${listId}-browse`} ref={browseRef} tabIndex={-1} className="pp-exam-browse-title">
            {t('booking.exams.browseTitle')}
          </h3>
          <ModalityChips />
          <BodyPartBrowser listId={listId} showFigure={showFigure} onShowResults={showResults} />
        </section>
      </div>

      {booking.examChoice.dialogOpen && (
        <Suspense fallback={null}>
          <ExamDialogs />
        </Suspense>
      )}
    </div>
  );
});
