import { observer } from 'mobx-react-lite';
import { useEffect, useRef, type FormEvent, type InputHTMLAttributes, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import type { TFunction } from 'i18next';
import { useEmbedded, useHomeHref } from '../../shell/embedded';
import { Page } from '../../components/page';
import { PatientSignInStore, type SignInError, type SignInField, type SignInProblem } from './patient-sign-in-store';
import { useStores } from '../../stores/use-stores';
import { readAuthenticationParams } from './authentication-params';
import './authentication.css';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';
import { useSignInTexts } from './sign-in-texts';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { readShareToken, sessionStorageOf } from '../../platform/share-token';
import { patientAccessStoreOf } from './patient-access-store';

const ERROR_ID = 'auth-error';

/** The failure in words; every key literal so the catalogue check sees it. */
function errorText(t: TFunction, error: SignInError): string {
  switch (error.kind) {
    case 'cookies':
      return t('message.authentication_cookies_error');
    case 'authentication':
      return t('message.authentication_error');
    case 'otp':
      return t('message.authentication_otp_error');
    case 'otpExpired':
      return t('authentication.errors.otpExpired');
    case 'sessionExpired':
      return t('authentication.errors.sessionExpired');
    case 'tooManyRequests':
      return t('authentication.errors.tooManyRequests');
    case 'slowDown':
      return t('authentication.errors.slowDown', { count: error.seconds });
    case 'noChannel':
      return t('authentication.errors.noChannel');
    case 'server':
      return error.message;
  }
}

function problemText(t: TFunction, field: SignInField, problem: SignInProblem): string {
  if (field === 'contactNumber') return t('authentication.problems.contactNumber');
  if (field === 'code')
    return problem === 'required' ? t('authentication.problems.codeRequired') : t('authentication.problems.codeInvalid');
  if (problem === 'required') return t('authentication.problems.dateOfBirthRequired');
  if (problem === 'future') return t('authentication.problems.dateOfBirthFuture');
  return t('authentication.problems.dateOfBirthInvalid');
}

/** The field a failure is about, so its message is tied to that input (aria-describedby). */
function errorField(error: SignInError | null): SignInField | null {
  if (!error) return null;
  if (error.kind === 'otp' || error.kind === 'otpExpired') return 'code';
  if (error.kind === 'authentication' || error.kind === 'sessionExpired' || error.kind === 'cookies') return 'dateOfBirth';
  return null;
}

/**
 * Pressing a submit button would first blur the field, whose message then appears and pushes the
 * button down before the mouse is released, so the click would miss it. Keeping the focus in the
 * field until the click lands avoids that; the submit then shows every problem at once.
 */
function keepFieldFocus(event: MouseEvent<HTMLButtonElement>): void {
  event.preventDefault();
}

const AuthenticatingLoader = () => {
  const { t } = useTranslation();
  return (
    <div className="pp-auth-loader" role="status">
      <span className="pp-spinner" aria-hidden="true" />
      <span>{t('authentication.authenticating')}</span>
    </div>
  );
};

const ErrorNotice = observer(function ErrorNotice({ store }: { store: PatientSignInStore }) {
  const { t } = useTranslation();
  if (!store.error) return null;
  return (
    <div id={ERROR_ID} className="pp-notice pp-notice-error" role="alert">
      {errorText(t, store.error)}
    </div>
  );
});

interface SignInTextFieldProps {
  store: PatientSignInStore;
  field: SignInField;
  label: string;
  hint?: string;
  value: string;
  onChange: (value: string) => void;
  inputProps: InputHTMLAttributes<HTMLInputElement>;
  className: string;
}

const SignInTextField = observer(function SignInTextField({
  store,
  field,
  label,
  hint,
  value,
  onChange,
  inputProps,
  className,
}: SignInTextFieldProps) {
  const { t } = useTranslation();
  const problem = store.visibleProblem(field);
  return (
    <TextField
      id={`auth-${field}`}
      name={field}
      label={label}
      hint={hint}
      value={value}
      problem={problem ? problemText(t, field, problem) : null}
      alsoDescribedBy={store.error && errorField(store.error) === field ? ERROR_ID : null}
      onChange={onChange}
      onBlur={() => store.touch(field)}
      inputProps={inputProps}
      className={className}
    />
  );
});

/** Step 1: date of birth and optional contact number (docs/rules/patient-access.md#sign-in). */
const DetailsForm = observer(function DetailsForm({ store }: { store: PatientSignInStore }) {
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  const staff = store.staffBooking;
  const shared = store.shared;

  const focusField = (field: SignInField) => formRef.current?.querySelector<HTMLElement>(`#auth-${field}`)?.focus();

  // Back from a later step (or sent back by a failure): the first field has the focus again.
  useEffect(() => {
    if (store.touched.dateOfBirth) focusField('dateOfBirth');
  }, [store]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    // Nothing is sent unless both fields are valid; the focus goes to the first problem.
    const done = await store.submitDetails();
    const first = store.firstInvalidDetail;
    if (first) focusField(first);
    else if (!done && store.step === 'details' && store.error) focusField(errorField(store.error) ?? 'dateOfBirth');
  };

  return (
    <form ref={formRef} className="pp-auth-panel" noValidate onSubmit={(event) => void onSubmit(event)} aria-busy={store.loading}>
      <p>
        {shared
          ? t('authentication.introShared')
          : staff
            ? t('authentication.introStaff')
            : store.results
              ? t('authentication.introResults')
              : t('authentication.intro')}
      </p>
      <SignInTextField
        store={store}
        field="dateOfBirth"
        label={
          shared
            ? t('authentication.fields.dateOfBirthShared')
            : staff
              ? t('authentication.fields.dateOfBirthStaff')
              : t('authentication.fields.dateOfBirth')
        }
        value={store.dateOfBirth}
        onChange={(value) => store.setDateOfBirth(value)}
        className="pp-input pp-input-short"
        inputProps={{
          type: 'date',
          max: store.today,
          min: '1900-01-01',
          required: true,
          'aria-required': true,
          autoComplete: shared ? 'off' : 'bday',
        }}
      />
      {!store.shareLink && (
        <SignInTextField
          store={store}
          field="contactNumber"
          label={staff ? t('authentication.fields.contactNumberStaff') : t('authentication.fields.contactNumber')}
          hint={t('authentication.hints.contactNumber')}
          value={store.contactNumber}
          onChange={(value) => store.setContactNumber(value)}
          className="pp-input pp-input-short"
          inputProps={{ type: 'tel', inputMode: 'numeric', autoComplete: shared ? 'off' : 'tel-national' }}
        />
      )}
      <div className="pp-actions">
        <Button type="submit" aria-disabled={store.loading} onMouseDown={keepFieldFocus}>
          {t('authentication.submit')}
        </Button>
      </div>
    </form>
  );
});

/** Step 2a: where the code goes, when the server offers both e-mail and SMS. */
const ChannelForm = observer(function ChannelForm({ store }: { store: PatientSignInStore }) {
  const { t } = useTranslation();
  const firstRef = useRef<HTMLInputElement>(null);
  useEffect(() => firstRef.current?.focus(), []);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void store.sendOtp();
  };
  return (
    <form className="pp-auth-panel" noValidate onSubmit={onSubmit} aria-busy={store.loading}>
      <fieldset className="pp-field">
        <legend>{store.staffBooking ? t('authentication.channel.legendStaff') : t('authentication.channel.legend')}</legend>
        {store.otpChannels.map((channel, index) => (
          <label key={channel} className="pp-choice">
            <input
              ref={index === 0 ? firstRef : undefined}
              type="radio"
              name="otp-channel"
              value={channel}
              checked={store.channel === channel}
              onChange={() => store.setChannel(channel)}
            />
            {channel === 'EMAIL' ? t('authentication.channel.email') : t('authentication.channel.sms')}
          </label>
        ))}
      </fieldset>
      <div className="pp-actions">
        <Button type="submit" aria-disabled={store.loading}>
          {t('authentication.channel.send')}
        </Button>
        <Button variant="secondary" onClick={() => store.backToDetails()}>
          {t('authentication.code.back')}
        </Button>
      </div>
    </form>
  );
});

/** Step 2b: the six-digit code, with a resend that waits the configured seconds (docs/rules/patient-access.md#one-time-password). */
const CodeForm = observer(function CodeForm({ store }: { store: PatientSignInStore }) {
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  const focusCode = () => formRef.current?.querySelector<HTMLElement>('#auth-code')?.focus();
  useEffect(focusCode, []);
  const waiting = store.resendSeconds > 0;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!store.codeValid) {
      store.touch('code');
      focusCode();
      return;
    }
    const done = await store.verifyOtp();
    if (!done && store.step === 'code') focusCode();
  };

  return (
    <form ref={formRef} className="pp-auth-panel" noValidate onSubmit={(event) => void onSubmit(event)} aria-busy={store.loading}>
      {store.destination && (
        <p>
          {store.staffBooking
            ? t('authentication.code.sentStaff', { destination: store.destination })
            : t('authentication.code.sent', { destination: store.destination })}
        </p>
      )}
      <SignInTextField
        store={store}
        field="code"
        label={t('authentication.code.label')}
        hint={t('authentication.code.hint')}
        value={store.code}
        onChange={(value) => store.setCode(value)}
        className="pp-input pp-input-code"
        inputProps={{
          type: 'text',
          inputMode: 'numeric',
          autoComplete: 'one-time-code',
          pattern: '[0-9]*',
          required: true,
          'aria-required': true,
        }}
      />
      <div className="pp-actions">
        <Button type="submit" aria-disabled={store.loading} onMouseDown={keepFieldFocus}>
          {t('authentication.code.verify')}
        </Button>
        <Button
          variant="secondary"
          disabled={waiting || store.loading}
          aria-describedby={waiting ? 'auth-resend-wait' : undefined}
          onClick={() => void store.sendOtp()}
        >
          {t('authentication.code.resend')}
        </Button>
        <Button variant="secondary" onClick={() => store.backToDetails()}>
          {t('authentication.code.back')}
        </Button>
      </div>
      {waiting && (
        <p id="auth-resend-wait" className="pp-muted">
          {t('authentication.code.resendIn', { count: store.resendSeconds })}
        </p>
      )}
    </form>
  );
});

const AuthenticationView = observer(function AuthenticationView() {
  const { t } = useTranslation();
  const store = useStores().featureStore(patientAccessStoreOf).signIn(PatientSignInStore);
  const home = useHomeHref();
  const title = store.shared
    ? t('authentication.titleShared')
    : store.staffBooking
      ? t('authentication.titleStaff')
      : store.results
        ? t('authentication.titleResults')
        : t('authentication.title');
  const busy = store.step === 'checking' || store.step === 'done';

  return (
    <Page title={title} className="pp-auth">
      {!store.cookiesEnabled && (
        <div className="pp-notice pp-notice-error pp-cookies-banner" role="alert">
          {t('authentication.cookiesBanner')}
        </div>
      )}
      {store.missingBooking ? (
        <>
          <p>{t('authentication.missingBooking')}</p>
          <p>
            <Link to={home}>{t('action.goHome')}</Link>
          </p>
        </>
      ) : busy ? (
        <AuthenticatingLoader />
      ) : (
        <>
          <ErrorNotice store={store} />
          {store.step === 'details' && <DetailsForm store={store} />}
          {store.step === 'channel' && <ChannelForm store={store} />}
          {store.step === 'code' && <CodeForm store={store} />}
          {store.loading && <AuthenticatingLoader />}
        </>
      )}
    </Page>
  );
});

/** /authentication (docs/rules/patient-access.md#authentication-page): sign in to a booking, then back to where the patient was. */
export const AuthenticationPage = observer(function AuthenticationPage() {
  const root = useStores();
  const { i18n } = root;
  const textsReady = useSignInTexts(i18n.i18n, i18n.locale);
  const store = root.featureStore(patientAccessStoreOf).signIn(PatientSignInStore);
  const [searchParams] = useSearchParams();
  const embedded = useEmbedded();
  const search = searchParams.toString();

  useEffect(() => {
    const query = new URLSearchParams(search);
    void store.start(readAuthenticationParams(query, embedded, readShareToken(sessionStorageOf(window))));
    return () => store.dispose();
  }, [store, search, embedded]);

  // The session check above runs while the page's texts arrive.
  if (!textsReady) return <LoadingOverlay />;
  return <AuthenticationView />;
});
