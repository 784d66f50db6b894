import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Model, SvgRegistry } from 'survey-core';
import { Survey } from 'survey-react-ui';
// The fontless build: the full one loads Open Sans from Google, which the CSP (font-src 'self') refuses.
import 'survey-core/survey-core.fontless.min.css';
import { readCspNonce } from '../../platform/bootstrap-config';
import { sanitizeHtml } from '../../platform/sanitize';
import { ConfirmDialog, useModalDialog } from '../../components/modal-dialog';
import type { SurveyQuestionnaire } from './questionnaire-store';
import { registerAutocomplete, setAutocompleteLookup, applyAutocompleteRenderers, type AutocompleteLookup } from './autocomplete-question';
import './questionnaires.css';
import { Button } from '../../components/button';
import { useStores } from '../../stores/use-stores';
import { isYesNoChoices, normaliseYesNo, YES_NO_CLASS, type YesNoLabels } from './yes-no-normaliser';
import { surveyThemeVariables } from './survey-theme';

/**
 * This module is the heavy part of questionnaires (SurveyJS, about 250 KB gzipped with its CSS):
 * it is only ever imported lazily (survey-modal-lazy.tsx), when a questionnaire actually opens,
 * so the booking home never downloads it.
 */

// SurveyJS renders its theme variables in <style> elements of its own, which the page's CSP
// (style-src 'self' 'nonce-…') refuses. The model is told not to (generateStylesheet = false) and
// the same CSS goes into one <style> carrying the page's nonce, in the document head.
function ensureThemeStyle(id: string, css: string): void {
  if (typeof document === 'undefined' || !css) return;
  let style = document.head.querySelector<HTMLStyleElement>(`style[data-pp-survey="${id}"]`);
  if (!style) {
    style = document.createElement('style');
    const nonce = readCspNonce(document);
    if (nonce) style.nonce = nonce;
    style.setAttribute('data-pp-survey', id);
    document.head.append(style);
  }
  if (style.textContent !== css) style.textContent = css;
}

// SurveyJS writes its icon symbols into the page as HTML; the timer's carry style attributes,
// which the CSP (no 'unsafe-inline') refuses with a console error. No questionnaire of ours shows
// a timer, so the attributes are dropped before the icons are rendered.
function dropIconStyleAttributes(): void {
  const icons = SvgRegistry.icons as Record<string, string>;
  for (const id of Object.keys(icons)) {
    const icon = icons[id] ?? '';
    if (icon.includes('style=')) icons[id] = icon.replace(/\sstyle="[^"]*"/g, '');
  }
}

export type SurveySubmit = (result: Record<string, unknown>) => Promise<boolean>;

export interface SurveyModalProps {
  questionnaire: SurveyQuestionnaire;
  /** Saves the answer (the survey's data); false keeps the modal open with the error shown. */
  onSubmit: SurveySubmit;
  /** Closing unanswered: the close control shows only when the questionnaire allows it (showClose). */
  onClose?: () => void;
  /** Looks up suggestions for autocomplete questions. */
  lookup?: AutocompleteLookup;
  /** The failure line shown in the modal (message.error_answering_questionnaire or the server's message). */
  error?: string | null;
  /** The survey's interface language (SurveyJS's own buttons and messages). */
  locale?: string;
  /** What the previous questionnaire of the run came to, said at the top of this one (role=status). */
  previousOutcome?: string | null;
  /** Staff answer it for the patient (a staff booking): the dialog says so above the questions. */
  forPatient?: boolean;
}

/** Builds the SurveyJS model: the provider's CSS, progress 'Answered {0} of {1}', completion through onSubmit. */
export function createSurveyModel(
  questionnaire: SurveyQuestionnaire,
  options: {
    progressText: (answered: number, total: number) => string;
    locale?: string;
    /** The texts of a boolean question's choices (yes-no-normaliser.ts). */
    yesNo?: YesNoLabels;
    /** SurveyJS theme variables (survey-theme.ts), set on its root through CSSOM. */
    themeVariables?: Record<string, string>;
    /** The app config's questionnaire CSS. */
    providerCss?: string | null;
  },
): Model {
  registerAutocomplete();
  dropIconStyleAttributes();
  const model = new Model(normaliseYesNo(questionnaire.json, options.yesNo ?? { yes: 'Yes', no: 'No' }));
  applyAutocompleteRenderers(model);
  model.generateStylesheet = false;
  ensureThemeStyle('theme', model.themeStyle);
  if (options.providerCss) ensureThemeStyle('provider', options.providerCss);
  model.onAfterRenderSurvey.add((survey) => ensureThemeStyle('reset', survey.resetVariablesStyle));
  if (options.themeVariables) model.applyTheme({ cssVariables: options.themeVariables });
  // Yes/no questions carry one class, so they look alike whatever the provider's css says.
  model.onUpdateQuestionCssClasses.add((_, event) => {
    const choices = (event.question as { choices?: { value: unknown }[] }).choices;
    if (event.question.getType() === 'radiogroup' && isYesNoChoices(choices?.map((choice) => choice.value))) {
      event.cssClasses.root = `${String(event.cssClasses.root ?? '')} ${YES_NO_CLASS}`;
    }
  });
  model.showCompletedPage = false;
  // The dialog's heading is the title; SurveyJS's header would say it a second time.
  model.showTitle = false;
  if (options.locale) model.locale = options.locale;
  // Progress counts answered questions. The dialog shows it in its own header (useProgress), where
  // no card can cover it; SurveyJS's own bar stays off. A JSON with showProgressBar "off" hides it.
  const progressOff = questionnaire.json.showProgressBar === 'off' || questionnaire.json.showProgressBar === false;
  model.setVariable(PROGRESS_OFF, progressOff);
  model.showProgressBar = false;
  model.progressBarType = 'questions';
  model.onGetProgressText.add((_, event) => {
    event.text = options.progressText(event.answeredQuestionCount, event.questionCount);
  });
  if (questionnaire.showPreviousButtonOnLastPageEnabled === false) {
    model.onCurrentPageChanged.add((survey) => {
      survey.showPrevButton = !survey.isLastPage;
    });
  }
  if (Object.keys(questionnaire.css).length > 0) model.setCss(questionnaire.css, true);
  // HTML from the provider's configuration (html questions, completed page): sanitised here
  // too, after the server, so a mistake on one side is not an XSS.
  model.onProcessHtml.add((_, event) => {
    event.html = sanitizeHtml(event.html);
  });
  return model;
}

const PROGRESS_OFF = 'ppProgressOff';

/** The survey's progress as answered and total questions, kept current as answers change. */
function useProgress(model: Model): { answered: number; total: number } | null {
  const read = () => {
    if (model.getVariable(PROGRESS_OFF) === true) return null;
    const info = model.getProgressInfo();
    return { answered: info.answeredQuestionCount, total: info.questionCount };
  };
  const [progress, setProgress] = useState(read);
  useEffect(() => {
    const update = () => setProgress(read());
    model.onValueChanged.add(update);
    model.onCurrentPageChanged.add(update);
    model.onPageVisibleChanged.add(update);
    update();
    return () => {
      model.onValueChanged.remove(update);
      model.onCurrentPageChanged.remove(update);
      model.onPageVisibleChanged.remove(update);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [model]);
  return progress;
}

/** How many of the questions are answered, in words and as a bar. */
function SurveyProgress({ id, answered, total }: { id: string; answered: number; total: number }) {
  const { t } = useTranslation();
  return (
    <div className="pp-survey-progress">
      <span id={id}>{t('questionnaire.progress', { answered, total })}</span>
      <progress value={answered} max={total} aria-labelledby={id} />
    </div>
  );
}

/** Above the questions: that staff fill it in for the patient, the last outcome, and a failed save. */
function SurveyNotices(props: {
  forPatient: boolean;
  previousOutcome: SurveyModalProps['previousOutcome'];
  error: SurveyModalProps['error'];
}) {
  const { forPatient, previousOutcome, error } = props;
  const { t } = useTranslation();
  return (
    <>
      {forPatient && (
        <p className="pp-notice pp-survey-for-patient" data-for-patient>
          {t('questionnaire.forPatient')}
        </p>
      )}
      {previousOutcome && (
        <p role="status" className="pp-notice pp-notice-success pp-survey-previous">
          {previousOutcome}
        </p>
      )}
      {error && (
        <p role="alert" className="pp-notice pp-notice-error">
          {error}
        </p>
      )}
    </>
  );
}

/**
 * The questionnaire survey modal (docs/rules/questionnaires.md#survey-modal): the questionnaire's size, a static backdrop (a
 * click beside it does nothing), no keyboard close (Escape does nothing), a close button only
 * when closing is allowed; with showClosingConfirmation the close asks yes/no first.
 */
export default function SurveyModal({
  questionnaire,
  onSubmit,
  onClose,
  lookup,
  error,
  locale,
  previousOutcome,
  forPatient = false,
}: SurveyModalProps) {
  const { t } = useTranslation();
  const { config } = useStores();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [confirming, setConfirming] = useState(false);
  const model = useMemo(() => {
    return createSurveyModel(questionnaire, {
      progressText: (answered, total) => t('questionnaire.progress', { answered, total }),
      locale,
      yesNo: { yes: t('questionnaire.yes'), no: t('questionnaire.no') },
      themeVariables: surveyThemeVariables(config.theme, config.app.questionnaireTheme),
      providerCss: config.app.questionnaireCss,
    });
    // One model per questionnaire.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [questionnaire]);

  // Completing saves first: the survey completes only when the answer was saved.
  useEffect(() => {
    const handler = async (sender: Model, options: { allow: boolean }) => {
      options.allow = await onSubmit(sender.data as Record<string, unknown>);
    };
    model.onCompleting.add(handler);
    return () => model.onCompleting.remove(handler);
  }, [model, onSubmit]);

  useEffect(() => setAutocompleteLookup(lookup ?? null), [lookup]);
  const progress = useProgress(model);

  useModalDialog(ref);

  const closable = questionnaire.showClose && onClose !== undefined;
  const close = () => {
    if (!onClose) return;
    if (questionnaire.showClosingConfirmation) setConfirming(true);
    else onClose();
  };

  const size = questionnaire.modalSize;
  return (
    <dialog
      ref={ref}
      className={`pp-dialog pp-survey-dialog pp-survey-${size}`}
      aria-modal="true"
      aria-labelledby={titleId}
      data-questionnaire-type={questionnaire.type}
      // Static: Escape never closes it (the questionnaire needs an answer).
      onCancel={(event) => event.preventDefault()}
    >
      <div className="pp-survey-head">
        <div className="pp-survey-heading">
          <h2 id={titleId} className="pp-dialog-title">
            {questionnaire.title}
          </h2>
          {progress && progress.total > 0 && (
            <SurveyProgress id={`${titleId}-progress`} answered={progress.answered} total={progress.total} />
          )}
        </div>
        {closable && (
          <Button variant="secondary" className="pp-survey-close" onClick={close}>
            {t('action.close')}
          </Button>
        )}
      </div>
      <SurveyNotices forPatient={forPatient} previousOutcome={previousOutcome} error={error} />
      <div className="pp-survey-body">
        {model.description && <p className="pp-survey-description">{model.description}</p>}
        <Survey model={model} />
      </div>
      {confirming && onClose && (
        <ConfirmDialog
          title={t('questionnaire.closeConfirm.title')}
          text={t('questionnaire.closeConfirm.text')}
          yes={t('questionnaire.closeConfirm.yes')}
          no={t('questionnaire.closeConfirm.no')}
          onYes={() => {
            setConfirming(false);
            onClose();
          }}
          onNo={() => setConfirming(false)}
        />
      )}
    </dialog>
  );
}
