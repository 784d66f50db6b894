import { observer } from 'mobx-react-lite';
import { useDeferredValue, useId } from 'react';
import type { Exam } from '@contract/api/booking';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/use-stores';
import { BodyFigure } from './body-figure';
import { ModalDialog } from '../../components/modal-dialog';
import { Button } from '../../components/button';

const NO_EXAMS: Exam[] = [];

/** Step 0: exams by modality and body part, or by searching their names. */
export const ExamStep = observer(function ExamStep() {
  const { booking } = useStores();
  const { t } = useTranslation();
  const searchId = useId();
  const listId = useId();
  // The list renders in a transition: React paints the page first and then fills the list in
  // small slices, so neither the first paint nor typing in the search waits for ~40 exams.
  const visibleExams = useDeferredValue(booking.examChoice.visibleExams, NO_EXAMS);
  // The figure, too, is drawn just after the first paint rather than in it.
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
  const bodyPartName = catalogue.bodyParts.find((part) => part.slug === booking.examChoice.bodyPartFilter)?.name;

  return (
    <div className="pp-exam-step">
      <div className="pp-field">
        <label htmlFor={searchId}>{t('booking.exams.search')}</label>
        <input
          id={searchId}
          type="search"
          className="pp-input"
          value={booking.examChoice.search}
          autoComplete="off"
          aria-controls={listId}
          onChange={(event) => booking.examChoice.setSearch(event.target.value)}
        />
      </div>

      <div className="pp-exam-browse">
        <div className="pp-exam-filters">
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
            {catalogue.modalities.map((modality) => (
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
          </div>
        </div>

        <div className="pp-exam-results">
          <h3 id={`${listId}-heading`}>{t('booking.exams.results', { count: booking.examChoice.visibleExams.length })}</h3>
          <ul id={listId} className="pp-exam-list" aria-labelledby={`${listId}-heading`}>
            {visibleExams.map((exam) => {
              const checkboxId = `${listId}-${exam.slug}`;
              return (
                <li key={exam.slug} className={booking.examChoice.isSelected(exam.slug) ? 'pp-exam pp-exam-selected' : 'pp-exam'}>
                  <input
                    id={checkboxId}
                    type="checkbox"
                    checked={booking.examChoice.isSelected(exam.slug)}
                    onChange={() => booking.examChoice.toggleExam(exam.slug)}
                  />
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
                    onClick={() => booking.examChoice.showExamInfo(exam.slug)}
                  >
                    {t('booking.exams.about')}
                  </button>
                </li>
              );
            })}
          </ul>
          {booking.examChoice.visibleExams.length === 0 && <p>{t('booking.exams.none')}</p>}
        </div>
      </div>

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

      <div className="pp-actions">
        <Button disabled={!booking.examChoice.canContinue} onClick={() => void booking.goToLocation()}>
          {t('action.continue')}
        </Button>
      </div>

      <ExamDialogs />
    </div>
  );
});

/** The dialogs of step 0: exam information, booking-request information and the walk-in choice. */
const ExamDialogs = observer(function ExamDialogs() {
  const { booking } = useStores();
  const { t } = useTranslation();
  const info = booking.examChoice.infoExam;
  return (
    <>
      {info && (
        <ModalDialog
          title={info.name}
          onDismiss={() => booking.examChoice.showExamInfo(null)}
          actions={<Button onClick={() => booking.examChoice.showExamInfo(null)}>{t('action.close')}</Button>}
        >
          <p>{t('booking.exams.duration', { count: info.durationMinutes, modality: info.modalityName })}</p>
          {info.notes && <p>{info.notes}</p>}
          {info.examNotes && <p>{info.examNotes}</p>}
          <h3>{t('booking.exams.preparation')}</h3>
          <p>{info.preparationNotes}</p>
        </ModalDialog>
      )}
      {booking.examChoice.requestInfoOpen && !booking.examChoice.walkInOpen && (
        <ModalDialog
          title={t('booking.requestInfo.title')}
          onDismiss={() => booking.examChoice.closeRequestInfo()}
          actions={<Button onClick={() => booking.examChoice.closeRequestInfo()}>{t('booking.requestInfo.ok')}</Button>}
        >
          <p>{t('booking.requestInfo.text')}</p>
        </ModalDialog>
      )}
      {booking.examChoice.walkInOpen && <WalkInDialog />}
    </>
  );
});

const WalkInDialog = observer(function WalkInDialog() {
  const { booking } = useStores();
  const { t } = useTranslation();
  return (
    <ModalDialog
      title={t('booking.walkIn.title')}
      onDismiss={() => booking.examChoice.chooseWalkIn(null)}
      actions={
        <Button variant="secondary" onClick={() => booking.examChoice.chooseWalkIn(null)}>
          {t('booking.walkIn.none')}
        </Button>
      }
    >
      <p>{t('booking.walkIn.text')}</p>
      {booking.examChoice.walkInState === 'loading' && <p role="status">{t('message.loading')}</p>}
      {booking.examChoice.walkInState !== 'loading' && booking.examChoice.walkInOptions.length === 0 && (
        <p>{t('booking.walkIn.noOptions')}</p>
      )}
      <ul className="pp-link-list">
        {booking.examChoice.walkInOptions.map((walkIn) => (
          <li key={walkIn.name}>
            <Button block onClick={() => booking.examChoice.chooseWalkIn(walkIn)}>
              {t('booking.walkIn.option', { name: walkIn.name, count: walkIn.minutesPrior })}
            </Button>
          </li>
        ))}
      </ul>
    </ModalDialog>
  );
});
