/** @jsxRuntime automatic @jsxImportSource react */
import { Section, Text } from '@react-email/components';
import type { MailBrand } from './brand';
import { Action, Choices, H, Lines, MailLayout, P, paragraph } from './layout';
import { QuestionnairesBlock, type QuestionnairesView } from './questionnaires-block';
import type { MailWords } from './words';

/**
 * The shape most mails share: a greeting, what happened, the things it is about, one action and
 * what to know next. Each kind (mail-kinds.ts) fills it with its own words.
 */
export interface NoticeView {
  lang: string;
  subject: string;
  greeting: string;
  intro: string[];
  /** The appointments or exams it is about: a bold first line, then details. */
  items?: Array<{ title: string; lines?: string[] }>;
  /** A code set apart in large type (the one-time password). */
  code?: string;
  /** Someone's own words, quoted as they wrote them (a share's note). */
  quote?: { label: string; text: string };
  /** A timed plan under a heading (a reminder's "Your day"), after the appointments. */
  plan?: { heading: string; lines: string[] };
  /** Answers the patient chooses between (a reminder's), before the main action. */
  choices?: { lead: string; options: Array<{ href: string; label: string }> };
  action?: { lead?: string; href: string; label: string };
  after: string[];
  /** Questionnaires due now, after the main action and what to know (the after-visit ones in the results mail). */
  questionnaires?: QuestionnairesView;
  /** The clinic's phone for questions, in the footer. */
  phone?: string | null;
}

export function NoticeMail(props: { brand: MailBrand; words: MailWords; view: NoticeView }) {
  const { brand, words, view } = props;
  return (
    <MailLayout
      brand={brand}
      words={words}
      lang={view.lang}
      title={view.subject}
      preview={view.intro[0] ?? view.subject}
      phone={view.phone ?? null}
    >
      <P>{view.greeting}</P>
      {view.intro.map((line, index) => (
        <P key={index}>{line}</P>
      ))}
      {view.code === undefined ? null : (
        <Text
          data-skip-in-text="true"
          style={{ ...paragraph, fontSize: '32px', lineHeight: '40px', fontWeight: 700, letterSpacing: '6px', margin: '8px 0 16px' }}
        >
          {view.code}
        </Text>
      )}
      {(view.items ?? []).map((item, index) => (
        <Section key={index} style={{ borderLeft: `4px solid ${brand.colour}`, padding: '4px 0 4px 12px', margin: '0 0 12px' }}>
          <Text style={{ ...paragraph, margin: 0, fontWeight: 700 }}>{item.title}</Text>
          {item.lines === undefined || item.lines.length === 0 ? null : <Lines lines={item.lines} style={{ margin: '4px 0 0' }} />}
        </Section>
      ))}
      {view.quote === undefined ? null : (
        <Section style={{ backgroundColor: '#f3f5f7', padding: '8px 12px', margin: '0 0 12px', borderRadius: '6px' }}>
          <Lines lines={[view.quote.label, ...view.quote.text.split(/\r\n|\r|\n/)]} style={{ margin: 0 }} />
        </Section>
      )}
      {view.plan === undefined ? null : (
        <>
          <H>{view.plan.heading}</H>
          <Lines lines={view.plan.lines} style={{ margin: '0 0 12px' }} />
        </>
      )}
      {view.choices === undefined ? null : (
        <>
          <P>{view.choices.lead}</P>
          <Choices brand={brand} options={view.choices.options} />
        </>
      )}
      {view.action === undefined ? null : (
        <>
          {view.action.lead === undefined ? null : <P>{view.action.lead}</P>}
          <Action brand={brand} href={view.action.href} label={view.action.label} />
        </>
      )}
      {view.after.map((line, index) => (
        <P key={index}>{line}</P>
      ))}
      {view.questionnaires === undefined ? null : <QuestionnairesBlock brand={brand} view={view.questionnaires} />}
    </MailLayout>
  );
}
