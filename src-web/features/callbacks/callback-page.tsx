import { observer } from 'mobx-react-lite';
import { useEffect, useId, useRef, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import type { TFunction } from 'i18next';
import { CALLBACK_REASON_MAX, CALLBACK_WINDOWS, type CallbackWindow } from '@contract/api/callbacks';
import { Button } from '../../components/button';
import { Page } from '../../components/page';
import { TextField } from '../../components/text-field';
import { useCallbackTexts } from './callback-texts';
import { paths } from '../../paths';
import { usePortalHref } from '../../shell/embedded';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { callbackStoreOf, type CallbackField, type CallbackStore } from './callback-store';
import './callback.css';

/** One literal t() per key, so the catalogue check sees every one. */
function problemText(t: TFunction, field: CallbackField): string {
  switch (field) {
    case 'firstName':
      return t('callback.problem.firstName');
    case 'lastName':
      return t('callback.problem.lastName');
    case 'phone':
      return t('callback.problem.phone');
    case 'windows':
      return t('callback.problem.windows');
    case 'reason':
      return t('callback.problem.reason');
  }
}

function windowLabel(t: TFunction, window: CallbackWindow): string {
  switch (window) {
    case 'weekdayMorning':
      return t('callback.window.weekdayMorning');
    case 'weekdayAfternoon':
      return t('callback.window.weekdayAfternoon');
    case 'saturdayMorning':
      return t('callback.window.saturdayMorning');
    case 'anyTime':
      return t('callback.window.anyTime');
  }
}

function duringWords(t: TFunction, window: CallbackWindow): string {
  switch (window) {
    case 'weekdayMorning':
      return t('callback.during.weekdayMorning');
    case 'weekdayAfternoon':
      return t('callback.during.weekdayAfternoon');
    case 'saturdayMorning':
      return t('callback.during.saturdayMorning');
    case 'anyTime':
      return t('callback.during.anyTime');
  }
}

/** "a weekday morning or a Saturday morning", in the page's language. */
function windowsInWords(t: TFunction, windows: readonly CallbackWindow[], locale: string): string {
  return new Intl.ListFormat(locale, { type: 'disjunction' }).format(windows.map((window) => duringWords(t, window)));
}

const Sent = observer(function Sent({ store }: { store: CallbackStore }) {
  const { t, i18n } = useTranslation();
  const href = usePortalHref();
  const ref = useRef<HTMLDivElement>(null);
  // The form is gone: the focus goes to what replaced it, so a screen reader hears it.
  useEffect(() => ref.current?.focus(), []);
  const received = store.received;
  if (received === null) return null;
  return (
    <div ref={ref} tabIndex={-1} role="status" className="pp-notice pp-notice-success pp-callback-sent">
      <h2>{t('callback.sentTitle')}</h2>
      <p>{t('callback.sent', { phone: received.phone, windows: windowsInWords(t, received.windows, i18n.language) })}</p>
      <p>{t('callback.sentNext')}</p>
      <p>
        <Link to={href(paths.home())}>{t('callback.home')}</Link>
      </p>
    </div>
  );
});

const Failure = observer(function Failure({ store }: { store: CallbackStore }) {
  const { t, i18n } = useTranslation();
  const href = usePortalHref();
  const failure = store.failure;
  if (failure === null) return null;
  switch (failure.kind) {
    case 'invalid':
      return (
        <div role="alert" className="pp-notice pp-notice-error">
          <p>{t('callback.failure.invalid')}</p>
          <p>{failure.message}</p>
        </div>
      );
    case 'too_many':
      return (
        <p role="alert" className="pp-notice pp-notice-error">
          {failure.retryAt === null
            ? t('callback.failure.tooManyLater')
            : t('callback.failure.tooMany', {
                time: new Date(failure.retryAt).toLocaleString(i18n.language, { weekday: 'long', hour: 'numeric', minute: '2-digit' }),
              })}
        </p>
      );
    case 'general':
      return (
        <p role="alert" className="pp-notice pp-notice-error">
          {t('callback.failure.general')} <Link to={href(paths.contact())}>{t('callback.failure.contact')}</Link>
        </p>
      );
  }
});

const CallbackForm = observer(function CallbackForm({ store }: { store: CallbackStore }) {
  const { t } = useTranslation();
  const id = useId();
  const fieldId = (field: CallbackField | 'windows-first'): string => `${id}-${field}`;
  const windowsProblemId = `${id}-windows-problem`;
  const windowsHintId = `${id}-windows-hint`;
  const reasonHintId = `${id}-reason-hint`;
  const reasonCounterId = `${id}-reason-counter`;
  const reasonProblemId = `${id}-reason-problem`;
  const problem = (field: CallbackField): string | null => (store.shows(field) ? problemText(t, field) : null);

  async function onSubmit(event: FormEvent): Promise<void> {
    event.preventDefault();
    const first = await store.submit();
    // The first field to fix gets the focus; its message is read out with it.
    if (first !== null) document.getElementById(fieldId(first === 'windows' ? 'windows-first' : first))?.focus();
  }

  const text = (field: 'firstName' | 'lastName' | 'phone') => ({
    id: fieldId(field),
    name: field,
    value: store[field],
    problem: problem(field),
    onChange: (value: string) => store.set(field, value),
    onBlur: () => store.leave(field),
  });

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="pp-form pp-callback-form">
      <div className="pp-callback-names">
        <TextField {...text('firstName')} label={t('callback.firstName')} inputProps={{ autoComplete: 'given-name', maxLength: 100 }} />
        <TextField {...text('lastName')} label={t('callback.lastName')} inputProps={{ autoComplete: 'family-name', maxLength: 100 }} />
      </div>
      <TextField
        {...text('phone')}
        label={t('callback.phone')}
        hint={t('callback.phoneHint')}
        className="pp-input pp-callback-phone"
        inputProps={{ type: 'tel', inputMode: 'tel', autoComplete: 'tel', maxLength: 30 }}
      />
      <fieldset
        className={store.shows('windows') ? 'pp-field pp-field-invalid' : 'pp-field'}
        aria-describedby={[windowsHintId, store.shows('windows') ? windowsProblemId : null].filter(Boolean).join(' ')}
      >
        <legend>{t('callback.windowsLegend')}</legend>
        <p id={windowsHintId} className="pp-field-hint">
          {t('callback.windowsHint')}
        </p>
        {CALLBACK_WINDOWS.map((window, index) => (
          <label key={window} className="pp-choice">
            <input
              type="checkbox"
              name="windows"
              value={window}
              id={index === 0 ? fieldId('windows-first') : undefined}
              checked={store.windows.includes(window)}
              onChange={(event) => store.toggleWindow(window, event.target.checked)}
            />
            {windowLabel(t, window)}
          </label>
        ))}
        {store.shows('windows') && (
          <p id={windowsProblemId} className="pp-field-error">
            {problemText(t, 'windows')}
          </p>
        )}
      </fieldset>
      <div className={store.shows('reason') ? 'pp-field pp-field-invalid' : 'pp-field'}>
        <label htmlFor={fieldId('reason')}>{t('callback.reason')}</label>
        <p id={reasonHintId} className="pp-field-hint">
          {t('callback.reasonHint')}
        </p>
        <textarea
          id={fieldId('reason')}
          name="reason"
          className="pp-input"
          rows={5}
          maxLength={CALLBACK_REASON_MAX}
          value={store.reason}
          aria-invalid={store.shows('reason')}
          aria-describedby={[reasonHintId, reasonCounterId, store.shows('reason') ? reasonProblemId : null].filter(Boolean).join(' ')}
          onChange={(event) => store.set('reason', event.target.value)}
          onBlur={() => store.leave('reason')}
        />
        <p id={reasonCounterId} className="pp-field-hint pp-callback-counter">
          {t('callback.counter', { used: store.reason.length, max: CALLBACK_REASON_MAX })}
        </p>
        {store.shows('reason') && (
          <p id={reasonProblemId} className="pp-field-error">
            {problemText(t, 'reason')}
          </p>
        )}
      </div>
      <Failure store={store} />
      <div className="pp-actions">
        <Button type="submit" disabled={store.sending}>
          {store.sending ? t('callback.sending') : t('callback.submit')}
        </Button>
      </div>
    </form>
  );
});

/** /callback: a patient who is stuck asks the call centre to phone them back (docs/rules/callbacks.md#the-patients-page). */
export const CallbackPage = observer(function CallbackPage() {
  const root = useStores();
  const store = root.featureStore(callbackStoreOf);
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const exam = search.get('exam');
  const textsReady = useCallbackTexts(root.i18n.i18n, root.i18n.locale);

  useEffect(() => {
    store.start(exam);
  }, [store, exam]);

  if (!textsReady) return <LoadingOverlay />;
  return (
    <Page title={t('callback.title')} className="pp-callback">
      {store.received !== null ? (
        <Sent store={store} />
      ) : (
        <>
          <p>{t('callback.intro')}</p>
          {store.examSlug !== null && <p className="pp-callback-exam">{t('callback.examNoted')}</p>}
          <CallbackForm store={store} />
        </>
      )}
    </Page>
  );
});
