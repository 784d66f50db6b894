/** @jsxRuntime automatic @jsxImportSource react */
import { Img, Section, Text } from '@react-email/components';
import type { MailBrand } from './brand';
import { Action, H, Lines, MailLayout, P, paragraph } from './layout';
import { QuestionnairesBlock } from './questionnaires-block';
import type { MailWords } from './words';

/** The booking confirmation's body (booking-confirmation.ts gathers the facts and the attachments). */

export interface ConfirmationView {
  lang: string;
  subject: string;
  name: string;
  intro: string;
  visits: Array<{ title: string; when: string; notes: string | null }>;
  walkInLines: string[];
  clinicLines: string[];
  clinicPhone: string | null;
  link: string;
  /** The questionnaires due before the visit and the link that answers them, or null. */
  questionnaires: { titles: string[]; link: string } | null;
  bookingCode: string;
  image: { src: string; size: number } | null;
}

export function BookingConfirmationMail(props: { brand: MailBrand; words: MailWords; view: ConfirmationView }) {
  const { brand, words, view } = props;
  const w = words.confirmation;
  return (
    <MailLayout brand={brand} words={words} lang={view.lang} title={view.subject} preview={view.intro} phone={view.clinicPhone}>
      <P>{words.common.dear(view.name)}</P>
      <P>{view.intro}</P>
      <H>{w.heading}</H>
      {view.visits.map((visit, index) => (
        <Section key={index} style={{ borderLeft: `4px solid ${brand.colour}`, padding: '4px 0 4px 12px', margin: '0 0 12px' }}>
          <Text style={{ ...paragraph, margin: '0 0 4px', fontWeight: 700 }}>{visit.title}</Text>
          <Text style={{ ...paragraph, margin: 0 }}>{visit.when}</Text>
          {visit.notes === null ? null : (
            <Lines lines={[w.preparation, ...visit.notes.split(/\r\n|\r|\n/)]} style={{ margin: '8px 0 0' }} />
          )}
        </Section>
      ))}
      {view.walkInLines.length === 0 ? null : <Lines lines={view.walkInLines} />}
      <H>{words.common.clinic}</H>
      <Lines lines={view.clinicLines} />
      <P>{w.manage}</P>
      <Action brand={brand} href={view.link} label={w.button} />
      {view.questionnaires === null ? null : (
        <QuestionnairesBlock
          brand={brand}
          view={{ ...view.questionnaires, heading: w.questionnairesHeading, intro: w.questionnairesIntro, button: w.questionnairesButton }}
        />
      )}
      <H>{w.codeHeading}</H>
      {view.image === null ? null : (
        <Img
          src={view.image.src}
          width={view.image.size}
          height={view.image.size}
          alt={w.codeAlt(view.bookingCode)}
          style={{ display: 'block' }}
        />
      )}
      <Text
        style={{
          ...paragraph,
          margin: '8px 0 4px',
          fontFamily: "'Courier New', Courier, monospace",
          fontSize: '18px',
          letterSpacing: '1px',
        }}
      >
        {`${w.codeHeading}: ${view.bookingCode}`}
      </Text>
      <P>{w.codeCaption}</P>
      <P>{w.cannotAttend}</P>
      <P>{w.icsAttached}</P>
    </MailLayout>
  );
}
