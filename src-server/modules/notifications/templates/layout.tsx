/** @jsxRuntime automatic @jsxImportSource react */
// The pragma above: the server runs through tsx with the root tsconfig, which sets no JSX runtime.
import { Body, Button, Container, Head, Heading, Hr, Html, Img, Link, Preview, Section, Text } from '@react-email/components';
import type { CSSProperties, ReactNode } from 'react';
import type { MailBrand } from './brand';
import type { MailWords } from './words';
import { UNSUBSCRIBE_URL_PLACEHOLDER } from './unsubscribe-placeholder';

/**
 * The one layout every mail shares (docs/rules/notifications.md#layout): the provider's header
 * (logo and name in its colours), the mail's own content on a white card, and a footer with how to
 * reach the provider. Inline styles only: mail clients drop style sheets.
 */

const FONT = "Arial, 'Helvetica Neue', Helvetica, sans-serif";
const TEXT = '#1f2933';
const MUTED = '#4b5563';

export const paragraph: CSSProperties = { margin: '0 0 12px', fontSize: '16px', lineHeight: '24px', color: TEXT };

export function MailLayout(props: {
  brand: MailBrand;
  words: MailWords;
  lang: string;
  title: string;
  /** The line mail clients show after the subject. */
  preview: string;
  /** A phone number for questions (the clinic's), shown in the footer. */
  phone?: string | null;
  children: ReactNode;
}) {
  const { brand, words } = props;
  return (
    <Html lang={props.lang}>
      <Head>
        <title>{props.title}</title>
      </Head>
      <Preview>{props.preview}</Preview>
      <Body style={{ margin: 0, padding: '16px 0', backgroundColor: '#f3f5f7', fontFamily: FONT, color: TEXT }}>
        <Container style={{ maxWidth: '600px', width: '100%', margin: '0 auto' }}>
          <Section style={{ backgroundColor: brand.headerBackground, padding: '16px 24px', borderRadius: '8px 8px 0 0' }}>
            {brand.logoUrl === null ? null : (
              <Img src={brand.logoUrl} alt="" height="40" style={{ display: 'inline-block', height: '40px', marginRight: '12px' }} />
            )}
            <Text
              style={{ display: 'inline-block', margin: 0, fontSize: '20px', lineHeight: '40px', fontWeight: 700, color: brand.headerText }}
            >
              {brand.name}
            </Text>
          </Section>
          <Section style={{ backgroundColor: '#ffffff', padding: '24px', borderRadius: '0 0 8px 8px' }}>{props.children}</Section>
          <Section style={{ padding: '16px 24px' }}>
            {brand.contactUrl === null && !props.phone ? null : (
              <Text style={{ margin: '0 0 8px', fontSize: '14px', lineHeight: '20px', color: MUTED }}>
                {words.common.contactHeading}{' '}
                {brand.contactUrl === null ? null : (
                  <Link href={brand.contactUrl} style={{ color: brand.link, textDecoration: 'underline' }}>
                    {words.common.contactPage}
                  </Link>
                )}
                {props.phone ? `${brand.contactUrl === null ? '' : ' · '}${words.common.phone(props.phone)}` : null}
              </Text>
            )}
            <Hr style={{ borderColor: '#d1d5db', margin: '8px 0' }} />
            <Text style={{ margin: 0, fontSize: '13px', lineHeight: '20px', color: MUTED }}>
              {words.common.sentBy(brand.name)} {words.common.automatic}
            </Text>
            <Text style={{ margin: '8px 0 0', fontSize: '13px', lineHeight: '20px', color: MUTED }}>
              {words.common.unsubscribeLead}{' '}
              <Link href={UNSUBSCRIBE_URL_PLACEHOLDER} style={{ color: brand.link, textDecoration: 'underline' }}>
                {words.common.unsubscribe}
              </Link>
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

export function P(props: { children: ReactNode; style?: CSSProperties }) {
  return <Text style={{ ...paragraph, ...props.style }}>{props.children}</Text>;
}

export function H(props: { children: ReactNode }) {
  return (
    <Heading as="h2" style={{ margin: '20px 0 8px', fontSize: '18px', lineHeight: '26px', color: TEXT }}>
      {props.children}
    </Heading>
  );
}

/** Lines kept as lines (an address, preparation notes), each one escaped by React. */
export function Lines(props: { lines: readonly string[]; style?: CSSProperties }) {
  return (
    <Text style={{ ...paragraph, ...props.style }}>
      {props.lines.map((line, index) => (
        <span key={index}>
          {index > 0 ? <br /> : null}
          {line}
        </span>
      ))}
    </Text>
  );
}

/** The mail's one action: a button in the provider's colour, its address readable in the text part. */
export function Action(props: { brand: MailBrand; href: string; label: string }) {
  return (
    <Section style={{ margin: '8px 0 16px' }}>
      <Button
        href={props.href}
        style={{
          backgroundColor: props.brand.colour,
          color: props.brand.onColour,
          padding: '12px 20px',
          borderRadius: '6px',
          fontSize: '16px',
          fontWeight: 700,
          textDecoration: 'none',
        }}
      >
        {props.label}
      </Button>
      {/* The button already gives the address in the text part. */}
      <Text
        data-skip-in-text="true"
        style={{ margin: '8px 0 0', fontSize: '13px', lineHeight: '20px', color: MUTED, wordBreak: 'break-all' }}
      >
        <Link href={props.href} style={{ color: props.brand.link }}>
          {props.href}
        </Link>
      </Text>
    </Section>
  );
}

/**
 * Answers side by side (a reminder's "I will come" and "I cannot come"): the first filled in the
 * brand's colour, the others outlined. Each opens a page that asks once more before it changes
 * anything (mail scanners open every link).
 */
export function Choices(props: { brand: MailBrand; options: ReadonlyArray<{ href: string; label: string }> }) {
  const { brand } = props;
  return (
    <Section style={{ margin: '8px 0 16px' }}>
      {props.options.map((option, index) => (
        <Button
          key={option.href}
          href={option.href}
          style={{
            backgroundColor: index === 0 ? brand.colour : '#ffffff',
            color: index === 0 ? brand.onColour : brand.link,
            border: `2px solid ${index === 0 ? brand.colour : brand.link}`,
            padding: '10px 18px',
            margin: '0 8px 8px 0',
            borderRadius: '6px',
            fontSize: '16px',
            fontWeight: 700,
            textDecoration: 'none',
          }}
        >
          {option.label}
        </Button>
      ))}
    </Section>
  );
}
