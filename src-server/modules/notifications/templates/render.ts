import { render } from '@react-email/render';
import type { ReactElement } from 'react';

/** A mail's two bodies from one react-email element: the HTML, and the plain text of the same words. */
export async function renderBodies(element: ReactElement): Promise<{ html: string; text: string }> {
  const [html, text] = await Promise.all([
    render(element),
    render(element, {
      plainText: true,
      // Headings keep their case (html-to-text shouts them by default); a blank line between paragraphs.
      htmlToTextOptions: {
        selectors: [
          ...['h1', 'h2', 'h3'].map((selector) => ({ selector, options: { uppercase: false, leadingLineBreaks: 2 } })),
          { selector: 'p', options: { leadingLineBreaks: 2, trailingLineBreaks: 2 } },
        ],
      },
    }),
  ]);
  return { html, text: `${text.trim()}\n` };
}
