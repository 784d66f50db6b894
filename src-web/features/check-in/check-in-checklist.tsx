import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CheckInChecklist, ChecklistItem } from '@contract/api/check-in-checklist';
import { clinicClockTime } from '@contract/api/clinic-time';

interface ChecklistProps {
  /** GET …/check-in/{slug}/checklist (check-in-api.ts). */
  load(): Promise<CheckInChecklist>;
  /** The heading level the list sits under (2 on the appointment page, 1 on a kiosk step). */
  headingLevel?: 2 | 3;
  /** At the kiosk: nothing sends the patient elsewhere; what is left is asked at the front desk. */
  kiosk?: boolean;
  /** The page already prints the preparation (the appointment page): only the fasting time is added here. */
  preparationShown?: boolean;
}

type Loaded = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; checklist: CheckInChecklist };

function ChecklistEntry({
  item,
  timeZone,
  kiosk,
  preparationShown,
}: {
  item: ChecklistItem;
  timeZone: string;
  kiosk: boolean;
  preparationShown: boolean;
}) {
  const { t, i18n } = useTranslation();
  switch (item.kind) {
    case 'CONSENT_FORMS':
      // At the kiosk the forms were offered in the flow: what is left is signed at the desk, never elsewhere.
      return (
        <li>
          {kiosk
            ? t('checkIn.checklist.consentFormsKiosk', { count: item.count })
            : t('checkIn.checklist.consentForms', { count: item.count })}
        </li>
      );
    case 'REFERRAL':
      return <li>{t('checkIn.checklist.referral')}</li>;
    case 'BRING_DOCUMENT':
      return (
        <li>
          {t('checkIn.checklist.bring', { title: item.title })}
          {item.description !== '' && <span className="pp-checklist-detail">{item.description}</span>}
        </li>
      );
    case 'PREPARATION':
      // Nothing printed twice: with the preparation above, only a fasting time is news.
      if (preparationShown && item.nothingToEatFrom === null) return null;
      return (
        <li>
          <strong>{item.examName}</strong>
          {item.nothingToEatFrom !== null && item.fastingHours !== null && (
            <span className="pp-checklist-detail pp-checklist-fasting">
              {t('checkIn.checklist.fasting', {
                count: item.fastingHours,
                time: clinicClockTime(item.nothingToEatFrom, item.startsAt, timeZone, i18n.language),
              })}
            </span>
          )}
          {!preparationShown && item.notes !== '' && <span className="pp-checklist-detail">{item.notes}</span>}
        </li>
      );
  }
}

/**
 * What is still to do before the scan, shown once the patient is checked in (docs/rules/check-in.md#checklist):
 * on the appointment page and on the kiosk's success step. A failure to load says so and leaves
 * the check-in itself alone: it is done.
 */
export function CheckInChecklistView({ load, headingLevel = 2, kiosk = false, preparationShown = false }: ChecklistProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    load().then(
      (checklist) => live && setLoaded({ state: 'ready', checklist }),
      () => live && setLoaded({ state: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [load]);

  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section className="pp-checklist" aria-labelledby={titleId} aria-busy={loaded.state === 'loading'}>
      <Heading id={titleId}>{t('checkIn.checklist.title')}</Heading>
      {loaded.state === 'failed' && <p className="pp-notice">{t('checkIn.checklist.failed')}</p>}
      {loaded.state === 'ready' &&
        (loaded.checklist.items.length === 0 ? (
          <p>{t('checkIn.checklist.nothing')}</p>
        ) : (
          <ul>
            {loaded.checklist.items.map((item, index) => (
              <ChecklistEntry
                key={`${item.kind}-${index}`}
                item={item}
                timeZone={loaded.checklist.timeZone}
                kiosk={kiosk}
                preparationShown={preparationShown}
              />
            ))}
          </ul>
        ))}
    </section>
  );
}
