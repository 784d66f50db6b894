import type { TFunction } from 'i18next';
import { observer } from 'mobx-react-lite';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { GlossaryTerm } from '@contract/api/results-glossary';
import { useStores } from '../../stores/use-stores';
import type { TermMatcher } from './glossary-match';
import { glossaryStoreOf } from './glossary-store';
import { parseReport, type ReportSection, type ReportSectionKind } from './report-sections';
import './readable-report.css';

/**
 * The report as a patient reads it (docs/rules/results.md#reading-the-report): the
 * radiologist's conclusion first, set apart, then the findings and the rest under plain headings;
 * the glossary's terms explained on tap, hover or focus. Text only: React escapes it, never HTML.
 */

/** Sentence-case headings; literal keys so every locale is checked. */
function sectionTitle(t: TFunction, kind: ReportSectionKind): string | null {
  switch (kind) {
    case 'impression':
      return t('results.report.sections.impression');
    case 'findings':
      return t('results.report.sections.findings');
    case 'history':
      return t('results.report.sections.history');
    case 'technique':
      return t('results.report.sections.technique');
    case 'comparison':
      return t('results.report.sections.comparison');
    case 'recommendation':
      return t('results.report.sections.recommendation');
    case 'comment':
      return t('results.report.sections.comment');
    case 'addendum':
      return t('results.report.sections.addendum');
    case 'preamble':
      return null;
  }
}

/**
 * A term of the glossary: a button that opens its definition. Tap or click pins it open (tap
 * again closes); a mouse hover and keyboard focus show it while they last; Escape closes it.
 */
function TermDisclosure({ text, term }: { text: string; term: GlossaryTerm }) {
  const { t } = useTranslation();
  const id = useId();
  const [pinned, setPinned] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  // Focus that a tap brings is not keyboard focus: the tap's click decides.
  const pointerDown = useRef(false);
  const open = pinned || hovered || focused;

  const closeAll = () => {
    setPinned(false);
    setHovered(false);
    setFocused(false);
  };
  const close = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return;
    event.stopPropagation();
    closeAll();
  };
  const mouseOnly = (change: boolean) => (event: PointerEvent) => {
    if (event.pointerType === 'mouse') setHovered(change);
  };

  return (
    <span className="pp-term" onPointerEnter={mouseOnly(true)} onPointerLeave={mouseOnly(false)}>
      <button
        type="button"
        className="pp-term-button"
        aria-expanded={open}
        aria-controls={id}
        aria-label={t('results.glossary.explain', { term: text })}
        onPointerDown={() => (pointerDown.current = true)}
        onFocus={() => {
          if (!pointerDown.current) setFocused(true);
          pointerDown.current = false;
        }}
        onBlur={() => {
          setFocused(false);
          setPinned(false);
        }}
        onClick={() => {
          // A toggle: open (however it opened) closes, closed opens and stays until tapped again.
          if (open) closeAll();
          else setPinned(true);
        }}
        onKeyDown={close}
      >
        {text}
      </button>
      <span id={id} className="pp-term-definition" role="note" hidden={!open} data-testid="glossary-definition">
        {/* The term as a sentence starts: its first letter only ("Fat-saturated", "Baker's cyst"). */}
        <strong>{term.term.charAt(0).toLocaleUpperCase() + term.term.slice(1)}</strong> {term.definition}
      </span>
    </span>
  );
}

function Paragraphs({ section, matcher }: { section: ReportSection; matcher: TermMatcher | null }) {
  // A term is explained once per section: the first mention.
  const seen = new Set<string>();
  return (
    <>
      {section.paragraphs.map((paragraph, index) => (
        <p key={index}>
          {matcher === null
            ? paragraph
            : matcher
                .split(paragraph, seen)
                .map((piece, at) => (typeof piece === 'string' ? piece : <TermDisclosure key={at} text={piece.text} term={piece.term} />))}
        </p>
      ))}
    </>
  );
}

function Section({ section, matcher, level }: { section: ReportSection; matcher: TermMatcher | null; level: 3 | 4 }) {
  const { t } = useTranslation();
  const titleId = useId();
  const title = sectionTitle(t, section.kind);
  const Heading = level === 3 ? 'h3' : 'h4';
  return (
    <section className="pp-report-section" data-section={section.kind} aria-labelledby={title === null ? undefined : titleId}>
      {title !== null && <Heading id={titleId}>{title}</Heading>}
      <Paragraphs section={section} matcher={matcher} />
    </section>
  );
}

/**
 * @param level - the heading level of the report's parts (3 on the result page, 4 inside a list item).
 */
export const ReadableReport = observer(function ReadableReport({ text, level = 3 }: { text: string; level?: 3 | 4 }) {
  const { t } = useTranslation();
  const glossary = useStores().featureStore(glossaryStoreOf);
  const impressionId = useId();
  const report = useMemo(() => parseReport(text), [text]);
  const { matcher } = glossary;

  useEffect(() => {
    void glossary.load();
  }, [glossary]);

  const Heading = level === 3 ? 'h3' : 'h4';
  return (
    <div className="pp-report" data-testid="report-text">
      {report.impression !== null && (
        <section className="pp-report-impression" data-testid="report-impression" aria-labelledby={impressionId}>
          <Heading id={impressionId}>{t('results.report.conclusion')}</Heading>
          <Paragraphs section={report.impression} matcher={matcher} />
        </section>
      )}
      {matcher !== null && <p className="pp-muted pp-report-glossary-hint">{t('results.glossary.hint')}</p>}
      {report.sections.map((section, index) => (
        <Section key={index} section={section} matcher={matcher} level={level} />
      ))}
    </div>
  );
});
