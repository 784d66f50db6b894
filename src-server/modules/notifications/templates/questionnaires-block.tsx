/** @jsxRuntime automatic @jsxImportSource react */
import type { MailBrand } from './brand';
import { Action, H, Lines } from './layout';

/** Questionnaires a mail asks the patient to answer: their heading, a lead, their titles and the /q link's button. */
export interface QuestionnairesView {
  heading: string;
  intro: string;
  titles: string[];
  link: string;
  button: string;
}

export function QuestionnairesBlock(props: { brand: MailBrand; view: QuestionnairesView }) {
  const { brand, view } = props;
  return (
    <>
      <H>{view.heading}</H>
      <Lines lines={[view.intro, ...view.titles.map((title) => `• ${title}`)]} />
      <Action brand={brand} href={view.link} label={view.button} />
    </>
  );
}
