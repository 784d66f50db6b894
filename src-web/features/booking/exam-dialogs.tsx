import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/use-stores';
import { ModalDialog } from '../../components/modal-dialog';
import { Button } from '../../components/button';

/** The dialogs of step 0: exam information, booking-request information and the walk-in choice. */
export const ExamDialogs = observer(function ExamDialogs() {
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
