import { observer } from 'mobx-react-lite';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { UPLOAD_ACCEPT_ATTRIBUTE, UPLOAD_CONTENT_TYPES } from '@contract/api/attachments';
import { useChatTexts } from './chat-texts';
import { paths } from '../../paths';
import { usePortalHref } from '../../shell/embedded';
import { useStores } from '../../stores/use-stores';
import type { ChatLine } from './chat-lines';
import { choiceLabel, sayText, timeLabel } from './chat-say';
import { chatStoreOf } from './chat-store-of';
import { ChatSummary } from './chat-summary';
import type { ChatStore } from './chat-store';
import './chat.css';
import { PATIENT_AUTOCOMPLETE } from '../../components/patient-autocomplete';

const ACCEPT = UPLOAD_CONTENT_TYPES.map((type) => UPLOAD_ACCEPT_ATTRIBUTE[type]).join(',');

const Line = observer(function Line({ line, store }: { line: ChatLine; store: ChatStore }) {
  const { t } = useTranslation();
  const href = usePortalHref();
  if (line.from === 'patient') {
    return (
      <li className="pp-chat-line pp-chat-from-patient">
        <span className="pp-visually-hidden">{t('chat.you')} </span>
        {line.text}
      </li>
    );
  }
  if (line.from === 'file') {
    const { file } = line;
    const fileName = file.file.name;
    return (
      <li className="pp-chat-line pp-chat-from-assistant pp-chat-file" data-status={file.status}>
        {file.status === 'queued' && t('chat.file.queued', { fileName })}
        {file.status === 'sending' && t('chat.file.sending', { fileName })}
        {file.status === 'sent' && t('chat.file.sent', { fileName })}
        {file.status === 'failed' && t('chat.file.failed', { fileName, problem: file.problem ?? '' })}
        {(file.status === 'sending' || file.status === 'queued') && (
          <progress max={100} value={file.percent} aria-label={t('chat.file.sending', { fileName })} />
        )}
      </li>
    );
  }
  const { say } = line;
  return (
    <li className="pp-chat-line pp-chat-from-assistant">
      <span className="pp-visually-hidden">{t('chat.assistant')} </span>
      {sayText(t, say)}
      {say.key === 'noMatch' && (
        <span className="pp-chat-links">
          <Link to={href(paths.home())}>{t('chat.link.booking')}</Link>
          <Link to={href(paths.contact())}>{t('chat.link.contact')}</Link>
        </span>
      )}
      {say.key === 'summary' && <ChatSummary store={store} />}
      {say.key === 'sent' && store.sentKey !== null && (
        <span className="pp-chat-links">
          <Link to={href(paths.bookingRequest(store.sentKey))}>{t('chat.link.request')}</Link>
        </span>
      )}
    </li>
  );
});

/** Tab from the last control goes to the first, Shift+Tab from the first to the last. */
function keepTabInside(event: KeyboardEvent<HTMLElement>): void {
  const focusable = [...event.currentTarget.querySelectorAll<HTMLElement>('button, input:not([tabindex="-1"]), a[href], [tabindex="0"]')];
  const first = focusable[0];
  const last = focusable.at(-1);
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last?.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first?.focus();
  }
}

/** The assistant is writing: three dots and the words for a screen reader. */
function Typing() {
  const { t } = useTranslation();
  return (
    <p className="pp-chat-typing">
      <span className="pp-chat-dots" aria-hidden="true">
        <span />
        <span />
        <span />
      </span>
      {t('chat.typing')}
    </p>
  );
}

/**
 * The chat panel (docs/rules/chat.md#the-panel): a full-screen sheet on a phone, a panel at the
 * bottom right on a desktop. Focus moves to the answer field on open; Escape closes; the log is a
 * polite live region, so each new line is read out.
 */
const ChatPanel = observer(function ChatPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  const root = useStores();
  const store = root.featureStore(chatStoreOf);
  const ready = useChatTexts(root.i18n.i18n, root.i18n.locale);
  const { t } = useTranslation();
  const headingId = useId();
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const logRef = useRef<HTMLDivElement>(null);
  const [text, setText] = useState('');

  useEffect(() => {
    if (!open || !ready) return;
    store.open();
    inputRef.current?.focus();
  }, [open, ready, store]);

  // The newest line in view.
  const lineCount = store.lines.length;
  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [lineCount, store.typing]);

  if (!ready) return null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = text;
    setText('');
    void store.answer(typed);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
    }
    // The phone's sheet covers the page (aria-modal): Tab goes round inside it.
    if (event.key === 'Tab' && root.ui.isMobile) keepTabInside(event);
  };
  const asking = store.step === 'contact' ? store.contactField : null;

  return (
    <section
      className="pp-chat"
      role="dialog"
      aria-labelledby={headingId}
      aria-modal={root.ui.isMobile ? true : undefined}
      hidden={!open}
      onKeyDown={onKeyDown}
    >
      <header className="pp-chat-head">
        <h2 id={headingId}>{t('chat.title')}</h2>
        <button type="button" className="pp-chat-close" aria-label={t('chat.close')} onClick={onClose}>
          <svg aria-hidden="true" focusable="false" width="20" height="20" viewBox="0 0 24 24">
            <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
          </svg>
        </button>
      </header>
      <div ref={logRef} className="pp-chat-log" role="log" aria-live="polite" aria-label={t('chat.log')} tabIndex={0}>
        <p className="pp-chat-intro">{t('chat.intro')}</p>
        <ol className="pp-chat-lines">
          {store.lines.map((line) => (
            <Line key={line.id} line={line} store={store} />
          ))}
        </ol>
        {store.typing && <Typing />}
      </div>
      {store.choices.length > 0 && (
        <div className="pp-chat-choices" role="group" aria-label={t('chat.choices')}>
          {store.choices.map((choice) => {
            const label = choiceLabel(t, choice);
            const key = `${choice.kind}-${label}`;
            return (
              <button
                key={key}
                type="button"
                className="pp-chat-choice"
                aria-pressed={choice.kind === 'time' ? choice.pressed : undefined}
                onClick={() => {
                  if (choice.kind === 'upload') fileRef.current?.click();
                  else inputRef.current?.focus();
                  // "Continue" after the times echoes the times chosen: the conversation reads as what was said.
                  const echo =
                    choice.kind === 'timesDone' && store.times.length > 0
                      ? store.times.map((time) => timeLabel(t, time)).join(', ')
                      : label;
                  void store.choose(choice, echo);
                }}
              >
                {label}
              </button>
            );
          })}
        </div>
      )}
      <form className="pp-chat-form" onSubmit={submit} noValidate>
        <label htmlFor={inputId} className="pp-visually-hidden">
          {t('chat.input.label')}
        </label>
        <input
          ref={inputRef}
          id={inputId}
          className="pp-chat-input"
          type="text"
          value={text}
          autoComplete={asking === null ? 'off' : PATIENT_AUTOCOMPLETE[asking]}
          placeholder={t('chat.input.label')}
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit" className="pp-chat-send">
          {t('chat.input.send')}
        </button>
      </form>
      <input
        ref={fileRef}
        className="pp-visually-hidden"
        type="file"
        multiple
        accept={ACCEPT}
        tabIndex={-1}
        aria-label={t('chat.choice.upload')}
        onChange={(event) => {
          store.pickFiles([...(event.target.files ?? [])]);
          event.target.value = '';
          inputRef.current?.focus();
        }}
      />
    </section>
  );
});

export default ChatPanel;
