import DatePicker from 'antd/es/date-picker';
import Select from 'antd/es/select';
import dayjs, { type Dayjs } from 'dayjs';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { useStores } from '../../stores/use-stores';
import { pickerFormat } from './staff-feedback-format';
import type { StaffFeedbackStore } from './staff-feedback-store';

const ISO_DAY = 'YYYY-MM-DD';
export const FILTER_IDS = {
  referrer: 'pp-staff-feedback-referrer',
  modality: 'pp-staff-feedback-modality',
  from: 'pp-staff-feedback-from',
  to: 'pp-staff-feedback-to',
} as const;

/** The "all" choice of a Select (no key holds a control character); a clear button would be too small a target and mouse-only. */
const ALL = '\u0000all';
const chosen = (value: string): string | null => (value === ALL ? null : value);

const day = (value: Dayjs | null | undefined): string | null => (value ? value.format(ISO_DAY) : null);

/** What became of the last export, said to screen readers too. */
const ExportStatus = observer(function ExportStatus({ store }: { store: StaffFeedbackStore }) {
  const { t } = useTranslation();
  const state = store.exportState;
  const text =
    state.kind === 'done'
      ? t('staffFeedback.exported', { count: state.rows })
      : state.kind === 'refused'
        ? t('staffFeedback.exportRefused', { reason: state.message })
        : state.kind === 'failed'
          ? t('staffFeedback.exportFailed')
          : '';
  const failed = state.kind === 'refused' || state.kind === 'failed';
  return (
    <p role="status" className={failed ? 'pp-staff-feedback-export pp-notice pp-notice-error' : 'pp-staff-feedback-export'}>
      {text}
    </p>
  );
});

/** Referrer, modality and date range (the server filters), and the CSV of what they keep. */
export const StaffFeedbackFilters = observer(function StaffFeedbackFilters({ store }: { store: StaffFeedbackStore }) {
  const { t } = useTranslation();
  const { i18n } = useStores();
  const data = store.data;
  const { view } = store;
  const format = pickerFormat(i18n.locale);
  return (
    <section className="pp-staff-feedback-filters" aria-label={t('staffFeedback.filters')}>
      <div className="pp-staff-feedback-field">
        <label htmlFor={FILTER_IDS.referrer}>{t('staffFeedback.referrer')}</label>
        <Select<string>
          id={FILTER_IDS.referrer}
          className="pp-staff-feedback-select"
          showSearch={{ optionFilterProp: 'label' }}
          value={view.referrer ?? ALL}
          options={[
            { value: ALL, label: t('staffFeedback.allReferrers') },
            ...(data?.referrers ?? []).map((option) => ({ value: option.key, label: option.label })),
          ]}
          onChange={(value) => store.setView({ referrer: chosen(value) })}
        />
      </div>
      <div className="pp-staff-feedback-field">
        <label htmlFor={FILTER_IDS.modality}>{t('staffFeedback.modality')}</label>
        <Select<string>
          id={FILTER_IDS.modality}
          className="pp-staff-feedback-select"
          value={view.modality ?? ALL}
          options={[
            { value: ALL, label: t('staffFeedback.allModalities') },
            ...(data?.modalities ?? []).map((option) => ({
              value: option.key,
              label: option.label === '' ? t('staffFeedback.noModality') : option.label,
            })),
          ]}
          onChange={(value) => store.setView({ modality: chosen(value) })}
        />
      </div>
      <div className="pp-staff-feedback-field">
        {/* The range's two inputs, each labelled; the first names the pair. */}
        <label htmlFor={FILTER_IDS.from}>{t('staffFeedback.dates')}</label>
        <DatePicker.RangePicker
          id={{ start: FILTER_IDS.from, end: FILTER_IDS.to }}
          format={[format, ISO_DAY]}
          allowEmpty={[true, true]}
          allowClear={false}
          placeholder={[t('staffFeedback.from'), t('staffFeedback.to')]}
          value={[view.from === null ? null : dayjs(view.from), view.to === null ? null : dayjs(view.to)]}
          onChange={(dates) => store.setView({ from: day(dates?.[0]), to: day(dates?.[1]) })}
        />
      </div>
      <div className="pp-staff-feedback-actions">
        <Button variant="secondary" disabled={!store.filtered} onClick={() => store.clearFilters()}>
          {t('staffFeedback.clear')}
        </Button>
        <Button variant="primary" disabled={store.exportState.kind === 'busy'} onClick={() => void store.exportCsv()}>
          {store.exportState.kind === 'busy' ? t('staffFeedback.exporting') : t('staffFeedback.export')}
        </Button>
      </div>
      <ExportStatus store={store} />
      {store.filterProblem !== null && (
        <p role="alert" className="pp-notice pp-notice-error">
          {t('staffFeedback.badFilter', { reason: store.filterProblem })}
        </p>
      )}
    </section>
  );
});
