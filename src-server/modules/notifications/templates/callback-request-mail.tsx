/** @jsxRuntime automatic @jsxImportSource react */
import { Link, Section, Text } from '@react-email/components';
import type { SupportedLocale } from '@contract/api/locales';
import { oneLineSubject } from '../../../platform/outbox/outbox-repository';
import type { MailBrand } from './brand';
import { mailDates, wordsFor } from './dates';
import { Action, Lines, MailLayout, P, paragraph } from './layout';
import { renderBodies } from './render';
import type { MailWords } from './words';

/**
 * The call-centre mail (docs/rules/callbacks.md#the-call-centre-mail): a patient asks to be
 * phoned back. Its reader is an agent, so it holds what they need to call (name, the number as a
 * tel: link, when, what about) and the way to the queue where they mark it called.
 */

export type CallbackWindowName = keyof MailWords['callback']['window'];

export interface CallbackRequestFacts {
  firstName: string;
  lastName: string;
  /** As dialled: digits with an optional leading plus. */
  phone: string;
  windows: readonly CallbackWindowName[];
  reason: string;
  examName: string | null;
  receivedAt: Date;
  /** The provider's home zone, for the received time. */
  timeZone: string;
}

const label: React.CSSProperties = { ...paragraph, margin: 0, fontSize: '14px', lineHeight: '20px', color: '#4b5563' };
const value: React.CSSProperties = { ...paragraph, margin: '0 0 10px', fontWeight: 700 };

function Fact(props: { name: string; children: React.ReactNode }) {
  return (
    <>
      <Text style={label}>{props.name}</Text>
      <Text style={value}>{props.children}</Text>
    </>
  );
}

function CallbackRequestMail(props: {
  brand: MailBrand;
  words: MailWords;
  lang: string;
  subject: string;
  facts: CallbackRequestFacts;
  when: string;
}) {
  const { brand, words, facts } = props;
  const w = words.callback;
  return (
    <MailLayout brand={brand} words={words} lang={props.lang} title={props.subject} preview={w.intro}>
      <P>{words.common.hello(null)}</P>
      <P>{w.intro}</P>
      <Section style={{ borderLeft: `4px solid ${brand.colour}`, padding: '4px 0 4px 12px', margin: '0 0 12px' }}>
        <Fact name={w.name}>{`${facts.firstName} ${facts.lastName}`}</Fact>
        <Fact name={w.phone}>
          <Link href={`tel:${facts.phone}`} style={{ color: brand.link }}>
            {facts.phone}
          </Link>
        </Fact>
        <Fact name={w.windows}>{facts.windows.map((window) => w.window[window]).join('; ')}</Fact>
        {facts.examName === null ? null : <Fact name={w.exam}>{facts.examName}</Fact>}
        <Fact name={w.received}>{props.when}</Fact>
      </Section>
      <Section style={{ backgroundColor: '#f3f5f7', padding: '8px 12px', margin: '0 0 12px', borderRadius: '6px' }}>
        <Lines lines={[w.reason, ...facts.reason.split(/\r\n|\r|\n/)]} style={{ margin: 0 }} />
      </Section>
      <Action brand={brand} href={`${brand.publicUrl}/staff/callbacks`} label={w.button} />
      <P>{w.after}</P>
    </MailLayout>
  );
}

/** The mail's subject and bodies in the locale's words (the provider's, for its own call centre). */
export async function callbackRequestedMail(
  facts: CallbackRequestFacts,
  context: { brand: MailBrand; locale: SupportedLocale },
): Promise<{ subject: string; text: string; html: string }> {
  const words = wordsFor(context.locale);
  const dates = mailDates(context.locale, facts.timeZone);
  const subject = oneLineSubject(words.callback.subject(context.brand.name, `${facts.firstName} ${facts.lastName}`));
  const when = words.common.at(dates.date(facts.receivedAt), dates.time(facts.receivedAt));
  const bodies = await renderBodies(
    <CallbackRequestMail brand={context.brand} words={words} lang={context.locale} subject={subject} facts={facts} when={when} />,
  );
  return { subject, ...bodies };
}
