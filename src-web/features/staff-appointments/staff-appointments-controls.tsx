import DatePicker from 'antd/es/date-picker';
import Segmented from 'antd/es/segmented';
import Select from 'antd/es/select';
import dayjs from 'dayjs';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import type { AppointmentOrder, StaffAppointmentsStore } from './staff-appointments-store';

const ISO_DAY = 'YYYY-MM-DD';
export const CONTROL_IDS = { clinic: 'pp-staff-appointments-clinic', date: 'pp-staff-appointments-date' } as const;

/** The clinic, the day (a picker, or a day back and forth), and the order; a refused choice is said beside them. */
export const StaffAppointmentsControls = observer(function StaffAppointmentsControls({ store }: { store: StaffAppointmentsStore }) {
  const { t } = useTranslation();
  const data = store.data;
  if (data === null) return null;
  return (
    <section className="pp-staff-appointments-controls" aria-label={t('staffAppointments.controls')}>
      <div className="pp-staff-appointments-field">
        <label htmlFor={CONTROL_IDS.clinic}>{t('staffAppointments.clinic')}</label>
        <Select<string>
          id={CONTROL_IDS.clinic}
          className="pp-staff-appointments-clinic"
          size="large"
          showSearch={{ optionFilterProp: 'label' }}
          value={data.clinic.slug}
          options={data.clinics.map((clinic) => ({ value: clinic.slug, label: clinic.name }))}
          onChange={(slug) => store.chooseClinic(slug)}
        />
      </div>
      <div className="pp-staff-appointments-field">
        <label htmlFor={CONTROL_IDS.date}>{t('staffAppointments.date')}</label>
        {/* The picker first, the day back and forth after it: on a phone the buttons share the row below it. */}
        <div className="pp-staff-appointments-day">
          <DatePicker
            id={CONTROL_IDS.date}
            size="large"
            format={ISO_DAY}
            allowClear={false}
            value={dayjs(data.date)}
            onChange={(value) => {
              if (value) store.chooseDay(value.format(ISO_DAY));
            }}
          />
          <Button variant="secondary" onClick={() => store.moveDay(-1)}>
            <span aria-hidden="true">‹</span>
            {t('staffAppointments.previousDay')}
          </Button>
          <Button variant="secondary" onClick={() => store.moveDay(1)}>
            {t('staffAppointments.nextDay')}
            <span aria-hidden="true">›</span>
          </Button>
        </div>
      </div>
      <div className="pp-staff-appointments-field">
        <span id="pp-staff-appointments-order">{t('staffAppointments.order')}</span>
        <Segmented<AppointmentOrder>
          aria-labelledby="pp-staff-appointments-order"
          size="large"
          value={store.order}
          onChange={(order) => store.setOrder(order)}
          options={[
            { value: 'time', label: t('staffAppointments.orderByTime') },
            { value: 'noAnswerFirst', label: t('staffAppointments.orderNoAnswerFirst') },
          ]}
        />
      </div>
      {store.queryProblem !== null && (
        <p role="alert" className="pp-notice pp-notice-error pp-staff-appointments-problem">
          {t('staffAppointments.badQuery', { reason: store.queryProblem })}
        </p>
      )}
    </section>
  );
});
